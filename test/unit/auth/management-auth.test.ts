import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import type { CredentialRecord, CredentialStore } from '../../../src/auth/credential-store.js';
import { authenticateManagement, ManagementAuthenticator, mayChangeCredentials } from '../../../src/auth/management-auth.js';
import { digestSecret } from '../../../src/auth/secrets.js';
import { UnauthorizedError } from '../../../src/http/errors.js';
import type { Db } from '../../../src/storage/db.js';

const secret = `mgt_${'a'.repeat(40)}`;
const bearer = `Bearer ${secret}`;

/** A credential store holding one management token, counting its lookups. */
function fakeStore(record: Partial<CredentialRecord> = {}) {
  const state = { lookups: 0, record: undefined as CredentialRecord | undefined, hold: undefined as Promise<void> | undefined };
  state.record = {
    type: 'management_token',
    ulid: 'mgt_1',
    name: 'CI',
    digest: digestSecret(secret),
    expiresAt: null,
    revokedAt: null,
    account: { ulid: 'usr_1', name: 'Owner', email: 'owner@example.test', role: 'owner' },
    scopes: ['projects:read'],
    tier: 'standard',
    grants: null,
    accountProjects: null,
    ...record,
  };
  const store: CredentialStore = {
    async findManagementCredential(_db, digest) {
      state.lookups += 1;
      const found = state.record && state.record.digest === digest ? { ...state.record } : undefined;
      if (state.hold) await state.hold;
      return found;
    },
    listActiveEnvironmentKeys: async () => [],
    environmentKeysSignature: async () => '',
  };
  return { store, state };
}

function setup(record: Partial<CredentialRecord> = {}, now = new Date('2026-05-01T10:00:00.000Z')) {
  const { store, state } = fakeStore(record);
  const time = { monotonic: 0, now };
  const authenticator = new ManagementAuthenticator(
    { db: {} as Db, store, clock: { now: () => time.now } },
    { cacheMs: 250, monotonicNow: () => time.monotonic },
  );
  return { authenticator, state, time };
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnauthorizedError);
  return (error as UnauthorizedError).auditAction;
}

describe('ManagementAuthenticator credential cache', () => {
  it('reads a token once per cache period, then again', async () => {
    const { authenticator, state, time } = setup();
    const first = await authenticator.authenticate(bearer);
    expect(first).toMatchObject({ tokenUlid: 'mgt_1', type: 'management_token' });
    time.monotonic = 249;
    expect(await authenticator.authenticate(bearer)).toBe(first);
    expect(state.lookups).toBe(1);
    time.monotonic = 250;
    await authenticator.authenticate(bearer);
    expect(state.lookups).toBe(2);
  });

  it('sees a revocation at once after forgetCredentials', async () => {
    const { authenticator, state } = setup();
    await authenticator.authenticate(bearer);
    state.record = { ...(state.record as CredentialRecord), revokedAt: '2026-05-01T10:00:01.000Z' };
    // Within the cache period the kept principal still answers...
    await authenticator.authenticate(bearer);
    // ...until a change on this instance drops it.
    authenticator.forgetCredentials();
    expect(await refusal(authenticator.authenticate(bearer))).toBe('auth.invalid_token');
  });

  it('checks expiry on every request, cached or not', async () => {
    const { authenticator, state, time } = setup({ expiresAt: '2026-05-01T10:00:00.500Z' });
    await authenticator.authenticate(bearer);
    time.now = new Date('2026-05-01T10:00:00.500Z');
    expect(await refusal(authenticator.authenticate(bearer))).toBe('auth.expired_token');
    expect(state.lookups).toBe(1);
  });

  it('keeps no refusal: a token created later works at once', async () => {
    const { authenticator, state } = setup();
    const saved = state.record;
    state.record = undefined;
    expect(await refusal(authenticator.authenticate(bearer))).toBe('auth.invalid_token');
    state.record = saved;
    await authenticator.authenticate(bearer);
    expect(state.lookups).toBe(2);
  });

  it('does not keep a lookup that raced with a change', async () => {
    const { authenticator, state } = setup();
    let release = () => {};
    state.hold = new Promise<void>((resolve) => (release = resolve));
    const pending = authenticator.authenticate(bearer);
    authenticator.forgetCredentials();
    release();
    await pending;
    state.hold = undefined;
    await authenticator.authenticate(bearer);
    expect(state.lookups).toBe(2);
  });
});

describe('authenticateManagement stage', () => {
  function ctx(method: string): Koa.Context {
    return { method, state: {}, get: () => bearer } as unknown as Koa.Context;
  }

  it('drops kept credentials after a request that may change data, even a failed one', async () => {
    const { authenticator, state } = setup();
    const stage = authenticateManagement(authenticator);
    await stage(ctx('GET'), async () => {});
    await stage(ctx('GET'), async () => {});
    expect(state.lookups).toBe(1);
    // The DELETE itself still uses the kept principal; the GET after it reads again.
    await stage(ctx('DELETE'), async () => {});
    await stage(ctx('GET'), async () => {});
    expect(state.lookups).toBe(2);
    await expect(
      stage(ctx('POST'), async () => {
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    await stage(ctx('GET'), async () => {});
    expect(state.lookups).toBe(3);
  });

  it('keeps credentials across writes that cannot change one (flags, targets), drops them after token writes', async () => {
    const { authenticator, state } = setup();
    const stage = authenticateManagement(authenticator);
    const at = (method: string, pathTemplate: string) =>
      ({ method, state: { operation: { pathTemplate } }, get: () => bearer }) as unknown as Koa.Context;
    await stage(at('POST', '/management/v1/projects/{projectKey}/flags'), async () => {});
    await stage(
      at('PUT', '/management/v1/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/publish'),
      async () => {},
    );
    await stage(at('DELETE', '/management/v1/projects/{projectKey}/flags/{flagKey}'), async () => {});
    expect(state.lookups).toBe(1);
    await stage(at('DELETE', '/management/v1/tokens/{tokenUlid}'), async () => {});
    await stage(at('GET', '/management/v1/projects'), async () => {});
    expect(state.lookups).toBe(2);
  });
});

describe('mayChangeCredentials', () => {
  it('is true for writes to tokens and accounts and for deleting a project or environment', () => {
    const yes: Array<[string, string]> = [
      ['POST', '/management/v1/tokens'],
      ['DELETE', '/management/v1/tokens/{tokenUlid}'],
      ['PUT', '/management/v1/accounts/{accountUlid}'],
      ['POST', '/management/v1/accounts/{accountUlid}/tokens'],
      ['DELETE', '/management/v1/projects/{projectKey}'],
      ['DELETE', '/management/v1/projects/{projectKey}/environments/{environmentKey}'],
    ];
    const no: Array<[string, string]> = [
      ['GET', '/management/v1/tokens'],
      ['POST', '/management/v1/projects'],
      ['PUT', '/management/v1/projects/{projectKey}'],
      ['DELETE', '/management/v1/projects/{projectKey}/flags/{flagKey}'],
      ['DELETE', '/management/v1/projects/{projectKey}/environments/{environmentKey}/keys/{keyUlid}'],
      ['POST', '/management/v1/projects/{projectKey}/segments'],
    ];
    for (const [method, path] of yes) expect(mayChangeCredentials(method, path), `${method} ${path}`).toBe(true);
    for (const [method, path] of no) expect(mayChangeCredentials(method, path), `${method} ${path}`).toBe(false);
    expect(mayChangeCredentials('POST', undefined)).toBe(true);
  });
});
