import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { contextHeader, Fixtures, type EnvironmentFixture } from './public-fixtures.js';

/**
 * GET /v1/flags, /v1/flags/{flagKey} and /v1/payload are answered in front of Koa
 * (src/http/fast-public-reads.ts), and by the Koa path with VEXIL_FAST_PUBLIC_READS=false. The same
 * requests to both servers get the same answers, rate-limit refusals and audit entries.
 */
describeEachDatabase('fast public reads answer as the Koa path does', (db) => {
  let fast: TestApp;
  let koa: TestApp;
  const envs = new Map<TestApp, EnvironmentFixture>();

  async function seed(app: TestApp): Promise<void> {
    const fx = new Fixtures(app);
    const { project, env } = await fx.keyedEnvironment('production');
    const flag = await fx.flag(project, { key: 'checkout', type: 'boolean' });
    await fx.publish(env, flag, {
      value: 'true',
      rules: [{ value: 'false', criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'in', values: ['DE'] }] }],
    });
    await fx.flag(project, { key: 'unavailable', type: 'string', values: ['a'] });
    await fx.settle(env);
    envs.set(app, env);
  }

  beforeAll(async () => {
    fast = await startTestApp(db, { config: { publicRateLimit: 1_000_000 } });
    koa = await startTestApp(db, { config: { publicRateLimit: 1_000_000, fastPublicReads: false } });
    await seed(fast);
    await seed(koa);
  }, 120_000);

  afterAll(async () => {
    await fast?.close();
    await koa?.close();
  });

  const context = contextHeader({ type: 'user', identifier: 'u-1', attributes: [{ key: 'country', values: [{ value: 'DE' }] }] });
  const cases: Array<{ name: string; path: string; headers?: Record<string, string> }> = [
    { name: 'one flag', path: '/v1/flags/checkout', headers: { 'x-vexil-context': context } },
    { name: 'one flag, no context', path: '/v1/flags/checkout' },
    { name: 'every flag', path: '/v1/flags', headers: { 'x-vexil-context': context } },
    { name: 'unknown flag', path: '/v1/flags/nope' },
    { name: 'a key that cannot name a flag', path: '/v1/flags/Upper' },
    { name: 'an unavailable flag', path: '/v1/flags/unavailable' },
    { name: 'an invalid context', path: '/v1/flags/checkout', headers: { 'x-vexil-context': '{"type":"user"}' } },
    { name: 'an invalid default-value header', path: '/v1/flags', headers: { 'x-vexil-default-value': '[1]' } },
    {
      name: 'a declared default',
      path: '/v1/flags/unavailable',
      headers: { 'x-vexil-default-value': JSON.stringify([{ key: 'unavailable', type: 'string', value: 'z' }]) },
    },
    { name: 'the payload', path: '/v1/payload' },
    { name: 'the payload, bad context', path: '/v1/payload', headers: { c: 'not json' } },
    { name: 'a client request id', path: '/v1/flags/checkout', headers: { 'x-request-id': 'trace-42' } },
  ];

  /** What must be equal: status, body (ulids, revisions and ETags aside) and the headers Vexil sets. */
  async function answer(app: TestApp, path: string, headers: Record<string, string> = {}) {
    const res = await app.request('GET', path, { apiKey: envs.get(app)!.serverKey, headers });
    const body = JSON.stringify(res.body)
      .replace(/"(\w+_)?[0-9A-HJKMNP-TV-Z]{26}"/g, '"<ulid>"')
      .replace(/"revision":\d+/g, '"revision":0')
      .replace(/"etag":"(?:\\.|[^"\\])*"/g, '"etag":"<etag>"')
      .replace(/"environment":"[^"]*"/g, '"environment":"<env>"');
    const header = (name: string) => res.headers.get(name);
    return {
      status: res.status,
      body,
      contentType: header('content-type'),
      etag: header('etag') === null ? null : 'present',
      challenge: header('www-authenticate'),
      requestId:
        header('x-request-id') === 'trace-42'
          ? 'kept'
          : /^[0-9a-f-]{36}$/.test(header('x-request-id') ?? '')
            ? 'new'
            : header('x-request-id'),
    };
  }

  it('answers each request alike', async () => {
    for (const c of cases) {
      const [a, b] = [await answer(fast, c.path, c.headers), await answer(koa, c.path, c.headers)];
      expect(a, c.name).toEqual(b);
    }
    // A 304 for the ETag each server gave.
    for (const app of [fast, koa]) {
      const first = await app.request('GET', '/v1/payload', { apiKey: envs.get(app)!.serverKey });
      const again = await app.request('GET', '/v1/payload', {
        apiKey: envs.get(app)!.serverKey,
        headers: { 'if-none-match': first.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.headers.get('content-type')).toBeNull();
      expect(again.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers OFREP bulk evaluations alike, refusals in OFREP shapes included, and audits them alike', async () => {
    const bulk = async (app: TestApp, o: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) => {
      const res = await app.request('POST', '/ofrep/v1/evaluate/flags', {
        apiKey: envs.get(app)!.serverKey,
        skipContract: o.rawBody !== undefined,
        ...o,
      });
      const header = (name: string) => res.headers.get(name);
      return {
        status: res.status,
        body: JSON.stringify(res.body).replace(/"revision":\d+/g, '"revision":0'),
        contentType: header('content-type'),
        cacheControl: header('cache-control'),
        vary: header('vary'),
        etag: header('etag') === null ? null : 'present',
        requestId: /^[0-9a-f-]{36}$/.test(header('x-request-id') ?? '') ? 'new' : header('x-request-id'),
      };
    };
    const bodies: Array<{ name: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }> = [
      { name: 'a context', body: { context: { targetingKey: 'u-1', country: 'DE' } } },
      { name: 'no context', body: {} },
      { name: 'no targetingKey', body: { context: { country: 'DE' } } },
      { name: 'malformed JSON', rawBody: '{"context":', headers: { 'content-type': 'application/json' } },
      { name: 'not JSON', rawBody: 'context', headers: { 'content-type': 'text/plain' } },
      { name: 'a client request id', body: { context: { targetingKey: 'u-2' } }, headers: { 'x-request-id': 'ofrep-7' } },
    ];
    for (const b of bodies) expect(await bulk(fast, b), b.name).toEqual(await bulk(koa, b));
    // A 304 for the ETag each server gave, with the same caching headers.
    for (const app of [fast, koa]) {
      const body = { context: { targetingKey: 'u-3' } };
      const first = await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: envs.get(app)!.serverKey, body });
      const again = await app.request('POST', '/ofrep/v1/evaluate/flags', {
        apiKey: envs.get(app)!.serverKey,
        body,
        headers: { 'if-none-match': first.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('vary')).toBe('X-VEXIL-API-KEY, X-API-KEY, X-VEXIL-KEY');
    }
    const entries = async (app: TestApp) => {
      await app.composition.publicAudit.flush();
      const rows = await app
        .knex('public_audit_entries')
        .where({ http_path: '/ofrep/v1/evaluate/flags', environment_ulid: envs.get(app)!.ulid })
        .orderBy('ulid')
        .select('http_method', 'action', 'subject_type', 'subject_label', 'result', 'status_code', 'count');
      return rows.map((row) => ({ ...row, status_code: Number(row.status_code), count: Number(row.count) }));
    };
    const audited = await entries(fast);
    expect(audited).toEqual(await entries(koa));
    expect(audited.map((row) => row.status_code)).toEqual([200, 200, 400, 400, 415, 200, 200, 304]);
  });

  it('records the same audit entries and request metrics', async () => {
    const paths = ['/v1/flags/checkout', '/v1/flags', '/v1/flags/nope', '/v1/flags/Upper', '/v1/payload'];
    const entries = async (app: TestApp) => {
      const env = envs.get(app)!;
      for (const path of paths)
        await app.request('GET', path, { apiKey: env.serverKey, headers: { 'x-request-id': `audit-${path.length}` } });
      await app.composition.publicAudit.flush();
      const keyUlid = (await app.knex('environment_keys').where({ environment_ulid: env.ulid, kind: 'server' }).first()).ulid;
      const rows = await app
        .knex('public_audit_entries')
        .where('actor_ulid', keyUlid)
        .whereIn('http_path', paths)
        .orderBy('ulid', 'desc')
        .limit(paths.length);
      return rows.reverse().map((row) => ({
        path: row.http_path,
        method: row.http_method,
        action: row.action,
        actor: row.actor_type,
        environment: row.environment_ulid === env.ulid && row.environment_key === 'production',
        subject: [
          row.subject_type,
          row.subject_ulid === null ? null : row.subject_ulid === env.ulid ? 'environment' : 'flag',
          row.subject_label,
        ],
        result: row.result,
        status: Number(row.status_code),
        count: Number(row.count),
      }));
    };
    const fromFast = await entries(fast);
    expect(fromFast).toEqual(await entries(koa));
    expect(fromFast.map((e) => `${e.path} ${e.status}`)).toEqual([
      '/v1/flags/checkout 200',
      '/v1/flags 200',
      '/v1/flags/nope 404',
      '/v1/flags/Upper 404',
      '/v1/payload 200',
    ]);

    const series = async (app: TestApp) => {
      const text = (await app.request('GET', '/metrics')).body as string;
      return text
        .split('\n')
        .filter((l) => l.startsWith('vexil_http_request_duration_seconds_count{') && l.includes('api="public"'))
        .map((l) => l.replace(/ \d+$/, ''))
        .sort();
    };
    expect(await series(fast)).toEqual(await series(koa));
  });

  it('counts the per-IP rate limit alike, and refuses over it alike', async () => {
    // Behind a trusted proxy, so that these requests count for an address of their own (the
    // seeding's requests count for the loopback address).
    const limited = await startTestApp(db, { config: { publicRateLimit: 3, trustProxy: true } });
    const viaKoa = await startTestApp(db, { config: { publicRateLimit: 3, trustProxy: true, fastPublicReads: false } });
    try {
      await seed(limited);
      await seed(viaKoa);
      const answers = async (app: TestApp) => {
        const seen = [];
        for (let i = 0; i < 5; i++) {
          const res = await app.request('GET', '/v1/flags/checkout', {
            apiKey: envs.get(app)!.serverKey,
            headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' },
          });
          seen.push({
            status: res.status,
            body: res.status === 429 ? res.body : null,
            limit: res.headers.get('x-ratelimit-limit'),
            remaining: res.headers.get('x-ratelimit-remaining'),
            retryAfter: res.headers.get('retry-after') === null ? null : 'present',
            nosniff: res.headers.get('x-content-type-options'),
          });
        }
        await app.composition.publicAudit.flush();
        const refused = await app
          .knex('public_audit_entries')
          .where({ status_code: 429, http_path: '/v1/flags/checkout' })
          .select('actor_type', 'action', 'result');
        return { seen, refused };
      };
      const [a, b] = [await answers(limited), await answers(viaKoa)];
      expect(a).toEqual(b);
      expect(a.seen.map((s) => s.status)).toEqual([200, 200, 200, 429, 429]);
      expect(a.seen[3]).toMatchObject({ limit: '3', remaining: '0', retryAfter: 'present', nosniff: 'nosniff' });
      expect(a.refused).toHaveLength(2);
    } finally {
      await limited.close();
      await viaKoa.close();
    }
  }, 120_000);
});
