import type { Db } from '../../storage/db.js';
import { storageFailureOf } from '../../storage/db-errors.js';
import type { ClaimResult, IdempotencyRecord, IdempotencyScope, IdempotencyStore } from './store-types.js';

const table = 'idempotency_records';

function scopeWhere(scope: IdempotencyScope) {
  return {
    token_ulid: scope.tokenUlid,
    method: scope.method,
    path_digest: scope.pathDigest,
    idempotency_key: scope.key,
  };
}

/** Every statement runs on its own (autocommit): a claim is visible to other requests at once. */
export class KnexIdempotencyStore implements IdempotencyStore {
  async claim(db: Db, scope: IdempotencyScope, requestDigest: string, createdAt: string, expiresAt: string): Promise<ClaimResult> {
    try {
      const insert = db(table).insert({
        ...scopeWhere(scope),
        request_digest: requestDigest,
        state: 'in_progress',
        created_at: createdAt,
        expires_at: expiresAt,
      });
      // PostgreSQL answers an INSERT's new id only when asked (RETURNING); MySQL and SQLite always do.
      if (db.client.config.client === 'pg') insert.returning('id');
      const [inserted] = (await insert) as Array<number | { id: number }>;
      return { claimed: true, id: Number(typeof inserted === 'object' ? inserted.id : inserted) };
    } catch (error) {
      if (storageFailureOf(error) === 'unique_violation') return { claimed: false };
      throw error;
    }
  }

  async find(db: Db, scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const row = await db(table)
      .where(scopeWhere(scope))
      .first('id', 'request_digest', 'state', 'response_status', 'response_body', 'created_at', 'expires_at');
    if (!row) return undefined;
    return {
      id: Number(row.id),
      requestDigest: row.request_digest,
      state: row.state,
      responseStatus: row.response_status === null ? null : Number(row.response_status),
      responseBody: row.response_body,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  async complete(db: Db, id: number, status: number, body: string | null): Promise<void> {
    await db(table).where({ id, state: 'in_progress' }).update({ state: 'completed', response_status: status, response_body: body });
  }

  async release(db: Db, id: number): Promise<void> {
    await db(table).where({ id, state: 'in_progress' }).del();
  }

  async removeIfStale(db: Db, id: number, now: string, abandonedBefore: string): Promise<boolean> {
    const deleted = await db(table)
      .where('id', id)
      .andWhere((w) => {
        w.where('expires_at', '<=', now).orWhere((a) => a.where('state', 'in_progress').andWhere('created_at', '<=', abandonedBefore));
      })
      .del();
    return deleted > 0;
  }

  async purgeExpired(db: Db, now: string, batch: number): Promise<number> {
    const rows = (await db(table).where('expires_at', '<=', now).orderBy('id').limit(batch).select('id')) as Array<{
      id: number;
    }>;
    if (rows.length === 0) return 0;
    return db(table)
      .whereIn(
        'id',
        rows.map((r) => r.id),
      )
      .where('expires_at', '<=', now)
      .del();
  }
}
