/** @vexil/sdk loads with `require` (CommonJS applications, Node < 20.19) and with `import`, through its exports. */
import { execFileSync } from 'node:child_process';
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
});
