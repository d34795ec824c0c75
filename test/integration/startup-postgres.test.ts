import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { postgresAdmin, postgresBase, postgresDatabaseUrl } from '../support/postgres-admin.js';
import { serverPort } from '../support/ports.js';
import { expectOneClearLine, runVexil } from '../support/vexil-process.js';

const withPostgres = testDatabases.some((db) => db.name === 'postgres');

describe.runIf(withPostgres)('a start on PostgreSQL refused for a reason the operator can fix', () => {
  const name = `vexil_t_${randomBytes(6).toString('hex')}`;
  const user = `vexil_t_${randomBytes(4).toString('hex')}`;
  const server = new URL(postgresBase);
  afterAll(async () => {
    await postgresAdmin(postgresBase, [`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`, `DROP ROLE IF EXISTS "${user}"`]);
  });

  it('is refused in one line naming the database when the user may not create it', async () => {
    await postgresAdmin(postgresBase, [`CREATE ROLE "${user}" LOGIN PASSWORD 'pw' NOCREATEDB`]);
    const run = await runVexil({ DATABASE_URL: `postgres://${user}:pw@${server.host}/${name}`, PORT: '0' });
    expectOneClearLine(
      run,
      new RegExp(
        `^Vexil cannot start: database "${name}" does not exist on .*user "${user}" may not create it: create it \\(CREATE DATABASE`,
      ),
    );
    expect(run.stderr).not.toContain('pw@');
  }, 40_000);

  it('creates the database when the user may, and starts on it (postgresql:// too)', async () => {
    const port = String(serverPort());
    const url = postgresDatabaseUrl(postgresBase, name).replace(/^postgres:/, 'postgresql:');
    const run = await runVexil({ DATABASE_URL: url, PORT: port }, 60_000, /Vexil is listening/);
    expect(run.stdout).toContain(`"database":"${name}","msg":"created the database"`);
    expect(run.stdout).toMatch(/pat_[0-9A-Za-z]{32,}/);
    expect(run.stdout).toContain('"database":"postgres"');
    // A second start finds the database and its schema: nothing created, no first-start secrets.
    const again = await runVexil({ DATABASE_URL: url, PORT: port }, 60_000, /Vexil is listening/);
    expect(again.stdout).not.toContain('created the database');
    expect(again.stdout).not.toMatch(/pat_[0-9A-Za-z]{32,}/);
  }, 120_000);

  it('names refused credentials in one line', async () => {
    const run = await runVexil({
      DATABASE_URL: `postgres://no_such_role_${randomBytes(3).toString('hex')}@${server.host}/${name}`,
      PORT: '0',
    });
    expectOneClearLine(run, new RegExp(`^Vexil cannot start: ${server.host} refused user "no_such_role_[0-9a-f]+" for database "${name}"`));
  }, 40_000);

  it('names an unreachable server in one line', async () => {
    const run = await runVexil({ DATABASE_URL: `postgres://postgres@127.0.0.1:1/${name}`, PORT: '0' });
    expectOneClearLine(run, new RegExp(`^Vexil cannot start: cannot reach the database server at 127.0.0.1:1 for database "${name}"`));
  }, 40_000);

  it('names what is wrong with a malformed URL in one line', async () => {
    const noDatabase = await runVexil({ DATABASE_URL: `postgres://postgres@${server.host}`, PORT: '0' });
    expectOneClearLine(noDatabase, /^Vexil cannot start: DATABASE_URL names no database: use postgres:\/\/user:password@.+\/DATABASE$/);
    const badPort = await runVexil({ DATABASE_URL: 'postgres://postgres@127.0.0.1:99999/vexil', PORT: '0' });
    expectOneClearLine(badPort, /^Vexil cannot start: DATABASE_URL is not a valid URL: use postgres:\/\/user:password@host:port\/DATABASE/);
  }, 60_000);

  it('stops with one line when the database stops answering after the first connection', async () => {
    // A proxy that passes the first connection (the check that the database exists) and cuts
    // every later one as it opens: the database went away during the start.
    await postgresAdmin(postgresBase, [`CREATE DATABASE "${name}_cut"`]);
    onTestFinished(() => postgresAdmin(postgresBase, [`DROP DATABASE IF EXISTS "${name}_cut" WITH (FORCE)`]));
    let connections = 0;
    const proxy = net.createServer((client) => {
      if (++connections > 1) return void client.destroy();
      const upstream = net.connect(Number(server.port || 5432), server.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const port = (proxy.address() as net.AddressInfo).port;
    const run = await runVexil({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/${name}_cut`,
      PORT: '0',
      VEXIL_DB_ACQUIRE_TIMEOUT_MS: '1000',
    });
    expectOneClearLine(run, /^Vexil cannot start: the database stopped answering during the start \(.+\); start again once it answers$/);
    expect(connections).toBeGreaterThan(1);
  }, 40_000);
});
