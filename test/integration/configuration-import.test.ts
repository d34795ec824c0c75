import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';

const file = `version: 1
project:
  key: shop
  name: Shop
  description: From a file
environments:
  - key: production
    name: Production
    description: null
    color: "#aa0000"
    comments_required: true
    confirmation_required: false
segments: []
flags:
  - key: new-checkout
    name: New checkout
    type: boolean
    description: null
    permanent: false
    include_in_mobile: true
    include_in_client: true
    values:
      - value: "true"
        default: false
      - value: "false"
        default: true
    environments:
      production:
        value: "true"
        rules: []
        rollout: null
`;

// VEXIL_IMPORT_FILE as an operator uses it: a real process on an empty database.
describe('VEXIL_IMPORT_FILE', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-import-'));
  const token = generateSecret('pat_');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function start(name: string, importFile: string) {
    const port = 30000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${dir}/${name}.db`,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        VEXIL_INIT_OWNER_TOKEN: token,
        VEXIL_IMPORT_FILE: importFile,
        VEXIL_DRAIN_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, port, exited, stderr: () => stderr };
  }

  it('applies the file on first start, instead of the demo project', async () => {
    const yaml = path.join(dir, 'shop.yaml');
    fs.writeFileSync(yaml, file);
    const server = start('good', yaml);
    try {
      const api = (route: string) => fetch(`http://127.0.0.1:${server.port}/management/v1${route}`, { headers: { authorization: `Bearer ${token}` } });
      let up = false;
      for (let i = 0; i < 150 && !up; i++) {
        await new Promise((r) => setTimeout(r, 100));
        up = await api('/projects').then((r) => r.ok, () => false);
      }
      expect(up).toBe(true);
      const projects = (await (await api('/projects')).json()) as { data: Array<{ key: string }> };
      expect(projects.data.map((p) => p.key)).toEqual(['shop']);
      const exported = await (await api('/projects/shop/configuration?format=yaml')).text();
      expect(exported).toContain('comment: Imported from');
      expect(exported.replace(/\n        comment: Imported from .*\n/, '\n')).toBe(file);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('stops with one line and no stack trace when the file is not a project configuration', async () => {
    const broken = path.join(dir, 'broken.yaml');
    fs.writeFileSync(broken, file.replace('type: boolean', 'type: colour'));
    const server = start('broken', broken);
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Vexil cannot start: VEXIL_IMPORT_FILE: .*broken\.yaml is not a valid project configuration: flags\.0\.type/);
  });
});
