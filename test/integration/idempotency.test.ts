import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, IdempotencyService, sha256 } from '../../src/features/idempotency/service.js';
import { KnexIdempotencyStore } from '../../src/features/idempotency/store.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { seedProject, seedToken, uniqueKey } from './audit-fixtures.js';

const day = 86_400_000;

describeEachDatabase('idempotency keys', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = (path: string, body: unknown, key: string | undefined, token?: string, extra: Record<string, string> = {}) =>
    app.request('POST', `/management/v1${path}`, {
      token: token ?? app.ownerToken,
      body,
      headers: { ...(key === undefined ? {} : { 'idempotency-key': key }), ...extra },
    });
  const count = async (table: string, where: Record<string, unknown>) =>
    Number((await app.knex(table).where(where).count({ n: '*' }).first())?.n);

  describe('replay', () => {
    it('replays the stored response with X-Idempotent-Replayed and creates one resource', async () => {
      const key = uniqueKey('idem');
      const projectKey = uniqueKey('p');
      const body = { key: projectKey, name: 'Idempotent project' };
      const first = await post('/projects', body, key);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-idempotent-replayed')).toBeNull();
      const replay = await post('/projects', body, key);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('x-idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(await count('projects', { key: projectKey })).toBe(1);
      // The same body written differently (key order, whitespace) is the same request.
      const reordered = await app.request('POST', '/management/v1/projects', {
        token: app.ownerToken,
        rawBody: `{ "name": "Idempotent project",\n  "key": "${projectKey}" }`,
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      });
      expect(reordered.status).toBe(200);
      expect(reordered.headers.get('x-idempotent-replayed')).toBe('true');
      expect(reordered.body).toEqual(first.body);
      // The replay is audited like any request; the change is audited once.
      expect(await count('audit_entries', { action: 'project.created', subject_ulid: first.body.data.ulid })).toBe(1);
    });

    it('refuses the same key with a different body (422) and changes nothing', async () => {
      const key = uniqueKey('idem');
      const projectKey = uniqueKey('p');
      expect((await post('/projects', { key: projectKey, name: 'One' }, key)).status).toBe(200);
      const other = uniqueKey('p');
      const refused = await post('/projects', { key: other, name: 'Two' }, key);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ status: 'error', message: expect.stringContaining('Idempotency-Key'), code: expect.any(String) });
      expect(await count('projects', { key: other })).toBe(0);
    });

    it('scopes the key to the token, the method and the path', async () => {
      const project = await seedProject(app);
      const other = await seedProject(app);
      const token = await seedToken(app, { scopes: ['flags:write', 'flags:read'], tier: 'unlimited' });
      const key = uniqueKey('idem');
      const a = await post(`/projects/${project.key}/flags`, { key: 'flag-a', name: 'A', type: 'boolean' }, key);
      expect(a.status).toBe(200);
      // Another token, same path and key, another body: its own request, not a 422.
      const b = await post(`/projects/${project.key}/flags`, { key: 'flag-b', name: 'B', type: 'boolean' }, key, token.token);
      expect(b.status).toBe(200);
      expect(b.headers.get('x-idempotent-replayed')).toBeNull();
      // Same token and key on another path: runs.
      const c = await post(`/projects/${other.key}/flags`, { key: 'flag-a', name: 'A', type: 'boolean' }, key);
      expect(c.status).toBe(200);
      expect(c.body.data.ulid).not.toBe(a.body.data.ulid);
      // Same path with PUT (another method, another operation): runs.
      const put = await app.request('PUT', `/management/v1/projects/${project.key}/flags/flag-a`, {
        token: app.ownerToken,
        body: { name: 'A2', permanent: false },
        headers: { 'idempotency-key': key },
      });
      expect(put.status).toBe(200);
      expect(put.headers.get('x-idempotent-replayed')).toBeNull();
      expect(await count('flags', { project_ulid: project.ulid })).toBe(2);
    });

    it('stores client errors and replays them, even once the request would succeed', async () => {
      const key = uniqueKey('idem');
      const missing = uniqueKey('p');
      const body = { key: 'flag', name: 'F', type: 'boolean' };
      const first = await post(`/projects/${missing}/flags`, body, key);
      expect(first.status).toBe(404);
      await seedProject(app, missing);
      const replay = await post(`/projects/${missing}/flags`, body, key);
      expect(replay.status).toBe(404);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('x-idempotent-replayed')).toBe('true');
      const fresh = await post(`/projects/${missing}/flags`, body, uniqueKey('idem'));
      expect(fresh.status).toBe(200);

      // A 422 from the service (duplicate key) is stored as well.
      const dupKey = uniqueKey('idem');
      const dup = await post(`/projects/${missing}/flags`, body, dupKey);
      expect(dup.status).toBe(422);
      await app.mgmt('DELETE', `/projects/${missing}/flags/flag`);
      const dupReplay = await post(`/projects/${missing}/flags`, body, dupKey);
      expect(dupReplay.status).toBe(422);
      expect(dupReplay.body).toEqual(dup.body);
      expect(dupReplay.headers.get('x-idempotent-replayed')).toBe('true');
    });

    it('honours a key for 24 hours; then it runs again and the purge removes the record', async () => {
      const key = uniqueKey('idem');
      const project = await seedProject(app);
      const body = { key: uniqueKey('f'), name: 'F', type: 'boolean' };
      expect((await post(`/projects/${project.key}/flags`, body, key)).status).toBe(200);
      app.clock.advance(day - 60_000);
      expect((await post(`/projects/${project.key}/flags`, body, key)).headers.get('x-idempotent-replayed')).toBe('true');
      app.clock.advance(60_001);
      const again = await post(`/projects/${project.key}/flags`, body, key);
      // Expired: the request runs again (and meets the flag it created a day ago).
      expect(again.headers.get('x-idempotent-replayed')).toBeNull();
      expect(again.status).toBe(422);

      const stale = uniqueKey('idem');
      expect((await post(`/projects/${project.key}/flags`, { key: uniqueKey('f'), name: 'F', type: 'boolean' }, stale)).status).toBe(200);
      app.clock.advance(day + 1);
      const service = new IdempotencyService({ db: app.knex, store: new KnexIdempotencyStore(), clock: app.clock });
      expect(await service.purgeExpired()).toBeGreaterThanOrEqual(1);
      expect(await count('idempotency_records', { idempotency_key: stale })).toBe(0);
    });
  });

  describe('the header', () => {
    it('refuses a key over 255 characters with 400 and accepts 255', async () => {
      const long = await post('/projects', { key: uniqueKey('p'), name: 'x' }, 'k'.repeat(256));
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ status: 'error', message: expect.stringMatching(/idempotency-key/i), code: expect.any(String) });
      const exact = await post('/projects', { key: uniqueKey('p'), name: 'x' }, 'k'.repeat(255) + '');
      expect(exact.status).toBe(200);
    });

    it('treats an empty key as no key', async () => {
      const body = { key: uniqueKey('p'), name: 'x' };
      const first = await post('/projects', body, '');
      expect(first.status).toBe(200);
      const second = await post('/projects', body, '');
      // Not a replay: the request ran again and met the project it created.
      expect(second.status).toBe(422);
      expect(second.headers.get('x-idempotent-replayed')).toBeNull();
      expect(await count('idempotency_records', { idempotency_key: '' })).toBe(0);
    });

    it('is ignored by operations that do not take it (DELETE)', async () => {
      const project = await seedProject(app);
      await post(`/projects/${project.key}/flags`, { key: 'gone', name: 'G', type: 'boolean' }, undefined);
      const key = uniqueKey('idem');
      const del = (k: string) =>
        app.request('DELETE', `/management/v1/projects/${project.key}/flags/gone`, {
          token: app.ownerToken,
          headers: { 'idempotency-key': k },
        });
      expect((await del(key)).status).toBe(200);
      const second = await del(key);
      expect(second.status).toBe(404);
      expect(second.headers.get('x-idempotent-replayed')).toBeNull();
    });
  });

  describe('concurrency', () => {
    it('20 identical requests at once with one key create exactly one resource and all get the same answer', async () => {
      const project = await seedProject(app);
      const key = uniqueKey('idem');
      const body = { key: uniqueKey('race'), name: 'Race', type: 'boolean' };
      const responses: ApiResponse[] = await Promise.all(
        Array.from({ length: 20 }, () => post(`/projects/${project.key}/flags`, body, key)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      for (const r of responses) expect(r.body).toEqual(responses[0]?.body);
      expect(responses.filter((r) => r.headers.get('x-idempotent-replayed') === null).length).toBe(1);
      expect(responses.filter((r) => r.headers.get('x-idempotent-replayed') === 'true').length).toBe(19);
      expect(await count('flags', { project_ulid: project.ulid, key: body.key })).toBe(1);
      expect(await count('audit_entries', { action: 'flag.created', subject_ulid: responses[0]?.body.data.ulid })).toBe(1);
    });

    it('20 identical project creations at once: one project', async () => {
      const key = uniqueKey('idem');
      const projectKey = uniqueKey('race');
      const responses = await Promise.all(Array.from({ length: 20 }, () => post('/projects', { key: projectKey, name: 'Race' }, key)));
      expect(new Set(responses.map((r) => r.status))).toEqual(new Set([200]));
      expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
      expect(await count('projects', { key: projectKey })).toBe(1);
    });

    it('answers 409 while the first request is still running after the wait, and replays once it finishes', async () => {
      const project = await seedProject(app);
      const path = `/management/v1/projects/${project.key}/flags`;
      const body = { key: uniqueKey('held'), name: 'Held', type: 'boolean' };
      const key = uniqueKey('idem');
      const pat = await app.knex('personal_access_tokens').where('account_ulid', app.ownerUlid).first('ulid');
      const now = app.clock.now();
      // A request with this key is running (on this or another instance).
      await app.knex('idempotency_records').insert({
        token_ulid: pat.ulid,
        method: 'POST',
        path_digest: sha256(path),
        idempotency_key: key,
        request_digest: sha256(canonicalJson(body)),
        state: 'in_progress',
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + day).toISOString(),
      });
      const started = Date.now();
      const conflict = await post(`/projects/${project.key}/flags`, body, key);
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({
        status: 'error',
        message: expect.stringContaining('still being processed'),
        code: expect.any(String),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
      expect(await count('flags', { project_ulid: project.ulid })).toBe(0);

      // A duplicate waiting while the first finishes gets the first one's answer.
      const waiting = app.request('POST', path, {
        token: app.ownerToken,
        body,
        headers: { 'idempotency-key': key },
        skipContract: true,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stored = { status: 'success', data: { note: 'stored by the first request' } };
      await app
        .knex('idempotency_records')
        .where({ idempotency_key: key })
        .update({ state: 'completed', response_status: 200, response_body: JSON.stringify(stored) });
      const replay = await waiting;
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(stored);
      expect(replay.headers.get('x-idempotent-replayed')).toBe('true');
      expect(await count('flags', { project_ulid: project.ulid })).toBe(0);
    });

    it('takes over a key whose first request was abandoned (its instance died)', async () => {
      const project = await seedProject(app);
      const path = `/management/v1/projects/${project.key}/flags`;
      const body = { key: uniqueKey('orphan'), name: 'Orphan', type: 'boolean' };
      const key = uniqueKey('idem');
      const pat = await app.knex('personal_access_tokens').where('account_ulid', app.ownerUlid).first('ulid');
      const then = new Date(app.clock.now().getTime() - 10 * 60_000);
      await app.knex('idempotency_records').insert({
        token_ulid: pat.ulid,
        method: 'POST',
        path_digest: sha256(path),
        idempotency_key: key,
        request_digest: sha256(canonicalJson(body)),
        state: 'in_progress',
        created_at: then.toISOString(),
        expires_at: new Date(then.getTime() + day).toISOString(),
      });
      const res = await post(`/projects/${project.key}/flags`, body, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-idempotent-replayed')).toBeNull();
      expect((await post(`/projects/${project.key}/flags`, body, key)).headers.get('x-idempotent-replayed')).toBe('true');
    });
  });
});
