import { describe, expect, it } from 'vitest';
import type { CredentialStore, EnvironmentKeyRecord } from '../../../src/auth/credential-store.js';
import { EnvironmentKeyCache } from '../../../src/auth/environment-key-cache.js';
import { digestSecret, generateSecret, textsEqual } from '../../../src/auth/secrets.js';
import type { Db } from '../../../src/storage/db.js';

const first = generateSecret('srv_');
const second = generateSecret('srv_');

function record(ulid: string, secret: string): EnvironmentKeyRecord {
  return {
    ulid,
    kind: 'server',
    digest: digestSecret(secret),
    revokedAt: null,
    environmentUlid: 'env_1',
    environmentKey: 'production',
    projectUlid: 'prj_1',
  };
}

/** A key cache over a store whose active keys and signature the test sets, counting its loads. */
function keyCache(active: EnvironmentKeyRecord[]) {
  const state = { active, signature: 'one', loads: 0 };
  const store: CredentialStore = {
    findManagementCredential: async () => undefined,
    listActiveEnvironmentKeys: async () => {
      state.loads += 1;
      return state.active;
    },
    environmentKeysSignature: async () => state.signature,
  };
  return { cache: new EnvironmentKeyCache({ db: {} as Db, store }), state };
}

describe('EnvironmentKeyCache.refreshIfChanged', () => {
  it('reloads the keys only when their signature moved', async () => {
    const { cache, state } = keyCache([record('key_1', first)]);
    expect(await cache.refreshIfChanged()).toBe(true);
    expect(cache.resolve(first)?.keyUlid).toBe('key_1');
    state.active = [];
    expect(await cache.refreshIfChanged()).toBe(false);
    expect(state.loads).toBe(1);
    expect(cache.resolve(first)?.keyUlid).toBe('key_1');
    state.signature = 'two';
    expect(await cache.refreshIfChanged()).toBe(true);
    expect(state.loads).toBe(2);
    expect(cache.resolve(first)).toBeUndefined();
  });
});

describe('EnvironmentKeyCache.resolveOn (the key a connection sent last)', () => {
  it('answers a connection that sends its key again as resolve does', async () => {
    const { cache } = keyCache([record('key_1', first), record('key_2', second)]);
    await cache.reload();
    const connection = {};
    expect(cache.resolveOn(connection, first)?.keyUlid).toBe('key_1');
    expect(cache.resolveOn(connection, first)?.keyUlid).toBe('key_1');
    // Another key on the same connection is its own, not the one remembered.
    expect(cache.resolveOn(connection, second)?.keyUlid).toBe('key_2');
    expect(cache.resolveOn(connection, first)?.keyUlid).toBe('key_1');
    // A text that differs from the remembered key in its last character only is not that key.
    expect(cache.resolveOn(connection, `${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(cache.resolveOn(connection, undefined)).toBeUndefined();
    expect(cache.resolveOn(connection, '')).toBeUndefined();
  });

  it('stops answering for a revoked key from the reload that drops it, on a connection that used it', async () => {
    const { cache, state } = keyCache([record('key_1', first)]);
    await cache.reload();
    const connection = {};
    expect(cache.resolveOn(connection, first)?.keyUlid).toBe('key_1');
    state.active = [];
    await cache.reload();
    expect(cache.resolveOn(connection, first)).toBeUndefined();
    expect(cache.resolve(first)).toBeUndefined();
  });

  it('reads a key moved to another environment from the reloaded set', async () => {
    const { cache, state } = keyCache([record('key_1', first)]);
    await cache.reload();
    const connection = {};
    expect(cache.resolveOn(connection, first)?.environmentKey).toBe('production');
    state.active = [{ ...record('key_1', first), environmentKey: 'staging', environmentUlid: 'env_2' }];
    await cache.reload();
    expect(cache.resolveOn(connection, first)?.environmentKey).toBe('staging');
  });
});

describe('textsEqual', () => {
  it('is equality of texts', () => {
    expect(textsEqual('srv_abc', 'srv_abc')).toBe(true);
    expect(textsEqual('srv_abc', 'srv_abd')).toBe(false);
    expect(textsEqual('srv_abc', 'srv_ab')).toBe(false);
    expect(textsEqual('', '')).toBe(true);
  });
});
