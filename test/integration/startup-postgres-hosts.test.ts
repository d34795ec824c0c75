import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { postgresAdmin, postgresBase } from '../support/postgres-admin.js';
import { serverPort } from '../support/ports.js';
import { expectOneClearLine, runVexil } from '../support/vexil-process.js';

const withPostgres = testDatabases.some((db) => db.name === 'postgres');

/** A start with a DATABASE_URL of several PostgreSQL hosts, on the shared server and ports where nothing listens. */
describe.runIf(withPostgres)('a start on PostgreSQL with several hosts', () => {
  const name = `vexil_t_${randomBytes(6).toString('hex')}`;
  const live = new URL(postgresBase);
  const deadPort = serverPort();
  afterAll(async () => {
    await postgresAdmin(postgresBase, [`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]);
  });

  it('starts on the host that takes writes, the first one named being down', async () => {
    const url = `postgres://${live.username}@127.0.0.1:${deadPort},${live.host}/${name}?target_session_attrs=read-write`;
    const run = await runVexil({ DATABASE_URL: url, PORT: String(serverPort()) }, 60_000, /Vexil is listening/);
    expect(run.stdout, run.stderr).toContain(`"database":"${name}","msg":"created the database"`);
    expect(run.stdout).toContain('Vexil is listening');
  }, 90_000);

  it('names every host and why none takes writes, in one line', async () => {
    const other = serverPort();
    const run = await runVexil({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort},127.0.0.1:${other}/${name}?target_session_attrs=read-write`,
      PORT: '0',
    });
    expectOneClearLine(
      run,
      new RegExp(
        `^Vexil cannot start: DATABASE_URL: no database host accepts writes: 127\\.0\\.0\\.1:${deadPort} failed: connect ECONNREFUSED .*; 127\\.0\\.0\\.1:${other} failed: connect ECONNREFUSED`,
      ),
    );
  }, 40_000);

  it('names the host that is malformed, in one line, without the password', async () => {
    const run = await runVexil({ DATABASE_URL: 'postgres://vexil:hunter2@db1:5432,db2:0/vexil', PORT: '0' });
    expectOneClearLine(run, /^Vexil cannot start: DATABASE_URL: host 2 \("db2:0"\): the port must be a number from 1 to 65535$/);
    expect(run.stderr + run.stdout).not.toContain('hunter2');
  }, 40_000);
});
