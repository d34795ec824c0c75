import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { ConflictError, UnprocessableError } from '../../http/errors.js';
import type { Db } from '../../storage/db.js';
import type { IdempotencyScope, IdempotencyStore } from './store-types.js';

export const idempotencyTtlMs = 24 * 60 * 60 * 1000;

/** What a handler produced, as the idempotency stage sees it. */
export interface HandlerOutcome {
  status: number;
  body: unknown;
}

export type IdempotentResult<T> = { replayed: false; value: T } | { replayed: true; status: number; body: unknown };

export interface IdempotencyOptions {
  /** How long a duplicate waits for the first request to finish before it gets a 409. */
  waitMs?: number;
  pollMs?: number;
  /** An in-progress claim older than this is treated as abandoned (its instance died). */
  abandonAfterMs?: number;
  /** Told when a response could not be stored (the request's own answer stands). */
  onStoreError?: (error: unknown) => void;
}

/** What IdempotencyService is built from: its store, the clock, and the options (defaults where absent). */
export interface IdempotencyServiceDeps extends IdempotencyOptions {
  /** The pool: each record is written by one statement of its own, outside the request's transaction. */
  db: Db;
  store: IdempotencyStore;
  clock: Clock;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted at every level: equal parsed bodies give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Which answers of the operation are kept for replay (management.yaml, Idempotency): success,
 * 404 and 422. Refusals that depend on the moment (401, 403, 409, 429) and 5xx are not, so a
 * retry runs again.
 */
export function isStorable(status: number): boolean {
  return (status >= 200 && status < 300) || status === 404 || status === 422;
}

/**
 * Idempotency-Key handling (specs/management.yaml, "Idempotency").
 * The first request with a key claims it by inserting an `in_progress` record (the unique index
 * picks one winner among racing requests), runs, and stores its response (see isStorable). A request with the same key and the same body
 * replays the stored response; while the first is still running it waits (up to `waitMs`) for
 * that response and replays it, so identical requests racing each other all get the same answer;
 * only if the first does not finish in time is it a 409. The same key with a different body is a
 * 422. Records expire after 24 hours.
 */
export class IdempotencyService {
  private readonly waitMs: number;
  private readonly pollMs: number;
  private readonly abandonAfterMs: number;
  private readonly onStoreError: (error: unknown) => void;

  constructor(private readonly deps: IdempotencyServiceDeps) {
    this.waitMs = deps.waitMs ?? 5000;
    this.pollMs = deps.pollMs ?? 25;
    this.abandonAfterMs = deps.abandonAfterMs ?? 120_000;
    this.onStoreError = deps.onStoreError ?? (() => {});
  }

  scope(tokenUlid: string, method: string, path: string, key: string): IdempotencyScope {
    return { tokenUlid, method: method.toUpperCase(), pathDigest: sha256(path), key };
  }

  /**
   * Runs `execute` at most once per scope. `execute` returns the outcome to store (or not, per
   * `isStorable`) and the value to hand back; when it throws, the claim is released.
   */
  async run<T>(
    scope: IdempotencyScope,
    body: unknown,
    execute: () => Promise<{ outcome: HandlerOutcome; value: T }>,
  ): Promise<IdempotentResult<T>> {
    const requestDigest = sha256(canonicalJson(body));
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const now = this.deps.clock.now();
      const claim = await this.deps.store.claim(
        this.deps.db,
        scope,
        requestDigest,
        now.toISOString(),
        new Date(now.getTime() + idempotencyTtlMs).toISOString(),
      );
      if (claim.claimed) return { replayed: false, value: await this.execute(claim.id, execute) };

      const existing = await this.deps.store.find(this.deps.db, scope);
      if (!existing) continue; // released or purged between our insert and read: claim again
      const nowIso = this.deps.clock.now().toISOString();
      const abandonedBefore = new Date(this.deps.clock.now().getTime() - this.abandonAfterMs).toISOString();
      if (existing.expiresAt <= nowIso || (existing.state === 'in_progress' && existing.createdAt <= abandonedBefore)) {
        await this.deps.store.removeIfStale(this.deps.db, existing.id, nowIso, abandonedBefore);
        continue;
      }
      if (existing.requestDigest !== requestDigest) {
        throw new UnprocessableError('This Idempotency-Key was already used with a different request body.').withCode(
          'idempotency_key_reused',
        );
      }
      if (existing.state === 'completed' && existing.responseStatus !== null) {
        return {
          replayed: true,
          status: existing.responseStatus,
          body: existing.responseBody === null ? undefined : JSON.parse(existing.responseBody),
        };
      }
      if (Date.now() >= deadline) {
        throw new ConflictError('A request with this Idempotency-Key is still being processed.');
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  private async execute<T>(id: number, execute: () => Promise<{ outcome: HandlerOutcome; value: T }>): Promise<T> {
    let result: { outcome: HandlerOutcome; value: T };
    try {
      result = await execute();
    } catch (error) {
      await this.deps.store.release(this.deps.db, id).catch(this.onStoreError);
      throw error;
    }
    const { status, body } = result.outcome;
    try {
      if (isStorable(status)) await this.deps.store.complete(this.deps.db, id, status, body === undefined ? null : JSON.stringify(body));
      else await this.deps.store.release(this.deps.db, id);
    } catch (error) {
      // The change (if any) is done and its answer is known: give it; a retry may run it again.
      this.onStoreError(error);
      await this.deps.store.release(this.deps.db, id).catch(this.onStoreError);
    }
    return result.value;
  }

  async purgeExpired(batch = 1000): Promise<number> {
    const now = this.deps.clock.now().toISOString();
    let total = 0;
    for (;;) {
      const n = await this.deps.store.purgeExpired(this.deps.db, now, batch);
      total += n;
      if (n < batch) return total;
    }
  }
}
