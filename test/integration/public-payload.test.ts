import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, contextHeader, waitFor, type EnvironmentFixture, type FlagFixture, type ProjectFixture } from './public-fixtures.js';

/** An open GET /v1/stream connection, its etag events collected as they arrive. */
interface OpenStream {
  status: number;
  contentType: string | null;
  etags: string[];
  comments: string[];
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

async function openStream(app: TestApp, headers: Record<string, string>): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${app.baseUrl}/v1/stream`, { headers, signal: controller.signal });
  const etags: string[] = [];
  const comments: string[] = [];
  let ended = false;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const done = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split('\n');
          if (lines[0]?.startsWith(':')) comments.push(lines[0]);
          if (lines[0] === 'event: etag' && lines[1]?.startsWith('data: ')) {
            etags.push((JSON.parse(lines[1].slice(6)) as { etag: string }).etag);
          }
        }
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
    }
  })();
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    etags,
    comments,
    ended: done,
    isEnded: () => ended,
    close: () => controller.abort(),
  };
}

describeEachDatabase('SDK payload and stream: GET /v1/payload, GET /v1/stream', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let mobileKey: string;
  let clientKey: string;
  let flags: Record<string, FlagFixture>;
  let segmentKey: string;

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    ({ project, env, mobileKey, clientKey } = await fx.keyedEnvironment());
    segmentKey = await fx.segment(project, {
      key: 'staff',
      included: ['user-1'],
      excluded: ['user-2'],
      rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@example.com'] }] }],
    });
    flags = {
      both: await fx.flag(project, { key: 'both', type: 'boolean' }),
      webOnly: await fx.flag(project, { key: 'web-only', type: 'string', values: ['a', 'b'], include_in_mobile: false }),
      appOnly: await fx.flag(project, { key: 'app-only', type: 'number', values: ['1', '2'], include_in_client: false }),
      none: await fx.flag(project, { key: 'hidden', type: 'json', values: ['{}'], include_in_client: false, include_in_mobile: false }),
    };
    await fx.publish(env, flags.both!, { value: 'false' });
    await fx.publish(env, flags.both!, {
      value: 'true',
      rollout: { percentage: 25 },
      rules: [{ value: 'false', criteria: [{ selector: 'segment', comparer: 'in', values: [segmentKey] }] }],
    });
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('gives server keys the compiled configuration with an ETag', async () => {
    const res = await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"srv-\d+-[0-9a-f]{8}"$/);
    const revision = await fx.revision(env.ulid);
    expect(res.body.data).toMatchObject({ kind: 'server', etag, revision, environment: { ulid: env.ulid, key: env.key } });
    const config = res.body.data.config;
    expect(config.revision).toBe(revision);
    expect(config.flags.map((f: { key: string }) => f.key)).toEqual(['app-only', 'both', 'hidden', 'web-only']);
    expect(config.flags[1]).toEqual({
      key: 'both',
      name: 'Flag both',
      type: 'boolean',
      include_in_mobile: true,
      include_in_client: true,
      default: { value: false },
      serving: {
        value: true,
        rules: [{ value: false, criteria: [{ selector: 'segment', sub_selector: null, comparer: 'in', values: ['staff'] }] }],
      },
      previous: { value: false, rules: [] },
      rollout: { percentage: 25 },
    });
    expect(config.flags[0]).toMatchObject({ key: 'app-only', default: { value: 1 }, serving: null, previous: null, rollout: null });
    expect(config.segments).toEqual([
      {
        key: 'staff',
        included: ['user-1'],
        excluded: ['user-2'],
        rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@example.com'] }] }],
      },
    ]);
  });

  it('answers 304 for a matching If-None-Match (exact, weak, in a list, or *), 200 otherwise', async () => {
    const first = await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
    const etag = first.headers.get('etag')!;
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await app.request('GET', '/v1/payload', { apiKey: env.serverKey, headers: { 'If-None-Match': value } });
      expect(res.status, value).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.body).toBe('');
    }
    const stale = await app.request('GET', '/v1/payload', { apiKey: env.serverKey, headers: { 'If-None-Match': '"srv-0-00000000"' } });
    expect(stale.status).toBe(200);
  });

  it('checks but does not use context and default headers for server keys', async () => {
    const plain = await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
    const res = await app.request('GET', '/v1/payload', {
      apiKey: env.serverKey,
      headers: { 'X-VEXIL-CONTEXT': contextHeader({ type: 'user', identifier: 'user-1' }), D: '[]' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.kind).toBe('server');
    expect(res.headers.get('etag')).toBe(plain.headers.get('etag'));
    const badContext = await app.request('GET', '/v1/payload', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': '{' } });
    expect(badContext.status).toBe(400);
    expect(badContext.body).toEqual({ status: 'error', message: 'Context was supplied but is invalid.', code: expect.any(String) });
    const badDefaults = await app.request('GET', '/v1/payload', { apiKey: env.serverKey, headers: { D: 'x' } });
    expect(badDefaults.status).toBe(400);
    const badStream = await app.request('GET', '/v1/stream', { apiKey: env.serverKey, headers: { C: '[]' } });
    expect(badStream.status).toBe(400);
  });

  it('gives mobile and client keys values evaluated for the context, filtered by platform', async () => {
    const mobile = await app.request('GET', '/v1/payload', { apiKey: mobileKey });
    expect(mobile.status).toBe(200);
    expect(mobile.body.data).toMatchObject({ kind: 'client', revision: await fx.revision(env.ulid), environment: { ulid: env.ulid } });
    expect(mobile.headers.get('etag')).toMatch(/^"mob-\d+-[0-9a-f]{8}"$/);
    expect(mobile.body.data.etag).toBe(mobile.headers.get('etag'));
    expect(mobile.body.data.flags).toEqual([
      { key: 'app-only', name: 'Flag app-only', type: 'number', value: 1, resolved_by: 'default' },
      { key: 'both', name: 'Flag both', type: 'boolean', value: false, resolved_by: 'target' },
    ]);
    const client = await app.request('GET', '/v1/payload', { apiKey: clientKey });
    expect(client.headers.get('etag')).toMatch(/^"cli-/);
    expect(client.body.data.flags.map((f: { key: string }) => f.key)).toEqual(['both', 'web-only']);
    expect(JSON.stringify(client.body)).not.toContain('user-1');

    const member = await app.request('GET', '/v1/payload', {
      apiKey: clientKey,
      headers: { C: contextHeader({ type: 'user', identifier: 'user-1' }) },
    });
    // user-1 is in the segment; whichever target the rollout picks, its rule or previous value serves false.
    const both = member.body.data.flags.find((f: { key: string }) => f.key === 'both');
    expect(both.value).toBe(false);
    expect(['rule', 'target']).toContain(both.resolved_by);
    expect(member.headers.get('etag')).not.toBe(client.headers.get('etag'));
  });

  it('includes unavailable flags only with a declared default, and changes the ETag with the declarations', async () => {
    const noValues = await fx.flag(project, { key: 'no-values', type: 'string', values: [], defaultValue: null });
    await fx.settle(env);
    const plain = await app.request('GET', '/v1/payload', { apiKey: clientKey });
    expect(plain.body.data.flags.map((f: { key: string }) => f.key)).not.toContain('no-values');
    const declared = await app.request('GET', '/v1/payload', {
      apiKey: clientKey,
      headers: { 'X-DEFAULT-VALUE': JSON.stringify([{ key: noValues.key, type: 'string', value: 'fallback' }]) },
    });
    expect(declared.body.data.flags).toContainEqual({
      key: 'no-values',
      name: 'Flag no-values',
      type: 'string',
      value: 'fallback',
      resolved_by: 'default',
    });
    expect(declared.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    const again = await app.request('GET', '/v1/payload', {
      apiKey: clientKey,
      headers: { 'If-None-Match': plain.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('refuses invalid context and default headers for mobile and client keys', async () => {
    for (const key of [mobileKey, clientKey]) {
      const ctx = await app.request('GET', '/v1/payload', { apiKey: key, headers: { 'X-VEXIL-CONTEXT': '{"type":"user"}' } });
      expect(ctx.status).toBe(400);
      expect(ctx.body).toEqual({ status: 'error', message: 'Context was supplied but is invalid.', code: expect.any(String) });
      const def = await app.request('GET', '/v1/payload', { apiKey: key, headers: { D: '[1]' } });
      expect(def.status).toBe(400);
      expect(def.body).toEqual({ status: 'error', message: 'Default values were supplied but are invalid.', code: expect.any(String) });
    }
  });

  it('answers 401 without a valid key', async () => {
    for (const path of ['/v1/payload', '/v1/stream']) {
      const res = await app.request('GET', path, { apiKey: 'cli_' + 'z'.repeat(40) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Invalid API key provided.', code: expect.any(String) });
      expect((await app.request('GET', path)).status).toBe(401);
    }
  });

  it('changes the ETag when the environment changes', async () => {
    const before = await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
    await fx.publish(env, flags.webOnly!, { value: 'b' });
    await fx.settle(env);
    const after = await app.request('GET', '/v1/payload', {
      apiKey: env.serverKey,
      headers: { 'If-None-Match': before.headers.get('etag')! },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('streams the current ETag on connect and a new one after a publish', async () => {
    const payload = await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
    const stream = await openStream(app, { 'X-VEXIL-API-KEY': env.serverKey });
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toContain('text/event-stream');
      await waitFor(async () => stream.etags.length >= 1, 2000, 'first etag');
      expect(stream.etags[0]).toBe(payload.headers.get('etag'));
      await fx.publish(env, flags.webOnly!, { value: 'a' });
      const publishedAt = Date.now();
      await waitFor(async () => stream.etags.length >= 2, 1000, 'second etag');
      expect(Date.now() - publishedAt).toBeLessThan(1000);
      const now = await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
      expect(stream.etags.at(-1)).toBe(now.headers.get('etag'));
    } finally {
      stream.close();
    }
  });

  it('streams the client payload ETag for the context sent, through the header aliases', async () => {
    const ctx = contextHeader({ type: 'user', identifier: 'user-9' });
    const payload = await app.request('GET', '/v1/payload', { apiKey: mobileKey, headers: { C: ctx } });
    const stream = await openStream(app, { 'X-API-KEY': mobileKey, C: ctx });
    try {
      await waitFor(async () => stream.etags.length >= 1, 2000, 'first etag');
      expect(stream.etags[0]).toBe(payload.headers.get('etag'));
    } finally {
      stream.close();
    }
    const bad = await app.request('GET', '/v1/stream', { apiKey: mobileKey, headers: { C: 'nope' } });
    expect(bad.status).toBe(400);
  });

  it('ends the stream when its key is revoked', async () => {
    const key = await fx.key(env, 'client');
    await waitFor(async () => (await app.request('GET', '/v1/payload', { apiKey: key })).status === 200, 2000, 'new key');
    const stream = await openStream(app, { 'X-VEXIL-KEY': key });
    await waitFor(async () => stream.etags.length >= 1, 2000, 'first etag');
    await fx.revokeKey(key);
    await waitFor(async () => stream.isEnded(), 2000, 'stream end');
  });

  it('ends open streams when the server stops', async () => {
    const other = await startTestApp(db, { databaseUrl: app.composition.core.config.databaseUrl, keepDatabase: true });
    const stream = await openStream(other, { 'X-VEXIL-API-KEY': env.serverKey });
    await waitFor(async () => stream.etags.length >= 1, 2000, 'first etag');
    const hub = other.composition.tasks.find((t) => t.name === 'payload-stream-hub')!;
    await hub.stop();
    await waitFor(async () => stream.isEnded(), 2000, 'stream end');
    await other.close();
  });
});
