import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { AuditBacklog } from '../../../src/audit/audit-backlog.js';
import { AuditTrail, AuditWriter, type AuditEntryInput } from '../../../src/audit/audit-trail.js';
import type { ManagementPrincipal } from '../../../src/auth/principal.js';
import { DatabaseLockedError } from '../../../src/storage/sqlite-lock-wait.js';
import { decodeInsert } from '../../support/fake-sql.js';

const clock = { now: () => new Date('2026-05-01T10:00:00.000Z') };

/**
 * A knex whose pool hands out a fake better-sqlite3 connection recording each INSERT's row count
 * and rows (decoded by the column list of its SQL text); can be told to fail, or to be locked
 * by another connection.
 */
function fakeKnex() {
  const statements: Array<Array<Record<string, unknown>>> = [];
  const state = { fail: false, locked: false, prepared: [] as string[] };
  const connection = {
    prepare(sql: string) {
      state.prepared.push(sql);
      return {
        run(values: unknown[]) {
          if (state.fail) throw new Error('database down');
          if (state.locked) throw new DatabaseLockedError(0);
          statements.push(decodeInsert('audit_entries', sql, values));
        },
      };
    },
  };
  // Knex's client is an event emitter (query events).
  const knex = {
    client: {
      driverName: 'better-sqlite3',
      acquireConnection: async () => connection,
      releaseConnection: async () => {},
      emit: () => true,
    },
  };
  return { knex: knex as unknown as Knex, statements, state };
}

const entry = (path: string): AuditEntryInput => ({
  action: 'project.read',
  principal: undefined,
  httpMethod: 'GET',
  httpPath: path,
  result: 'denied_auth',
  statusCode: 401,
});

describe('AuditWriter.writeShared', () => {
  it('writes the entries of one event-loop turn with one INSERT, settling each caller after it', async () => {
    const db = fakeKnex();
    const writer = new AuditWriter(clock);
    const settled: string[] = [];
    const writes = ['/a', '/b', '/c'].map((p) => writer.writeShared(db.knex, entry(p)).then(() => settled.push(p)));
    expect(db.statements).toEqual([]);
    await Promise.all(writes);
    expect(settled).toEqual(['/a', '/b', '/c']);
    expect(db.statements.map((s) => s.map((r) => r.http_path))).toEqual([['/a', '/b', '/c']]);
    expect(db.statements[0]?.[0]).toMatchObject({ actor_type: null, http_method: 'GET', result: 'denied_auth', status_code: 401 });
    // The next turn starts a new INSERT.
    await writer.writeShared(db.knex, entry('/d'));
    expect(db.statements.map((s) => s.length)).toEqual([3, 1]);
  });

  it('splits a large turn into INSERTs of at most 50 rows, one SQL text per row count', async () => {
    const db = fakeKnex();
    const writer = new AuditWriter(clock);
    await Promise.all(Array.from({ length: 120 }, (_, i) => writer.writeShared(db.knex, entry(`/p${i}`))));
    await Promise.all(Array.from({ length: 120 }, (_, i) => writer.writeShared(db.knex, entry(`/q${i}`))));
    expect(db.statements.map((s) => s.length)).toEqual([50, 50, 20, 50, 50, 20]);
    // Texts are built once per row count, so the connection's statement cache can reuse them.
    expect(new Set(db.state.prepared).size).toBe(2);
    expect(db.statements.flat().map((r) => r.http_path)).toEqual([
      ...Array.from({ length: 120 }, (_, i) => `/p${i}`),
      ...Array.from({ length: 120 }, (_, i) => `/q${i}`),
    ]);
  });

  it('fails every caller of a failed INSERT', async () => {
    const db = fakeKnex();
    db.state.fail = true;
    const writer = new AuditWriter(clock);
    const results = await Promise.allSettled([writer.writeShared(db.knex, entry('/a')), writer.writeShared(db.knex, entry('/b'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('AuditWriter with a backlog', () => {
  it('keeps the entries of a turn that met a SQLite write lock and writes them, in order, once it is free', async () => {
    const db = fakeKnex();
    const backlog = new AuditBacklog(pino({ level: 'silent' }));
    const writer = new AuditWriter(clock, backlog);
    db.state.locked = true;
    await Promise.all(Array.from({ length: 60 }, (_, i) => writer.writeShared(db.knex, entry(`/p${i}`))));
    expect([db.statements.length, backlog.size]).toEqual([0, 60]);
    await expect(backlog.flush()).rejects.toBeInstanceOf(DatabaseLockedError);
    expect(backlog.size).toBe(60);
    db.state.locked = false;
    await backlog.flush();
    expect([backlog.size, backlog.writtenTotal]).toEqual([0, 60]);
    expect(db.statements.map((s) => s.length)).toEqual([50, 10]);
    expect(db.statements.flat().map((r) => r.http_path)).toEqual(Array.from({ length: 60 }, (_, i) => `/p${i}`));
  });
});

describe('AuditTrail.fresh', () => {
  it('commits as the same actor and request, carrying nothing the request described, and leaves its entry to the audit stage', async () => {
    const written: AuditEntryInput[] = [];
    const writer = { write: async (_db: unknown, input: AuditEntryInput) => void written.push(input) } as unknown as AuditWriter;
    const principal = { type: 'personal_access_token' } as ManagementPrincipal;
    const trail = new AuditTrail(writer, principal, 'POST', '/management/v1/projects/shop/configuration/apply');
    trail.describe({ action: 'project.applied', subjectType: 'project', subjectUlid: 'prj_1', projectUlid: 'prj_1' });
    const change = trail.fresh();
    await change.commit({} as Knex.Transaction, { action: 'flag.created', subjectType: 'flag', subjectUlid: 'flg_1' });
    expect(written).toEqual([
      {
        action: 'flag.created',
        subjectType: 'flag',
        subjectUlid: 'flg_1',
        changes: undefined,
        principal,
        httpMethod: 'POST',
        httpPath: '/management/v1/projects/shop/configuration/apply',
        result: 'success',
        statusCode: 200,
        // The same request: its entries share it.
        request: trail.request,
      },
    ]);
    expect(trail.request.ulid).toMatch(/^req_/);
    expect([trail.written, trail.subject?.action, change.written]).toEqual([false, 'project.applied', true]);
  });
});
