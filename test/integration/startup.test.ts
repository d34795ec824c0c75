import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { testDatabases } from '../support/databases.js';
import { redisAvailable, testRedisUrl } from '../support/redis.js';
import { serverPort } from '../support/ports.js';
import { expectOneClearLine, type Run, runVexil } from '../support/vexil-process.js';

describe('a start refused for a reason the operator can fix', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-startup-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops at an invalid setting with one line naming it, before touching the database', async () => {
    const run = await runVexil({ DATABASE_URL: `sqlite:${dir}/settings/vexil.db`, PORT: '0', VEXIL_TRUST_PROXY: 'yes' });
    expectOneClearLine(run, /^Vexil cannot start: VEXIL_TRUST_PROXY must be true or false .*got "yes"$/);
    expect(fs.existsSync(`${dir}/settings`)).toBe(false);
  }, 40_000);

  it.runIf(redisAvailable)(
    'logs whether Redis is connected',
    async () => {
      const port = String(serverPort());
      const base = { DATABASE_URL: `sqlite:${dir}/redis/vexil.db`, PORT: port };
      const connected = await runVexil({ ...base, REDIS_URL: testRedisUrl }, 30_000, /Redis connected/);
      expect(connected.stdout).toContain('"channel":"vexil:environment-revisions","msg":"Redis connected');
      const unreachable = await runVexil({ ...base, REDIS_URL: 'redis://127.0.0.1:1' }, 30_000, /Redis change notifications unavailable/);
      expect(unreachable.stdout).toContain('Redis change notifications unavailable; polling continues');
      const none = await runVexil(base, 30_000, /Vexil is listening/);
      expect(none.stdout).toMatch(/"redis":"not configured".*"msg":"Vexil is listening"/);
    },
    100_000,
  );

  it('stops at a port in use on first start with one line, and keeps the first start for the next one', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = String((blocker.address() as net.AddressInfo).port);
    const base = { DATABASE_URL: `sqlite:${dir}/port/vexil.db` };
    let refused: Run;
    try {
      refused = await runVexil({ ...base, PORT: port });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expectOneClearLine(refused, new RegExp(`^Vexil cannot start: port ${port} is already in use`));
    expect(refused.stdout).not.toMatch(/pat_|srv_/);
    // The database holds no owner yet: the next start is the first start, and shows the secrets.
    const started = await runVexil({ ...base, PORT: port }, 30_000, /Vexil is listening/);
    expect(started.stdout).toMatch(/pat_[0-9A-Za-z]{32,}/);
    expect(started.stdout).toMatch(/srv_[0-9A-Za-z]{32,}/);
  }, 80_000);
});

describe('VEXIL_INIT_OWNER_TOKEN on a database that already has accounts', () => {
  it('is ignored with one log line that names the README section on owner recovery', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-init-token-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const port = String(serverPort());
    const base = { DATABASE_URL: `sqlite:${dir}/vexil.db`, PORT: port };
    const first = await runVexil(base, 30_000, /Vexil is listening/);
    expect(first.stdout).toMatch(/pat_[0-9A-Za-z]{32,}/);

    const token = generateSecret('pat_');
    const second = await runVexil({ ...base, VEXIL_INIT_OWNER_TOKEN: token }, 30_000, /Vexil is listening/);
    const lines = (second.stdout + second.stderr).split('\n').filter((line) => line.includes('VEXIL_INIT_OWNER_TOKEN'));
    expect(lines, second.stdout + second.stderr).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as { level: number; msg: string };
    expect(entry.level).toBe(40);
    expect(entry.msg).toMatch(/^VEXIL_INIT_OWNER_TOKEN is ignored: the database already has accounts/);
    // The secret itself is never logged, and no owner is created from it.
    expect(second.stdout + second.stderr).not.toContain(token);
    expect(second.stdout).not.toMatch(/pat_[0-9A-Za-z]{32,}/);
    // The line sends the operator to a section of the README that exists under that very name.
    const section = /see "([^"]+)" in the README/.exec(entry.msg)?.[1];
    expect(section).toBeDefined();
    const headings = [...fs.readFileSync('README.md', 'utf8').matchAll(/^(?:#+ (.+)|\*\*(.+?)\*\*)/gm)].map((m) => m[1] ?? m[2]);
    expect(headings).toContain(section);
  }, 80_000);
});

const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const withMariadb = testDatabases.some((db) => db.name === 'mariadb');

describe.runIf(withMariadb)('a MySQL/MariaDB database that does not exist', () => {
  const name = `vexil_t_${randomBytes(6).toString('hex')}`;
  const user = `vexil_t_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: { uri: mysqlBase } as never });
  afterAll(async () => {
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.raw(`DROP USER IF EXISTS '${user}'@'%'`);
    await admin.destroy();
  });

  it('is refused in one line naming it when the user may not create it', async () => {
    await admin.raw(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw'`);
    const url = new URL(mysqlBase);
    const run = await runVexil({ DATABASE_URL: `mysql://${user}:pw@${url.host}/${name}`, PORT: '0' });
    expectOneClearLine(
      run,
      new RegExp(`^Vexil cannot start: database "${name}" does not exist on .*user "${user}" may not .*the user may not create it`),
    );
    expect(run.stderr).not.toContain('pw@');
  }, 40_000);

  it('is created when the user may, and Vexil starts on it', async () => {
    const port = String(serverPort());
    const run = await runVexil({ DATABASE_URL: `${mysqlBase}/${name}`, PORT: port }, 60_000, /Vexil is listening/);
    expect(run.stdout).toContain(`"database":"${name}","msg":"created the database"`);
    expect(run.stdout).toMatch(/pat_[0-9A-Za-z]{32,}/);
    const [rows] = await admin.raw('SELECT DEFAULT_COLLATION_NAME AS c FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME = ?', [name]);
    expect(rows).toEqual([{ c: 'utf8mb4_bin' }]);
  }, 80_000);

  it('stops with one line when the database stops answering after the first connection', async () => {
    // A proxy that passes the first connection (the check that the database exists) and cuts
    // every later one as it opens: the database went away during the start.
    await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    const target = new URL(mysqlBase);
    let connections = 0;
    const proxy = net.createServer((client) => {
      if (++connections > 1) return void client.destroy();
      const upstream = net.connect(Number(target.port || 3306), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const port = (proxy.address() as net.AddressInfo).port;
    const run = await runVexil({ DATABASE_URL: `mysql://root@127.0.0.1:${port}/${name}`, PORT: '0', VEXIL_DB_ACQUIRE_TIMEOUT_MS: '1000' });
    expectOneClearLine(run, /^Vexil cannot start: the database stopped answering during the start \(.+\); start again once it answers$/);
    expect(connections).toBeGreaterThan(1);
  }, 40_000);

  it('names an unreachable server in one line', async () => {
    const run = await runVexil({ DATABASE_URL: `mysql://root@127.0.0.1:1/${name}`, PORT: '0' });
    expectOneClearLine(run, new RegExp(`^Vexil cannot start: cannot reach the database server at 127.0.0.1:1 for database "${name}"`));
  }, 40_000);
});
