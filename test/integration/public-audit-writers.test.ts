/**
 * Several instances write the public audit trail of one database at once: their batches upsert
 * the same parts and insert their own requests. Every entry is stored once, each part once, and
 * a part keeps the latest time a writer used it (retention reads it).
 */
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { PublicAuditBuffer } from '../../src/audit/public-audit-buffer.js';
import type { PublicAuditRow } from '../../src/audit/public-audit-entries.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { describeEachDatabase } from '../support/databases.js';

const logger = pino({ level: 'silent' });

/** One of `kinds` outcomes of one key: each is a part of its own. */
const outcome = (kind: number): Omit<PublicAuditRow, 'ulid' | 'created_at'> => ({
  actor_type: 'sdk_key',
  actor_ulid: 'key_writers',
  environment_ulid: 'env_writers',
  environment_key: 'production',
  project_ulid: 'prj_writers',
  http_method: 'GET',
  http_path: `/v1/flags/writers-${kind % 20}`,
  action: 'flag.evaluated',
  subject_type: 'flag',
  subject_ulid: null,
  subject_label: `writers-${kind % 20}`,
  result: kind < 20 ? 'success' : 'failure',
  status_code: kind < 20 ? 200 : 404,
});

describeEachDatabase('public audit trail written by several instances at once', (testDb) => {
  const opened: Database[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.knex.destroy();
    await drop?.();
  });

  it('stores every entry once and every part once while two writers upsert the same parts in every batch', async () => {
    const created = await testDb.createMigrated();
    drop = created.drop;
    const first = openDatabase(created.url);
    opened.push(first);
    await migrateToLatest(first.knex, logger);
    const second = openDatabase(created.url);
    opened.push(second);
    // Two instances, clocks a minute apart: the part keeps the later time whichever writes last.
    const early = new Date('2026-11-26T10:00:00.000Z');
    const late = new Date('2026-11-26T10:01:00.000Z');
    const writers = [
      new PublicAuditBuffer(first.knex, { now: () => early }, logger, { batchSize: 64 }),
      new PublicAuditBuffer(second.knex, { now: () => late }, logger, { batchSize: 64 }),
    ];
    const kinds = 40;
    const perWriter = 640;
    for (let round = 0; round < 3; round++) {
      writers.forEach((writer, w) => {
        // Each writer goes through the parts in its own order.
        for (let i = 0; i < perWriter; i++) writer.record(outcome(w === 0 ? i % kinds : kinds - 1 - (i % kinds)), true);
      });
      await Promise.all(writers.map((writer) => writer.flush()));
    }
    const { knex } = first;
    const requests = Number((await knex('public_audit_requests').count({ n: '*' }))[0]!.n);
    expect(requests).toBe(2 * 3 * perWriter);
    expect(Number((await knex('public_audit_entries').where('actor_ulid', 'key_writers').count({ n: '*' }))[0]!.n)).toBe(requests);
    const parts = (await knex('public_audit_parts').select('id', 'last_seen_at', 'status_code')) as Array<{ last_seen_at: string }>;
    expect(parts).toHaveLength(kinds);
    expect(new Set(parts.map((part) => part.last_seen_at))).toEqual(new Set([late.toISOString()]));
    for (const writer of writers) expect(writer.size).toBe(0);
  });
});
