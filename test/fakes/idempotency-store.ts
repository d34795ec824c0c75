import type { Db } from '../../src/storage/db.js';
import type { ClaimResult, IdempotencyRecord, IdempotencyScope, IdempotencyStore } from '../../src/features/idempotency/store-types.js';

/** In-memory IdempotencyStore for the service's unit tests: same contract as the Knex store. */
export class FakeIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();
  private nextId = 1;

  private static keyOf(scope: IdempotencyScope): string {
    return JSON.stringify([scope.tokenUlid, scope.method, scope.pathDigest, scope.key]);
  }

  private byId(id: number): [string, IdempotencyRecord] | undefined {
    for (const entry of this.records) if (entry[1].id === id) return entry;
    return undefined;
  }

  async claim(_db: Db, scope: IdempotencyScope, requestDigest: string, createdAt: string, expiresAt: string): Promise<ClaimResult> {
    const key = FakeIdempotencyStore.keyOf(scope);
    if (this.records.has(key)) return { claimed: false };
    const id = this.nextId++;
    this.records.set(key, {
      id,
      requestDigest,
      state: 'in_progress',
      responseStatus: null,
      responseBody: null,
      createdAt,
      expiresAt,
    });
    return { claimed: true, id };
  }

  async find(_db: Db, scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const record = this.records.get(FakeIdempotencyStore.keyOf(scope));
    return record && { ...record };
  }

  async complete(_db: Db, id: number, status: number, body: string | null): Promise<void> {
    const entry = this.byId(id);
    if (entry && entry[1].state === 'in_progress') {
      entry[1].state = 'completed';
      entry[1].responseStatus = status;
      entry[1].responseBody = body;
    }
  }

  async release(_db: Db, id: number): Promise<void> {
    const entry = this.byId(id);
    if (entry && entry[1].state === 'in_progress') this.records.delete(entry[0]);
  }

  async removeIfStale(_db: Db, id: number, now: string, abandonedBefore: string): Promise<boolean> {
    const entry = this.byId(id);
    if (!entry) return false;
    const [key, record] = entry;
    if (record.expiresAt <= now || (record.state === 'in_progress' && record.createdAt <= abandonedBefore)) {
      this.records.delete(key);
      return true;
    }
    return false;
  }

  async purgeExpired(_db: Db, now: string, batch: number): Promise<number> {
    let n = 0;
    for (const [key, record] of this.records) {
      if (n >= batch) break;
      if (record.expiresAt <= now) {
        this.records.delete(key);
        n++;
      }
    }
    return n;
  }
}
