import type { Knex } from 'knex';
import { afterEach, expect, it } from 'vitest';
import { migrations } from '../../db/migrations/index.js';
import { publicAuditColumns } from '../../src/audit/audit-columns.js';
import { publicAuditPartId } from '../../src/audit/public-audit-parts.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { describeEachDatabase } from '../support/databases.js';

/** Knex's migrator over the project's migrations whose names sort before `before` (all when undefined). */
function migrationsBefore(before?: string) {
  const names = Object.keys(migrations)
    .filter((name) => before === undefined || name < before)
    .sort();
  return {
    migrationSource: {
      getMigrations: async () => names,
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => migrations[name]!,
    },
  };
}

const wide = (n: number, shared: Record<string, unknown>) => ({
  ulid: `pae_01KB0000000000000000000${String(n).padStart(3, '0')}`,
  created_at: `2026-11-0${n}T10:00:00.000Z`,
  actor_type: 'sdk_key',
  actor_ulid: 'key_1',
  environment_ulid: 'env_1',
  environment_key: 'production',
  project_ulid: 'prj_1',
  http_method: 'GET',
  http_path: '/v1/flags/checkout',
  action: 'flag.evaluated',
  subject_type: 'flag',
  subject_ulid: 'flg_1',
  subject_label: 'checkout',
  result: 'success',
  status_code: 200,
  count: 1,
  ...shared,
});

/** The rows as the old table and the new view give them, comparable across drivers. */
async function entries(knex: Knex): Promise<Array<Record<string, unknown>>> {
  const rows = (await knex('public_audit_entries')
    .orderBy('ulid')
    .select(...publicAuditColumns)) as Array<Record<string, unknown>>;
  return rows.map((row) => ({ ...row, status_code: Number(row.status_code), count: Number(row.count) }));
}

describeEachDatabase('Migration 0020: the public audit trail in parts and requests', (testDb) => {
  let database: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await database?.knex.destroy();
    await drop?.();
    database = undefined;
    drop = undefined;
  });

  it('moves every entry (requests sharing a part point at one row), reads back the same through the view, and can be undone', async () => {
    const created = await testDb.create();
    drop = created.drop;
    database = openDatabase(created.url);
    const { knex } = database;
    await knex.migrate.latest(migrationsBefore('0020'));
    const before = [
      wide(1, {}),
      wide(2, { count: 3 }),
      wide(3, { status_code: 404, result: 'failure', subject_ulid: null }),
      wide(4, {}),
      wide(5, { actor_type: 'anonymous', actor_ulid: null, environment_ulid: null, environment_key: null, project_ulid: null }),
    ];
    await knex('public_audit_entries').insert(before);
    const expected = await entries(knex);
    expect(expected).toHaveLength(5);

    await knex.migrate.latest(migrationsBefore());
    expect(await entries(knex)).toEqual(expected);
    if (testDb.name === 'mariadb') {
      // Read with the reader's rights: the view outlives the user that made it.
      const [views] = (await knex.raw(
        "SELECT security_type AS s FROM information_schema.views WHERE table_schema = DATABASE() AND table_name = 'public_audit_entries'",
      )) as [Array<{ s: string }>];
      expect(views).toEqual([{ s: 'INVOKER' }]);
    }
    const parts = (await knex('public_audit_parts').orderBy('last_seen_at').select('id', 'last_seen_at', 'status_code')) as Array<{
      id: string;
      last_seen_at: string;
    }>;
    // Entries 1, 2 and 4 share one part, last used by entry 4.
    expect(parts.map((part) => part.last_seen_at)).toEqual([
      '2026-11-03T10:00:00.000Z',
      '2026-11-04T10:00:00.000Z',
      '2026-11-05T10:00:00.000Z',
    ]);
    const requests = (await knex('public_audit_requests').orderBy('ulid').select('part_id')) as Array<{ part_id: string }>;
    expect(requests.map((request) => parts.findIndex((part) => part.id === request.part_id))).toEqual([1, 1, 0, 1, 2]);
    // The id is the one a writer computes for the same values, so new requests join the moved part.
    const { ulid: _u, created_at: _c, count: _n, ...shared } = wide(1, {});
    expect(requests[0]!.part_id).toBe(publicAuditPartId(Object.values(shared) as Array<string | number | null>));

    await knex.migrate.rollback(migrationsBefore(), false);
    expect(await knex.schema.hasTable('public_audit_parts')).toBe(false);
    expect(await entries(knex)).toEqual(expected);
  });
});
