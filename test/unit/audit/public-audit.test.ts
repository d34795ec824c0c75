import type { Knex } from 'knex';
import type Koa from 'koa';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parsePublicAuditMode } from '../../../src/audit/public-audit-mode.js';
import { describePublicAudit, publicAuditMiddleware } from '../../../src/audit/public-audit.js';
import { PublicAuditBuffer } from '../../../src/audit/public-audit-buffer.js';
import type { PublicAuditRow } from '../../../src/audit/public-audit-entries.js';
import type { PublicPrincipal } from '../../../src/auth/principal.js';
import { RateLimitedError, UnauthorizedError } from '../../../src/http/errors.js';
import type { AppendStatement } from '../../../src/storage/prepared-sql.js';
import { registerSqliteWorker } from '../../../src/storage/sqlite-worker.js';
import { FakePublicAuditTables } from '../../support/fake-sql.js';

const logger = pino({ level: 'silent' });
const clock = { now: () => new Date('2026-05-01T10:00:00.000Z') };

/**
 * A knex whose pool hands out a fake better-sqlite3 connection: the buffer's multi-row INSERTs
 * are decoded back into rows by the column list of their SQL text. Can be told to fail.
 */
function fakeKnex(flags: Array<{ ulid: string; key: string; project_ulid: string }> = []) {
  const inserts: PublicAuditRow[][] = [];
  const tables = new FakePublicAuditTables();
  const state = { fail: false, flagQueries: 0, prepared: [] as string[] };
  /** What a worker (or the serving connection) ran: requests INSERTs come back as joined rows. */
  const run = (statements: readonly AppendStatement[]) => {
    for (const { sql, values } of statements) {
      const rows = tables.run(sql, values);
      if (rows) inserts.push(rows as unknown as PublicAuditRow[]);
    }
  };
  const connection = {
    prepare(sql: string) {
      state.prepared.push(sql);
      return {
        run(values: unknown[]) {
          if (state.fail) throw new Error('database down');
          run([{ sql, values: values as AppendStatement['values'] }]);
        },
      };
    },
  };
  const knex = ((table: string) => {
    if (table !== 'flags') throw new Error(`unexpected table ${table}`);
    const builder = {
      whereIn: () => builder,
      select: async () => {
        state.flagQueries++;
        return flags;
      },
    };
    return builder;
  }) as unknown as Knex & { client: unknown };
  knex.client = {
    driverName: 'better-sqlite3',
    acquireConnection: async () => connection,
    releaseConnection: async () => undefined,
    // Knex's client is an event emitter (query events).
    emit: () => true,
  };
  return { knex, inserts, state, tables, run };
}

const entry = (n: number): Omit<PublicAuditRow, 'ulid' | 'created_at'> => ({
  actor_type: 'anonymous',
  actor_ulid: null,
  environment_ulid: null,
  environment_key: null,
  project_ulid: null,
  http_method: 'GET',
  http_path: `/v1/flags/${n}`,
  action: 'auth.missing_key',
  subject_type: null,
  subject_ulid: null,
  subject_label: null,
  result: 'denied_auth',
  status_code: 401,
});

describe('PublicAuditBuffer', () => {
  it('writes 100 rows per INSERT on the serving thread, and up to 1,024 in powers of two on the SQLite worker, as soon as 1,024 wait', async () => {
    const direct = fakeKnex();
    const onServingThread = new PublicAuditBuffer(direct.knex, clock, logger);
    for (let i = 0; i < 250; i++) onServingThread.record(entry(i));
    await onServingThread.flush();
    expect(direct.inserts.map((batch) => batch.length)).toEqual([100, 100, 50]);

    const offThread = fakeKnex();
    const worked: number[] = [];
    registerSqliteWorker(offThread.knex, () => ({
      append: async (statements) => {
        offThread.run(statements);
        worked.push(offThread.inserts.pop()?.length ?? 0);
      },
      stop: async () => undefined,
    }));
    const onWorker = new PublicAuditBuffer(offThread.knex, clock, logger);
    // A full statement's worth is sent without waiting for the task's next run.
    for (let i = 0; i < 1_023; i++) onWorker.record(entry(i));
    await new Promise((resolve) => setImmediate(resolve));
    expect(worked).toEqual([]);
    onWorker.record(entry(1_023));
    await new Promise((resolve) => setImmediate(resolve));
    expect(worked).toEqual([1024]);
    for (let i = 1_024; i < 2_100; i++) onWorker.record(entry(i));
    await onWorker.flush();
    expect(worked).toEqual([1024, 1024, 32, 16, 4]);
    // Each path is a part of its own here; each batch upserts its parts, each once.
    expect(offThread.tables.upserts).toEqual([1024, 1024, 32, 16, 4]);
    expect(offThread.inserts).toEqual([]);
  });

  it('hands MySQL/MariaDB up to 1,024 rows per INSERT too, as soon as 1,024 wait', async () => {
    const sent: number[] = [];
    const tables = new FakePublicAuditTables();
    const connection = {
      query(options: { sql: string }, values: Array<string | number | null>, callback: (error: Error | null, rows: unknown) => void) {
        const rows = tables.run(options.sql, values);
        if (rows) sent.push(rows.length);
        setImmediate(() => callback(null, { affectedRows: values.length }));
      },
    };
    const knex = (() => {
      throw new Error('no query builder expected');
    }) as unknown as Knex & { client: unknown };
    knex.client = {
      driverName: 'mysql2',
      acquireConnection: async () => connection,
      releaseConnection: async () => undefined,
      emit: () => true,
    };
    const buffer = new PublicAuditBuffer(knex, clock, logger);
    for (let i = 0; i < 1_024; i++) buffer.record(entry(i));
    // The parts upsert, then the INSERT: each answered a turn of the event loop later.
    for (let turn = 0; turn < 5 && sent.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([1024]);
    expect(tables.upserts).toEqual([1024]);
    for (let i = 1_024; i < 1_300; i++) buffer.record(entry(i));
    await buffer.flush();
    expect(sent).toEqual([1024, 256, 16, 4]);
  });

  it('writes nothing when recording, and everything in batches when flushed', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger, { batchSize: 4 });
    for (let i = 0; i < 10; i++) buffer.record(entry(i));
    expect(db.inserts).toEqual([]);
    expect(buffer.size).toBe(10);
    await buffer.flush();
    expect(db.inserts.map((batch) => batch.length)).toEqual([4, 4, 2]);
    expect(buffer.size).toBe(0);
    const rows = db.inserts.flat();
    expect(rows[0]).toMatchObject({ created_at: '2026-05-01T10:00:00.000Z', http_path: '/v1/flags/0' });
    expect(rows.map((r) => r.ulid)).toEqual([...rows.map((r) => r.ulid)].sort());
    // One SQL text per statement and batch size, however often it runs (the connection caches
    // its statement): the parts upsert and the requests INSERT, for 4 and for 2 rows.
    await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(async (i) => buffer.record(entry(i))));
    await buffer.flush();
    expect(db.inserts.map((batch) => batch.length)).toEqual([4, 4, 2, 4, 4]);
    expect(new Set(db.state.prepared).size).toBe(4);
  });

  it('reports the age of the oldest entry not written yet, and 0 once written', async () => {
    const db = fakeKnex();
    let now = new Date('2026-05-01T10:00:00.000Z').getTime();
    const moving = { now: () => new Date(now) };
    const buffer = new PublicAuditBuffer(db.knex, moving, logger);
    expect(buffer.oldestUnwrittenSeconds()).toBe(0);
    buffer.record(entry(0));
    now += 400;
    buffer.record(entry(1));
    now += 350;
    expect(buffer.oldestUnwrittenSeconds()).toBeCloseTo(0.75, 5);
    await buffer.flush();
    expect(buffer.oldestUnwrittenSeconds()).toBe(0);
  });

  it('is bounded: beyond capacity entries are dropped, not queued', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger, { capacity: 3 });
    for (let i = 0; i < 5; i++) buffer.record(entry(i));
    expect(buffer.size).toBe(3);
    await buffer.flush();
    expect(db.inserts.flat().map((r) => r.http_path)).toEqual(['/v1/flags/0', '/v1/flags/1', '/v1/flags/2']);
  });

  it('keeps a batch that could not be written for the next flush', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    buffer.record(entry(1));
    db.state.fail = true;
    await expect(buffer.flush()).rejects.toThrow('database down');
    expect(buffer.size).toBe(1);
    db.state.fail = false;
    await buffer.flush();
    expect(db.inserts.flat().length).toBe(1);
  });

  it('after a failed batch, writes each entry exactly once on the next flush', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger, { batchSize: 2 });
    for (let i = 0; i < 5; i++) buffer.record(entry(i));
    const failSecondBatch = db.knex.client as { acquireConnection: () => Promise<unknown> };
    const acquire = failSecondBatch.acquireConnection;
    let calls = 0;
    // Each batch takes a connection for its parts, then one for its requests: the second
    // batch's requests fail after its parts were written, and the retry writes them again.
    failSecondBatch.acquireConnection = async () => {
      calls += 1;
      if (calls === 4) throw new Error('database down');
      return acquire();
    };
    await expect(buffer.flush()).rejects.toThrow('database down');
    expect(buffer.size).toBe(3);
    await buffer.flush();
    expect(db.inserts.flat().map((r) => r.http_path)).toEqual([0, 1, 2, 3, 4].map((i) => `/v1/flags/${i}`));
  });

  it('fills in flag ulids from flag keys with one query per batch', async () => {
    const db = fakeKnex([{ ulid: 'flg_1', key: 'checkout', project_ulid: 'prj_1' }]);
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    for (const key of ['checkout', 'unknown']) {
      buffer.record({ ...entry(0), project_ulid: 'prj_1', subject_type: 'flag', subject_label: key });
    }
    await buffer.flush();
    expect(db.state.flagQueries).toBe(1);
    expect(db.inserts.flat().map((r) => r.subject_ulid)).toEqual(['flg_1', null]);
  });

  it('pads the parts upsert of a batch to a power of two rows by repeating its last part, in the order of their ids', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    for (const n of [0, 1, 2, 3, 4, 0]) buffer.record(entry(n));
    await buffer.flush();
    // Five parts go as eight rows (the last one four times): the statement text is the one for 8.
    expect(db.tables.upserts).toEqual([8]);
    expect(db.tables.parts.size).toBe(5);
    // In the order of their ids, so that writers lock the rows they share in one order.
    const ids = [...db.tables.parts.keys()];
    expect(ids).toEqual([...ids].sort());
    expect(db.state.prepared[0]).toMatch(/^INSERT INTO `public_audit_parts` .*ON CONFLICT \(`id`\) DO UPDATE SET `last_seen_at` = max\(/);
    expect(db.inserts.flat().map((row) => row.http_path)).toEqual([0, 1, 2, 3, 4, 0].map((n) => `/v1/flags/${n}`));
  });

  it('writes a batch as its parts, each once, and its requests: entries of one key, request and outcome share one part, each keeping its own ulid and time', async () => {
    const db = fakeKnex();
    registerSqliteWorker(db.knex, () => ({
      append: async (statements) => db.run(statements),
      stop: async () => undefined,
    }));
    let now = new Date('2026-05-01T10:00:00.000Z');
    const buffer = new PublicAuditBuffer(db.knex, { now: () => now }, logger);
    for (let i = 0; i < 6; i++) {
      now = new Date(now.getTime() + 1);
      buffer.record(entry(i % 2));
    }
    await buffer.flush();
    // Six entries go as 4 and 2 (powers of two on the worker), each batch with both parts once.
    expect(db.inserts.map((batch) => batch.length)).toEqual([4, 2]);
    expect(db.tables.upserts).toEqual([2, 2]);
    expect(db.tables.parts.size).toBe(2);
    const rows = db.inserts.flat();
    expect(rows.map((r) => r.http_path)).toEqual([
      '/v1/flags/0',
      '/v1/flags/1',
      '/v1/flags/0',
      '/v1/flags/1',
      '/v1/flags/0',
      '/v1/flags/1',
    ]);
    expect(rows.map((r) => r.created_at.slice(-5))).toEqual(['.001Z', '.002Z', '.003Z', '.004Z', '.005Z', '.006Z']);
    expect(new Set(rows.map((r) => r.ulid)).size).toBe(6);
    expect(rows[0]).toEqual({ ...entry(0), ulid: rows[0]?.ulid, created_at: '2026-05-01T10:00:00.001Z', count: 1 });
  });

  it('keeps each entry its own values when one path sees more keys and outcomes than it holds shared parts for', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    const outcomes = Array.from({ length: 12 }, (_, i) => ({ ...entry(7), actor_ulid: `key_${i % 3}`, status_code: 400 + i }));
    for (const outcome of [...outcomes, ...outcomes.slice(0, 4)]) buffer.record(outcome);
    await buffer.flush();
    const rows = db.inserts.flat();
    expect(rows.map((r) => [r.actor_ulid, r.status_code])).toEqual(
      [...outcomes, ...outcomes.slice(0, 4)].map((o) => [o.actor_ulid, o.status_code]),
    );
    expect(rows.every((r) => r.http_path === '/v1/flags/7' && r.action === 'auth.missing_key')).toBe(true);
  });

  it('shares a part only between entries equal in every shared column: one column apart, each keeps its own values', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    const base: Omit<PublicAuditRow, 'ulid' | 'created_at'> = {
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
    };
    const variants = (Object.keys(base) as Array<keyof typeof base>)
      .filter((column) => column !== 'http_path')
      .map((column) => ({ ...base, [column]: column === 'status_code' ? 404 : `other ${column}` }));
    const recorded = [base, ...variants, base];
    for (const row of recorded) buffer.record(row, true);
    await buffer.flush();
    // Everything but an entry's own values (ulid, time, count).
    const written = (db.inserts.flat() as unknown as Array<Record<string, unknown>>).map(
      ({ ulid: _u, created_at: _c, count: _n, ...shared }) => shared,
    );
    expect(written).toEqual(recorded);
  });

  it('looks a flag key up again in a later batch: a flag created since then gets its ulid', async () => {
    const flags: Array<{ ulid: string; key: string; project_ulid: string }> = [];
    const db = fakeKnex(flags);
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    const checkout = { ...entry(0), project_ulid: 'prj_1', subject_type: 'flag', subject_label: 'checkout' };
    buffer.record(checkout);
    await buffer.flush();
    flags.push({ ulid: 'flg_1', key: 'checkout', project_ulid: 'prj_1' });
    buffer.record(checkout);
    await buffer.flush();
    expect(db.inserts.flat().map((r) => r.subject_ulid)).toEqual([null, 'flg_1']);
  });

  it('asks nothing when the handler named the flag, even as unknown', async () => {
    const db = fakeKnex([{ ulid: 'flg_1', key: 'checkout', project_ulid: 'prj_1' }]);
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    buffer.record({ ...entry(0), project_ulid: 'prj_1', subject_type: 'flag', subject_label: 'checkout', subject_ulid: 'flg_1' }, true);
    buffer.record({ ...entry(0), project_ulid: 'prj_1', subject_type: 'flag', subject_label: 'gone' }, true);
    await buffer.flush();
    expect(db.state.flagQueries).toBe(0);
    expect(db.inserts.flat().map((r) => r.subject_ulid)).toEqual(['flg_1', null]);
  });

  it('writes what is left when its task stops', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger, { flushIntervalMs: 60_000 });
    buffer.task.start();
    buffer.record(entry(1));
    await buffer.task.stop();
    expect(db.inserts.flat().length).toBe(1);
  });
});

describe('publicAuditMiddleware', () => {
  const principal: PublicPrincipal = {
    keyUlid: 'key_1',
    kind: 'server',
    environmentUlid: 'env_1',
    environmentKey: 'production',
    projectUlid: 'prj_1',
  };

  function ctx(options: {
    path: string;
    operationId?: string;
    principal?: PublicPrincipal;
    headers?: Record<string, string>;
    params?: Record<string, string>;
    status?: number;
  }) {
    const headers = options.headers ?? {};
    return {
      method: 'GET',
      path: options.path,
      status: options.status ?? 200,
      params: options.params ?? {},
      state: { operation: options.operationId ? { operationId: options.operationId } : undefined, publicPrincipal: options.principal },
      get: (name: string) => headers[name.toLowerCase()] ?? '',
      req: { headers },
    } as unknown as Koa.Context;
  }

  async function run(c: Koa.Context, next: () => Promise<void> = async () => {}) {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger);
    const middleware = publicAuditMiddleware(buffer);
    await middleware(c, next).catch(() => undefined);
    await buffer.flush();
    return db.inserts.flat()[0] as PublicAuditRow;
  }

  it('records a keyed evaluation with the key, environment and flag', async () => {
    const row = await run(ctx({ path: '/v1/flags/checkout', operationId: 'getEvaluatedFlag', principal, params: { flagKey: 'checkout' } }));
    expect(row).toMatchObject({
      actor_type: 'sdk_key',
      actor_ulid: 'key_1',
      environment_ulid: 'env_1',
      environment_key: 'production',
      project_ulid: 'prj_1',
      action: 'flag.evaluated',
      subject_type: 'flag',
      subject_label: 'checkout',
      result: 'success',
      status_code: 200,
    });
  });

  it('records a direct call of GET /v1/flags as flag.evaluated (a "Flag evaluated" event)', async () => {
    const row = await run(ctx({ path: '/v1/flags', operationId: 'listEvaluatedFlags', principal }));
    expect(row).toMatchObject({ action: 'flag.evaluated', actor_ulid: 'key_1', result: 'success' });
  });

  it('names missing and invalid keys, and a refusal by the rate limit', async () => {
    const refuse = async () => {
      throw new UnauthorizedError('Invalid API key provided.');
    };
    expect((await run(ctx({ path: '/v1/flags', operationId: 'listEvaluatedFlags' }), refuse)).action).toBe('auth.missing_key');
    const invalid = await run(ctx({ path: '/v1/flags', operationId: 'listEvaluatedFlags', headers: { 'x-api-key': 'srv_nope' } }), refuse);
    expect(invalid).toMatchObject({ action: 'auth.invalid_key', actor_type: 'anonymous', result: 'denied_auth', status_code: 401 });
    const limited = await run(ctx({ path: '/v1/payload', operationId: 'getPayload' }), async () => {
      throw new RateLimitedError(10);
    });
    expect(limited).toMatchObject({ action: 'payload.retrieved', result: 'rate_limited', status_code: 429 });
    const crashed = await run(ctx({ path: '/v1/payload', operationId: 'getPayload', principal }), async () => {
      throw new Error('boom');
    });
    expect(crashed).toMatchObject({ result: 'error', status_code: 500, subject_type: 'environment', subject_ulid: 'env_1' });
  });

  it('lets a handler name the subject', async () => {
    const c = ctx({ path: '/v1/flags/checkout', operationId: 'getEvaluatedFlag', principal, params: { flagKey: 'checkout' } });
    const row = await run(c, async () => describePublicAudit(c, { subjectUlid: 'flg_9' }));
    expect(row).toMatchObject({ subject_type: 'flag', subject_ulid: 'flg_9', subject_label: 'checkout' });
  });
});

describe('public audit buffer counts for /metrics', () => {
  it('counts rows written and entries dropped since start, across flushes', async () => {
    const { knex } = fakeKnex();
    const buffer = new PublicAuditBuffer(knex, clock, logger, { capacity: 2, batchSize: 1 });
    for (let n = 0; n < 3; n++) buffer.record(entry(n));
    await buffer.flush();
    buffer.record(entry(4));
    await buffer.flush();
    expect(buffer.writtenTotal).toBe(3);
    expect(buffer.droppedTotal).toBe(1);
    expect(buffer.size).toBe(0);
  });
});

describe('public audit modes', () => {
  const ok = (n: number, status = 200): Omit<PublicAuditRow, 'ulid' | 'created_at'> => ({
    ...entry(n),
    actor_type: 'sdk_key',
    actor_ulid: 'key_1',
    action: 'flag.evaluated',
    result: status === 200 ? 'success' : 'not_found',
    status_code: status,
  });

  it('errors: records only answers of 400 and above', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger, { mode: parsePublicAuditMode('errors') });
    buffer.record(ok(1));
    buffer.record(ok(2, 404));
    buffer.record(entry(3));
    await buffer.flush();
    expect(db.inserts.flat().map((r) => [r.http_path, r.status_code, (r as unknown as { count: number }).count])).toEqual([
      ['/v1/flags/2', 404, 1],
      ['/v1/flags/3', 401, 1],
    ]);
  });

  it('sample: exactly the rate of successful requests, evenly spaced, and every refusal', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger, { mode: parsePublicAuditMode('sample:0.1') });
    for (let i = 1; i <= 100; i++) buffer.record(ok(i));
    for (let i = 0; i < 5; i++) buffer.record(entry(1000 + i));
    await buffer.flush();
    const rows = db.inserts.flat();
    expect(rows.filter((r) => r.status_code === 200).map((r) => r.http_path)).toEqual(
      [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((i) => `/v1/flags/${i}`),
    );
    expect(rows.filter((r) => r.status_code === 401).length).toBe(5);
  });

  it('aggregate: one counted entry per key, subject, status and minute, written once the minute is over', async () => {
    const db = fakeKnex();
    let now = new Date('2026-05-01T10:00:10.000Z');
    const buffer = new PublicAuditBuffer(db.knex, { now: () => now }, logger, { mode: parsePublicAuditMode('aggregate') });
    const flag = (label: string, status = 200) => ({
      ...ok(0, status),
      subject_type: 'flag',
      subject_label: label,
      http_path: `/v1/flags/${label}`,
    });
    for (let i = 0; i < 7; i++) buffer.record(flag('checkout'));
    buffer.record(flag('checkout', 404));
    buffer.record(flag('banner'));
    expect(buffer.size).toBe(3);
    await buffer.flush();
    expect(db.inserts).toEqual([]); // the minute is still open
    now = new Date('2026-05-01T10:00:50.000Z');
    buffer.record(flag('checkout'));
    now = new Date('2026-05-01T10:01:05.000Z');
    buffer.record(flag('checkout'));
    await buffer.flush();
    const counted = db.inserts.flat().map((r) => [r.subject_label, r.status_code, (r as unknown as { count: number }).count, r.created_at]);
    expect(counted).toEqual([
      ['checkout', 200, 8, '2026-05-01T10:00:10.000Z'],
      ['checkout', 404, 1, '2026-05-01T10:00:10.000Z'],
      ['banner', 200, 1, '2026-05-01T10:00:10.000Z'],
    ]);
    // Stopping writes the open minute.
    await buffer.task.stop();
    expect(db.inserts.flat().length).toBe(4);
    expect(db.inserts.flat()[3]).toMatchObject({ subject_label: 'checkout', count: 1, created_at: '2026-05-01T10:01:05.000Z' });
  });

  it('aggregate: a full buffer drops new groups but still counts into the groups it holds', async () => {
    const db = fakeKnex();
    const buffer = new PublicAuditBuffer(db.knex, clock, logger, { mode: parsePublicAuditMode('aggregate'), capacity: 1 });
    buffer.record(ok(1));
    buffer.record(ok(1));
    buffer.record(ok(2, 404));
    expect(buffer.size).toBe(1);
    expect(buffer.droppedTotal).toBe(1);
  });

  it('logs an overflow once, however many entries it drops, and once more when there is room again', async () => {
    const db = fakeKnex();
    const lines: string[] = [];
    const recording = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line).msg) });
    const buffer = new PublicAuditBuffer(db.knex, clock, recording, { capacity: 2 });
    for (let i = 0; i < 50; i++) buffer.record(entry(i));
    expect(lines).toEqual([
      'public audit buffer full: entries are dropped until the database catches up (counted in vexil_buffer_rows_dropped_total)',
    ]);
    await buffer.flush();
    expect(lines.slice(1)).toEqual(['public audit buffer has room again']);
    expect(buffer.droppedTotal).toBe(48);
    await buffer.flush();
    expect(lines.length).toBe(2);
  });
});

describe('VEXIL_PUBLIC_AUDIT', () => {
  it('reads each mode and refuses anything else, naming the setting', () => {
    expect(parsePublicAuditMode(undefined)).toEqual({ kind: 'every' });
    expect(parsePublicAuditMode('')).toEqual({ kind: 'every' });
    expect(parsePublicAuditMode('Errors')).toEqual({ kind: 'errors' });
    expect(parsePublicAuditMode('aggregate')).toEqual({ kind: 'aggregate' });
    expect(parsePublicAuditMode('sample:0.25')).toEqual({ kind: 'sample', rate: 0.25 });
    expect(parsePublicAuditMode('sample:1')).toEqual({ kind: 'sample', rate: 1 });
    for (const bad of ['all', 'sample', 'sample:0', 'sample:1.5', 'sample:-1', 'sample:x']) {
      expect(() => parsePublicAuditMode(bad)).toThrow(/^VEXIL_PUBLIC_AUDIT must be every, errors, aggregate or sample:<rate>/);
    }
  });
});
