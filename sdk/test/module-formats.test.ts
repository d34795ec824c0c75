/**
 * @vexil/sdk loads with `require` (CommonJS applications, Node < 20.19) and with `import`, through its exports,
 * both from the repository and as the tarball `npm pack` makes, installed with nothing else.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sdk = path.resolve(import.meta.dirname, '..');

describe('module formats', () => {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-sdk-formats-'));

  beforeAll(() => {
    execFileSync(process.execPath, [path.join(sdk, 'scripts', 'build.mjs')], { stdio: 'inherit' });
    // An application with the package installed (a link, as a workspace would have it).
    fs.mkdirSync(path.join(app, 'node_modules', '@vexil'), { recursive: true });
    fs.symlinkSync(sdk, path.join(app, 'node_modules', '@vexil', 'sdk'), 'dir');
  }, 120_000);
  afterAll(() => fs.rmSync(app, { recursive: true, force: true }));

  const run = (file: string, code: string) => {
    fs.writeFileSync(path.join(app, file), code);
    return execFileSync(process.execPath, [path.join(app, file)], { cwd: app, encoding: 'utf8' }).trim();
  };

  const evaluate = `
    const client = sdk.createServerClient({ offline: true, logger: null, bootstrap: { kind: 'server', etag: '"e"', revision: 1, environment: { ulid: 'env_1', key: 'production' }, config: { flags: [] } } });`;

  it('require() gets the CommonJS build, subpaths included', () => {
    const out = run(
      'app.cjs',
      `const sdk = require('@vexil/sdk');
       const { VexilServerProvider } = require('@vexil/sdk/openfeature/server');
       ${evaluate}
       console.log(typeof sdk.createServerClient, typeof VexilServerProvider, require.resolve('@vexil/sdk').includes('/dist/cjs/'), client.boolean('missing', { type: 'user', identifier: 'u' }, true));`,
    );
    expect(out).toBe('function function true true');
  });

  it('import gets the ES module build', () => {
    const out = run(
      'app.mjs',
      `import * as sdk from '@vexil/sdk';
       import { VexilServerProvider } from '@vexil/sdk/openfeature/server';
       ${evaluate}
       console.log(typeof sdk.createServerClient, typeof VexilServerProvider, import.meta.resolve('@vexil/sdk').includes('/dist/sdk/'), client.boolean('missing', { type: 'user', identifier: 'u' }, true));`,
    );
    expect(out).toBe('function function true true');
  });

  describe('as `npm pack` makes it, installed from the tarball into an empty application', () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-sdk-pack-'));
    const consumer = path.join(work, 'app');
    // npm runs on the Node running the tests (npm's own start line asks for `node`).
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
    const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, env, encoding: 'utf8' });

    beforeAll(() => {
      const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], sdk)) as Array<{
        filename: string;
      }>;
      fs.mkdirSync(consumer);
      fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
      // --offline: the package must need nothing from a registry.
      npm(['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', path.join(work, packed[0]!.filename)], consumer);
    }, 120_000);
    afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

    const runIn = (file: string, code: string) => {
      fs.writeFileSync(path.join(consumer, file), code);
      return execFileSync(process.execPath, [path.join(consumer, file)], { cwd: consumer, encoding: 'utf8' }).trim();
    };

    it('installs alone: no runtime dependencies, a real copy (not a link)', () => {
      expect(fs.readdirSync(path.join(consumer, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@vexil']);
      expect(fs.lstatSync(path.join(consumer, 'node_modules', '@vexil', 'sdk')).isSymbolicLink()).toBe(false);
      expect(
        JSON.parse(fs.readFileSync(path.join(consumer, 'node_modules', '@vexil', 'sdk', 'package.json'), 'utf8')).dependencies,
      ).toBeUndefined();
    });

    it('loads with require and with import', () => {
      expect(
        runIn(
          'app.cjs',
          `const sdk = require('@vexil/sdk'); ${evaluate} console.log(require.resolve('@vexil/sdk').includes('/dist/cjs/'), client.boolean('missing', { type: 'user', identifier: 'u' }, true));`,
        ),
      ).toBe('true true');
      expect(
        runIn(
          'app.mjs',
          `import * as sdk from '@vexil/sdk'; ${evaluate} console.log(import.meta.resolve('@vexil/sdk').includes('/dist/sdk/'), client.boolean('missing', { type: 'user', identifier: 'u' }, true));`,
        ),
      ).toBe('true true');
    });

    it.each(['Node16', 'NodeNext'])('carries types for a CommonJS and an ES module file (module %s)', (module) => {
      const use = `import { createServerClient, type VexilServerClient } from '@vexil/sdk';
        const client: VexilServerClient = createServerClient({ offline: true, logger: null });
        export const on: boolean = client.boolean('x', { type: 'user', identifier: 'u' }, false);\n`;
      fs.writeFileSync(path.join(consumer, 'use.cts'), use);
      fs.writeFileSync(path.join(consumer, 'use.mts'), use);
      const options = { module, moduleResolution: module, target: 'ES2022', strict: true, noEmit: true, types: [], lib: ['ES2022', 'DOM'] };
      fs.writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['use.cts', 'use.mts'] }));
      const tsc = path.resolve(sdk, '..', 'node_modules', 'typescript', 'bin', 'tsc');
      const result = spawnSync(process.execPath, [tsc, '-p', path.join(consumer, 'tsconfig.json')], { encoding: 'utf8' });
      expect(result.stdout + result.stderr).toBe('');
      expect(result.status).toBe(0);
    });
  });
});

describe('the supported Node range', () => {
  it('is the one of package.json engines, stated the same in docs/sdk.md and sdk/README.md', () => {
    const engines = (JSON.parse(fs.readFileSync(path.join(sdk, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=20');
    for (const readme of [path.join(sdk, '..', 'docs', 'sdk.md'), path.join(sdk, 'README.md')]) {
      const sdkPart = fs.readFileSync(readme, 'utf8');
      expect(sdkPart, readme).toContain('Node.js 20 or later');
      expect(sdkPart.match(/Node(\.js)? (1[0-9]|2[1-9])\b[^\n]*/g) ?? [], readme).toEqual([]);
    }
  });
});
