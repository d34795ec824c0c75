/**
 * One set of expectations for a store interface, held by its in-memory fake (test/fakes, used by
 * the service unit tests) and by its Knex store on SQLite and MariaDB: a unit test on the fake
 * then says something about the real store too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnexIdempotencyStore } from '../../src/features/idempotency/store.js';
import type { IdempotencyScope, IdempotencyStore } from '../../src/features/idempotency/store-types.js';
import { FakeIdempotencyStore } from '../fakes/idempotency-store.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface StoreUnderTest<T> {
  name: string;
  open(): Promise<{ store: T; close(): Promise<void> }>;
}

/** The fake, then the Knex store on every test database. */
function implementations<T>(fake: () => T, real: (app: TestApp) => T): StoreUnderTest<T>[] {
  return [
    { name: 'fake', open: async () => ({ store: fake(), close: async () => {} }) },
    ...testDatabases.map((db) => ({
      name: db.name,
      async open() {
        const app = await startTestApp(db);
        return { store: real(app), close: () => app.close() };
      },
    })),
  ];
}

let scopes = 0;
const scope = (overrides: Partial<IdempotencyScope> = {}): IdempotencyScope => ({
  tokenUlid: 'tok_01HZZZZZZZZZZZZZZZZZZZZZZZ',
  method: 'POST',
  pathDigest: 'a'.repeat(64),
  key: `key-${++scopes}`,
  ...overrides,
});

for (const implementation of implementations<IdempotencyStore>(
  () => new FakeIdempotencyStore(),
  (app) => new KnexIdempotencyStore(app.knex),
)) {
  describe(`IdempotencyStore contract [${implementation.name}]`, () => {
    let store: IdempotencyStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await implementation.open());
    });
    afterAll(async () => {
      await close?.();
    });

    it('claims a scope once; a second claim of the same scope is refused', async () => {
      const s = scope();
      const first = await store.claim(s, 'd1', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      expect(first.claimed).toBe(true);
      expect(await store.claim(s, 'd2', '2026-01-01T00:00:01.000Z', '2026-01-02T00:00:00.000Z')).toEqual({ claimed: false });
      // Any other part of the scope makes it another record.
      for (const other of [{ method: 'PUT' }, { pathDigest: 'b'.repeat(64) }, { tokenUlid: 'tok_01HYYYYYYYYYYYYYYYYYYYYYYY' }]) {
        expect((await store.claim({ ...s, ...other }, 'd1', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).claimed).toBe(true);
      }
    });

    it('finds a claim in progress, then its stored response once completed', async () => {
      const s = scope();
      expect(await store.find(s)).toBeUndefined();
      const claim = await store.claim(s, 'digest', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      if (!claim.claimed) throw new Error('not claimed');
      expect(await store.find(s)).toEqual({
        id: claim.id,
        requestDigest: 'digest',
        state: 'in_progress',
        responseStatus: null,
        responseBody: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2026-01-02T00:00:00.000Z',
      });
      await store.complete(claim.id, 201, '{"status":"success"}');
      expect(await store.find(s)).toMatchObject({ state: 'completed', responseStatus: 201, responseBody: '{"status":"success"}' });
      // A completed record is neither completed again nor released.
      await store.complete(claim.id, 500, null);
      await store.release(claim.id);
      expect(await store.find(s)).toMatchObject({ state: 'completed', responseStatus: 201 });
    });

    it('releases a claim in progress, so the scope can be claimed again', async () => {
      const s = scope();
      const claim = await store.claim(s, 'digest', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      if (!claim.claimed) throw new Error('not claimed');
      await store.release(claim.id);
      expect(await store.find(s)).toBeUndefined();
      expect((await store.claim(s, 'digest', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).claimed).toBe(true);
    });

    it('removes a record only when expired or abandoned in progress', async () => {
      const fresh = scope();
      const done = scope();
      const claimFresh = await store.claim(fresh, 'd', '2026-01-01T10:00:00.000Z', '2026-01-02T10:00:00.000Z');
      const claimDone = await store.claim(done, 'd', '2026-01-01T10:00:00.000Z', '2026-01-02T10:00:00.000Z');
      if (!claimFresh.claimed || !claimDone.claimed) throw new Error('not claimed');
      await store.complete(claimDone.id, 200, null);
      // Neither expired, and the claim in progress is younger than the abandonment limit.
      expect(await store.removeIfStale(claimFresh.id, '2026-01-01T11:00:00.000Z', '2026-01-01T09:59:59.999Z')).toBe(false);
      // Abandoned: in progress and created at the limit. A completed record is not abandoned.
      expect(await store.removeIfStale(claimDone.id, '2026-01-01T11:00:00.000Z', '2026-01-01T10:00:00.000Z')).toBe(false);
      expect(await store.removeIfStale(claimFresh.id, '2026-01-01T11:00:00.000Z', '2026-01-01T10:00:00.000Z')).toBe(true);
      expect(await store.find(fresh)).toBeUndefined();
      // Expired at its expiry time exactly.
      expect(await store.removeIfStale(claimDone.id, '2026-01-02T10:00:00.000Z', '2026-01-01T00:00:00.000Z')).toBe(true);
      expect(await store.find(done)).toBeUndefined();
      expect(await store.removeIfStale(claimDone.id, '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z')).toBe(false);
    });

    it('purges expired records in batches, and nothing else', async () => {
      const now = '2030-06-01T00:00:00.000Z';
      // Whatever earlier tests left expires before 2030; this purge empties it first.
      while ((await store.purgeExpired(now, 100)) > 0);
      const expired = [scope(), scope(), scope()];
      const live = scope();
      for (const s of expired) await store.claim(s, 'd', '2030-05-01T00:00:00.000Z', '2030-05-31T23:59:59.999Z');
      await store.claim(live, 'd', '2030-05-01T00:00:00.000Z', '2030-06-01T00:00:00.001Z');
      expect(await store.purgeExpired(now, 2)).toBe(2);
      expect(await store.purgeExpired(now, 2)).toBe(1);
      expect(await store.purgeExpired(now, 2)).toBe(0);
      for (const s of expired) expect(await store.find(s)).toBeUndefined();
      expect(await store.find(live)).toBeDefined();
    });
  });
}
