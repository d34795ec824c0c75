import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { FakeIdempotencyStore } from '../../fakes/idempotency-store.js';
import { fakeDb } from '../../fakes/transactor.js';
import { canonicalJson, IdempotencyService, isStorable } from '../../../src/features/idempotency/service.js';
import { idempotencyStage } from '../../../src/features/idempotency/stage.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../../src/http/errors.js';

class Clock {
  ms = Date.parse('2026-05-01T10:00:00.000Z');
  now() {
    return new Date(this.ms);
  }
}

function setup(options: { waitMs?: number; abandonAfterMs?: number } = {}) {
  const store = new FakeIdempotencyStore();
  const clock = new Clock();
  const errors: unknown[] = [];
  const service = new IdempotencyService({ db: fakeDb, store, clock, pollMs: 5, onStoreError: (e) => errors.push(e), ...options });
  const scope = service.scope('tok_1', 'post', '/management/v1/projects', 'key-1');
  return { store, clock, service, scope, errors };
}

const respond = (status: number, body: unknown) => async () => ({ outcome: { status, body }, value: body });

describe('IdempotencyService', () => {
  it('runs once, then replays the stored status and body', async () => {
    const { service, scope } = setup();
    let runs = 0;
    const execute = async () => {
      runs++;
      return { outcome: { status: 200, body: { status: 'success', data: { n: runs } } }, value: 'ran' };
    };
    expect(await service.run(scope, { a: 1 }, execute)).toEqual({ replayed: false, value: 'ran' });
    expect(await service.run(scope, { a: 1 }, execute)).toEqual({
      replayed: true,
      status: 200,
      body: { status: 'success', data: { n: 1 } },
    });
    expect(runs).toBe(1);
  });

  it('compares bodies as parsed JSON (key order does not matter)', async () => {
    const { service, scope } = setup();
    await service.run(scope, { a: 1, b: { c: 2, d: [1, { e: 1, f: 2 }] } }, respond(200, { ok: true }));
    const again = await service.run(scope, { b: { d: [1, { f: 2, e: 1 }], c: 2 }, a: 1 }, respond(200, { ok: false }));
    expect(again).toMatchObject({ replayed: true, body: { ok: true } });
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(canonicalJson(undefined)).toBe('');
  });

  it('refuses the same key with another body', async () => {
    const { service, scope } = setup();
    await service.run(scope, { a: 1 }, respond(200, {}));
    await expect(service.run(scope, { a: 2 }, respond(200, {}))).rejects.toThrow(UnprocessableError);
    await expect(service.run(scope, undefined, respond(200, {}))).rejects.toThrow(UnprocessableError);
  });

  it('keeps keys of other tokens, methods and paths apart', async () => {
    const { service } = setup();
    let runs = 0;
    const execute = async () => ({ outcome: { status: 200, body: { n: ++runs } }, value: runs });
    for (const scope of [
      service.scope('tok_1', 'POST', '/a', 'k'),
      service.scope('tok_2', 'POST', '/a', 'k'),
      service.scope('tok_1', 'PUT', '/a', 'k'),
      service.scope('tok_1', 'POST', '/b', 'k'),
    ]) {
      expect((await service.run(scope, {}, execute)).replayed).toBe(false);
    }
    expect(runs).toBe(4);
  });

  it('stores success, 404 and 422 but not 400, 401, 403, 409, 429 or 5xx', async () => {
    expect([200, 404, 422].map(isStorable)).toEqual([true, true, true]);
    expect([400, 401, 403, 409, 429, 500, 501, 503].map(isStorable)).toEqual(Array(8).fill(false));
    const { service, scope, store } = setup();
    await service.run(scope, {}, respond(500, { status: 'error' }));
    expect(store.records.size).toBe(0);
    expect((await service.run(scope, {}, respond(404, { status: 'error', message: 'nope' }))).replayed).toBe(false);
    expect(await service.run(scope, {}, respond(200, {}))).toEqual({
      replayed: true,
      status: 404,
      body: { status: 'error', message: 'nope' },
    });
  });

  it('releases the key when the handler throws, so a retry runs', async () => {
    const { service, scope } = setup();
    await expect(
      service.run(scope, {}, async () => {
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect((await service.run(scope, {}, respond(200, { ok: 1 }))).replayed).toBe(false);
  });

  it('makes a duplicate wait for the running request and replay its answer', async () => {
    const { service, scope } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const execute = async () => {
      runs++;
      await gate;
      return { outcome: { status: 200, body: { created: 1 } }, value: 'first' };
    };
    const first = service.run(scope, { a: 1 }, execute);
    const duplicates = Array.from({ length: 5 }, () => service.run(scope, { a: 1 }, execute));
    await new Promise((resolve) => setTimeout(resolve, 30));
    release();
    expect(await first).toEqual({ replayed: false, value: 'first' });
    for (const d of await Promise.all(duplicates)) expect(d).toEqual({ replayed: true, status: 200, body: { created: 1 } });
    expect(runs).toBe(1);
  });

  it('answers 409 when the running request does not finish within the wait', async () => {
    const { service, scope } = setup({ waitMs: 50 });
    const never = service.run(scope, {}, () => new Promise(() => {}));
    void never;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(service.run(scope, {}, respond(200, {}))).rejects.toThrow(ConflictError);
  });

  it('runs again after 24 hours and takes over an abandoned claim', async () => {
    const { service, scope, clock, store } = setup({ abandonAfterMs: 60_000 });
    await service.run(scope, {}, respond(200, { v: 1 }));
    clock.ms += 24 * 3600_000;
    expect(await service.run(scope, {}, respond(200, { v: 2 }))).toEqual({ replayed: false, value: { v: 2 } });

    const other = service.scope('tok_1', 'POST', '/x', 'abandoned');
    await store.claim(fakeDb, other, 'digest-of-something', clock.now().toISOString(), new Date(clock.ms + 86_400_000).toISOString());
    clock.ms += 60_000;
    expect((await service.run(other, {}, respond(200, {}))).replayed).toBe(false);
  });

  it('purges expired records', async () => {
    const { service, clock, store } = setup();
    for (const key of ['a', 'b', 'c']) await service.run(service.scope('t', 'POST', '/p', key), {}, respond(200, {}));
    clock.ms += 12 * 3600_000;
    await service.run(service.scope('t', 'POST', '/p', 'd'), {}, respond(200, {}));
    clock.ms += 12 * 3600_000;
    expect(await service.purgeExpired(2)).toBe(3);
    expect([...store.records.values()].length).toBe(1);
  });

  it('keeps the answer when the response cannot be stored', async () => {
    const { service, scope, store, errors } = setup();
    store.complete = async () => {
      throw new Error('disk full');
    };
    expect(await service.run(scope, {}, respond(200, { ok: 1 }))).toEqual({ replayed: false, value: { ok: 1 } });
    expect(errors.length).toBe(1);
    expect(store.records.size).toBe(0);
  });
});

describe('idempotencyStage', () => {
  function ctx(key: string, idempotent = true) {
    const headers: Record<string, string> = {};
    return {
      method: 'POST',
      path: '/management/v1/projects',
      status: 404,
      body: undefined as unknown,
      headers,
      state: { operation: { idempotent }, managementPrincipal: { tokenUlid: 'tok_1' }, body: { key: 'p' } },
      get: (name: string) => (name.toLowerCase() === 'idempotency-key' ? key : ''),
      set(name: string, value: string) {
        headers[name] = value;
      },
    } as unknown as Koa.Context & { headers: Record<string, string> };
  }

  it('stores a typed error as the answer and replays it', async () => {
    const { service } = setup();
    const stage = idempotencyStage(service);
    const failing = async () => {
      throw new NotFoundError('Project "p" not found.');
    };
    await expect(stage(ctx('k'), failing)).rejects.toThrow(NotFoundError);
    const replay = ctx('k');
    await stage(replay, async () => {
      throw new Error('must not run');
    });
    expect(replay.status).toBe(404);
    expect(replay.body).toEqual({ status: 'error', message: 'Project "p" not found.', code: expect.any(String) });
    expect(replay.headers['X-Idempotent-Replayed']).toBe('true');
  });

  it('passes through without a key or on operations without the header', async () => {
    const { service, store } = setup();
    const stage = idempotencyStage(service);
    let runs = 0;
    const next = async () => {
      runs++;
    };
    await stage(ctx(''), next);
    await stage(ctx('k', false), next);
    expect(runs).toBe(2);
    expect(store.records.size).toBe(0);
  });
});
