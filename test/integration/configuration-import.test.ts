import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { describeEachDatabase } from '../support/databases.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

/** A boolean flag's entry in the file, serving true in production. */
const flagEntry = (key: string, name: string) => `  - key: ${key}
    name: ${name}
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
${flagEntry('new-checkout', 'New checkout')}`;

// VEXIL_IMPORT_FILE as an operator uses it: a real process on an empty database.
describeEachDatabase('VEXIL_IMPORT_FILE', (db) => {
  let dir = '';
  const token = generateSecret('pat_');
  const databases: Array<{ drop(): Promise<void> }> = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-import-'));
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Starts the real entry point on a new, empty database of this suite's kind, or again on the
   * database of an earlier start.
   */
  async function start(importFile: string, options: { database?: { url: string }; logLevel?: string } = {}) {
    let database = options.database;
    if (!database) {
      const created = await db.create();
      databases.push(created);
      database = created;
    }
    const port = serverPort();
    requireFreshBuild();
    const child = spawn(process.execPath, [builtServer], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: options.logLevel ?? 'silent',
        VEXIL_INIT_OWNER_TOKEN: token,
        VEXIL_IMPORT_FILE: importFile,
        VEXIL_DRAIN_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const api = (method: string, route: string) =>
      fetch(`http://127.0.0.1:${port}/management/v1${route}`, { method, headers: { authorization: `Bearer ${token}` } });
    /** Resolves once the management API answers (a loaded machine starts slowly). */
    const up = async () => {
      for (let i = 0; i < 600; i++) {
        if (child.exitCode !== null) throw new Error(`the server stopped: ${stderr}`);
        if (
          await api('GET', '/projects').then(
            (r) => r.ok,
            () => false,
          )
        )
          return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the server did not start');
    };
    const stop = async () => {
      child.kill('SIGTERM');
      await exited;
    };
    return { child, port, exited, database, api, up, stop, stdout: () => stdout, stderr: () => stderr };
  }

  const projectKeys = async (server: { api(method: string, route: string): Promise<Response> }) =>
    ((await (await server.api('GET', '/projects')).json()) as { data: Array<{ key: string }> }).data.map((p) => p.key);

  it('applies the file on first start, instead of the demo project', async () => {
    const yaml = path.join(dir, 'shop.yaml');
    fs.writeFileSync(yaml, file);
    const server = await start(yaml);
    try {
      const api = (route: string) =>
        fetch(`http://127.0.0.1:${server.port}/management/v1${route}`, { headers: { authorization: `Bearer ${token}` } });
      await server.up();
      // The file holds no keys: the start says how to create them.
      expect(server.stdout()).toContain(`Vexil imported project "shop" from ${yaml}. Its environments have no keys yet`);
      expect(server.stdout()).toContain('vexil keys create --project shop --env production --kind server');
      const projects = (await (await api('/projects')).json()) as { data: Array<{ key: string }> };
      expect(projects.data.map((p) => p.key)).toEqual(['shop']);
      const exported = await (await api('/projects/shop/configuration?format=yaml')).text();
      // The publish comment names the file; it is history, not configuration, so not exported.
      expect(exported).toBe(file);
      const targets = (await (await api('/projects/shop/flags/new-checkout/environments/production/targets')).json()) as {
        data: Array<{ comment: string | null }>;
      };
      expect(targets.data.map((t) => t.comment)).toEqual([`Imported from ${yaml}`]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('answers nothing but the probes until the file is imported: no request sees the instance half-started', async () => {
    // Enough flags that the import takes a while after the port is open.
    const flags = Array.from({ length: 100 }, (_, i) => flagEntry(`flag-${String(i).padStart(3, '0')}`, `Flag ${i}`));
    const large = path.join(dir, 'large.yaml');
    fs.writeFileSync(large, file.replace(/^flags:\n[\s\S]*$/m, `flags:\n${flags.join('')}`));
    const server = await start(large);
    const base = `http://127.0.0.1:${server.port}`;
    const projects: Array<{ status: number; keys: string[] }> = [];
    const ready: Array<{ status: number; reasons?: string[] }> = [];
    try {
      const deadline = Date.now() + 100_000;
      while (Date.now() < deadline && projects.length === 0) {
        // Probes and API requests at once, from the moment the port is open.
        const [probe, listed] = await Promise.all([
          fetch(`${base}/ready`).then(
            async (r) => ({ status: r.status, reasons: ((await r.json()) as { reasons?: string[] }).reasons }),
            () => undefined,
          ),
          fetch(`${base}/management/v1/projects`, { headers: { authorization: `Bearer ${token}` } }).then(
            async (r) => ({
              status: r.status,
              keys: ((await r.json()) as { data?: Array<{ key: string }> }).data?.map((p) => p.key) ?? [],
            }),
            () => undefined,
          ),
        ]);
        if (probe) ready.push(probe.status === 200 ? { status: 200 } : probe);
        if (listed) projects.push(listed);
        if (!probe && !listed) await new Promise((r) => setTimeout(r, 20));
      }
      expect(projects).toEqual([{ status: 200, keys: ['shop'] }]);
      // Readiness, answered at once, said "starting" while the file was being imported (on SQLite
      // the import keeps the event loop so busy that connections mostly wait to be accepted), then
      // "snapshots loading" until the environments were in memory.
      for (const answer of ready) {
        expect([{ status: 200 }, { status: 503, reasons: ['starting'] }, { status: 503, reasons: ['snapshots loading'] }]).toContainEqual(
          answer,
        );
      }
      const readyBy = Date.now() + 10_000;
      while ((await fetch(`${base}/ready`)).status !== 200) {
        expect(Date.now()).toBeLessThan(readyBy);
        await new Promise((r) => setTimeout(r, 50));
      }
      const flag = await fetch(`${base}/management/v1/projects/shop/flags/flag-099`, { headers: { authorization: `Bearer ${token}` } });
      expect(flag.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);

  it('stops with one line and no stack trace when the file is not a project configuration; a start with a good file then applies it', async () => {
    const broken = path.join(dir, 'broken.yaml');
    fs.writeFileSync(broken, file.replace('type: boolean', 'type: colour'));
    const server = await start(broken);
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Vexil cannot start: VEXIL_IMPORT_FILE: .*broken\.yaml is not a valid project configuration: flags\.0\.type/);

    // The failed start left the owner account and no project: the next start imports.
    const good = path.join(dir, 'good.yaml');
    fs.writeFileSync(good, file);
    const again = await start(good, { database: server.database });
    try {
      await again.up();
      expect(await projectKeys(again)).toEqual(['shop']);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('applies the file only to a database without projects: a project deleted through the API stays deleted across restarts', async () => {
    const yaml = path.join(dir, 'restart.yaml');
    fs.writeFileSync(yaml, file);
    const first = await start(yaml);
    try {
      await first.up();
      expect(await projectKeys(first)).toEqual(['shop']);
      // People make a project of their own and delete the imported one.
      const created = await fetch(`http://127.0.0.1:${first.port}/management/v1/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'kept', name: 'Kept' }),
      });
      expect(created.status).toBe(200);
      expect((await first.api('DELETE', '/projects/shop')).status).toBe(200);
    } finally {
      await first.stop();
    }

    // The database has a project: the file is not applied, and the start says so in one line.
    const second = await start(yaml, { database: first.database, logLevel: 'info' });
    try {
      await second.up();
      expect(await projectKeys(second)).toEqual(['kept']);
      const mentions = second
        .stdout()
        .split('\n')
        .filter((line) => line.includes('VEXIL_IMPORT_FILE'));
      expect(mentions).toHaveLength(1);
      expect(JSON.parse(mentions[0]!)).toMatchObject({
        level: 30,
        file: yaml,
        projects: 1,
        msg: 'VEXIL_IMPORT_FILE: the database has projects already; the file is not applied',
      });
      expect(second.stderr()).toBe('');
    } finally {
      await second.stop();
    }

    // Nor is it read: a start after the file is gone is an ordinary start.
    fs.rmSync(yaml);
    const third = await start(yaml, { database: first.database });
    try {
      await third.up();
      expect(await projectKeys(third)).toEqual(['kept']);
    } finally {
      await third.stop();
    }
  }, 180_000);

  it('two instances starting together on one empty database both come up, with the file applied once', async () => {
    const yaml = path.join(dir, 'together.yaml');
    fs.writeFileSync(yaml, file);
    const database = await db.create();
    databases.push(database);
    const servers = [await start(yaml, { database, logLevel: 'info' }), await start(yaml, { database, logLevel: 'info' })];
    try {
      await Promise.all(servers.map((server) => server.up()));
      for (const server of servers) expect(await projectKeys(server)).toEqual(['shop']);
      const flags = await (await servers[1]!.api('GET', '/projects/shop/flags')).json();
      expect((flags as { data: Array<{ key: string }> }).data.map((f) => f.key)).toEqual(['new-checkout']);
      // Each instance says what it did in one line: applied the file (the second, if it applied
      // after the first committed, changes nothing), found the project at its start, or lost the race.
      const said = servers.map((server) =>
        server
          .stdout()
          .split('\n')
          .filter((line) =>
            /imported the configuration file|VEXIL_IMPORT_FILE: (the database has projects|another instance applied)/.test(line),
          ),
      );
      for (const lines of said) expect(lines).toHaveLength(1);
      expect(said.flat().filter((line) => line.includes('imported the configuration file')).length).toBeGreaterThanOrEqual(1);
      for (const server of servers) expect(server.stderr()).toBe('');
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }, 180_000);
});
