/** Storage of Idempotency-Key records (table idempotency_records). */

/** What a key is scoped to: the token, the method and the path (specs/management.yaml, "Idempotency"). */
import type { Db } from '../../storage/db.js';

export interface IdempotencyScope {
  tokenUlid: string;
  method: string;
  /** SHA-256 of the request path (paths can be longer than a unique index may cover). */
  pathDigest: string;
  key: string;
}

export interface IdempotencyRecord {
  id: number;
  /** SHA-256 of the canonical JSON of the request body. */
  requestDigest: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  /** JSON text of the stored response body; null when the response had none. */
  responseBody: string | null;
  createdAt: string;
  expiresAt: string;
}

export type ClaimResult = { claimed: true; id: number } | { claimed: false };

export interface IdempotencyStore {
  /**
   * Inserts an `in_progress` record for the scope; the unique index on the scope decides between
   * racing requests: exactly one gets `claimed: true`.
   */
  claim(db: Db, scope: IdempotencyScope, requestDigest: string, createdAt: string, expiresAt: string): Promise<ClaimResult>;
  find(db: Db, scope: IdempotencyScope): Promise<IdempotencyRecord | undefined>;
  /** Stores the response of a claimed record. */
  complete(db: Db, id: number, status: number, body: string | null): Promise<void>;
  /** Deletes a claimed record whose response is not stored (5xx), so a retry runs again. */
  release(db: Db, id: number): Promise<void>;
  /**
   * Deletes the record if it is expired (expires_at <= now) or an abandoned claim (in progress
   * and created at or before `abandonedBefore`); returns whether it deleted it.
   */
  removeIfStale(db: Db, id: number, now: string, abandonedBefore: string): Promise<boolean>;
  /** Deletes up to `batch` expired records; returns how many. */
  purgeExpired(db: Db, now: string, batch: number): Promise<number>;
}
