import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePostgresHostsUrl } from '../../src/storage/postgres-hosts-url.js';
import { findWritableHost, followWritableHost, NoWritableHost, writableHostConnection } from '../../src/storage/postgres-writable-host.js';
import { selectedDatabaseNames } from '../support/databases-selection.js';
import { type PostgresCluster, postgresClusterUnavailable, startPostgresCluster } from '../support/postgres-cluster.js';

// A PostgreSQL suite: run when the run tests PostgreSQL (VEXIL_TEST_DATABASES), required like the shared server.
const wanted = selectedDatabaseNames().includes('postgres');
const unavailable = wanted ? postgresClusterUnavailable() : undefined;
if (unavailable && (process.env.CI || process.env.VEXIL_REQUIRE_POSTGRES === '1')) {
  throw new Error(`The PostgreSQL standby test needs a primary and standby of its own, but ${unavailable}.`);
}
if (unavailable) console.warn(`\n*** ${unavailable}: the PostgreSQL standby test is skipped. ***\n`);

const database = 'writable_host';
const timeoutMs = 1000;

/**
 * The host resolver on a primary with a synchronous standby of this test's own: it finds the
 * primary whatever the order of the hosts, finds none while the primary is dead and the standby
 * not yet promoted, and a Knex pool following it moves to the promoted standby.
 */
describe.runIf(wanted && !unavailable)('the writable host of a PostgreSQL primary and standby', () => {
  let cluster: PostgresCluster | undefined;
  let knex: Knex | undefined;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    await cluster.query(cluster.primary, `CREATE DATABASE ${database}`);
    // Acknowledged once on the standby's disk; readable there once replayed, a moment later.
    const deadline = Date.now() + 10_000;
    while ((await cluster.query(cluster.standby, `SELECT 1 FROM pg_database WHERE datname = '${database}'`)).length === 0) {
      if (Date.now() > deadline) throw new Error('the standby did not replay CREATE DATABASE within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    await knex?.destroy();
    await cluster?.stop();
  });

  const hostOf = (port: number) => ({ host: '127.0.0.1', port });

  it('finds the primary, whichever host the URL names first', async () => {
    const { primary, standby } = cluster!;
    const url = parsePostgresHostsUrl(cluster!.hostsUrl(database));
    expect(await findWritableHost(url, { timeoutMs })).toEqual(hostOf(primary.port));
    // With the type parsers of Vexil's pool, which read booleans as 1 and 0.
    const booleansAsNumbers = {
      getTypeParser: (oid: number, format?: string) =>
        oid === 16 ? (text: string) => (text === 't' ? 1 : 0) : pg.types.getTypeParser(oid, format as 'text'),
    };
    expect(await findWritableHost(url, { timeoutMs, base: { types: booleansAsNumbers } })).toEqual(hostOf(primary.port));
    const reversed = parsePostgresHostsUrl(
      `postgres://postgres@127.0.0.1:${standby.port},127.0.0.1:${primary.port}/${database}?target_session_attrs=read-write`,
    );
    expect(await findWritableHost(reversed, { timeoutMs })).toEqual(hostOf(primary.port));
  });

  it('finds the first host that answers when any host will do', async () => {
    const { standby } = cluster!;
    const url = parsePostgresHostsUrl(`postgres://postgres@127.0.0.1:${standby.port}/${database}?target_session_attrs=any`);
    expect(await findWritableHost(url, { timeoutMs })).toEqual(hostOf(standby.port));
  });

  it('follows the primary to the promoted standby, every committed row there, refusing writes in between', async () => {
    const { primary, standby } = cluster!;
    const hosts = writableHostConnection(parsePostgresHostsUrl(cluster!.hostsUrl(database)), { timeoutMs });
    const quiet = () => undefined;
    knex = knexFactory({
      client: 'pg',
      connection: hosts.connection,
      acquireConnectionTimeout: 2000,
      pool: { min: 0, max: 4 },
      log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
    });
    followWritableHost(knex, hosts);
    await knex.schema.createTable('writes', (table) => table.integer('n').primary());
    for (let n = 1; n <= 20; n++) await knex('writes').insert({ n });
    expect(hosts.current()).toEqual(hostOf(primary.port));

    cluster!.kill(primary);
    // While no host accepts writes, each write fails within the pool's acquire time, never hangs.
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = Date.now();
      await expect(knex('writes').insert({ n: 100 + attempt })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5000);
    }
    const refusal = await findWritableHost(parsePostgresHostsUrl(cluster!.hostsUrl(database)), { timeoutMs }).catch((e) => e);
    expect(refusal).toBeInstanceOf(NoWritableHost);
    expect(refusal.code).toBe('VEXIL_NO_WRITABLE_HOST');
    expect(refusal.message).toContain(`127.0.0.1:${primary.port} failed: connect ECONNREFUSED`);
    expect(refusal.message).toContain(`127.0.0.1:${standby.port} is a standby`);

    await cluster!.promoteStandby();
    await knex('writes').insert({ n: 21 });
    expect(hosts.current()).toEqual(hostOf(standby.port));
    const rows = await knex('writes').select('n').orderBy('n');
    // Synchronous replication: every insert the primary acknowledged is on the standby; none refused is.
    expect(rows.map((row) => row.n)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });
});
