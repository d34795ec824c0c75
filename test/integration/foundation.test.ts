import { afterAll, beforeAll, expect, it } from 'vitest';
import { readOperations } from '../../src/http/openapi/operations.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describeEachDatabase('foundation: routing, documents and error envelopes', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves both documents as JSON', async () => {
    const pub = await app.request('GET', '/v1/api-docs');
    expect(pub.status).toBe(200);
    expect(pub.body.openapi).toBe('3.0.3');
    expect(Object.keys(pub.body.paths)).toContain('/v1/flags');
    const mgmt = await app.request('GET', '/management/v1/api-docs');
    expect(mgmt.status).toBe(200);
    expect(mgmt.body.info.version).toBe('1.0.0');
    expect(Object.keys(mgmt.body.paths)).toContain('/projects');
  });

  it('has a handler for every documented operation (none answers 501)', () => {
    const { documents, publicHandlers, managementHandlers } = app.composition;
    const missing = [
      ...readOperations(documents.public.dereferenced).filter((op) => !publicHandlers[op.operationId]),
      ...readOperations(documents.management.dereferenced).filter((op) => !managementHandlers[op.operationId]),
    ].map((op) => op.operationId);
    expect(missing).toEqual([]);
  });

  it('answers 404 in the standard envelope for an unknown path', async () => {
    const res = await app.request('GET', '/management/v1/no-such-thing', { token: app.ownerToken });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Not found.', code: expect.any(String) });
    const pub = await app.request('GET', '/v1/nothing-here');
    expect(pub.status).toBe(404);
    expect(pub.body).toMatchObject({ status: 'error' });
    // A browser's navigation outside the APIs gets the web console (its page, or a page saying it
    // is not built); any other client the 404.
    const consolePath = await app.request('GET', '/nothing-here', { skipContract: true, headers: { accept: 'text/html' } });
    expect(consolePath.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect([200, 503]).toContain(consolePath.status);
    const jsonClient = await app.request('GET', '/nothing-here', { skipContract: true });
    expect(jsonClient.status).toBe(404);
    expect(jsonClient.body).toEqual({ status: 'error', message: 'Not found.', code: 'not_found' });
  });

  it('answers 405 with Allow for a known path and the wrong method', async () => {
    const res = await app.request('PATCH', '/management/v1/projects', { token: app.ownerToken });
    expect(res.status).toBe(405);
    expect(res.body.status).toBe('error');
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('refuses a request without a bearer token with 401', async () => {
    for (const authorization of [undefined, '', 'Bearer', 'Basic abc', `Bearer pat_short`, `Bearer xyz_${'a'.repeat(40)}`]) {
      const res = await app.request('GET', '/management/v1/projects', {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.body.status).toBe('error');
    }
  });

  it('refuses malformed JSON with 400, a non-JSON body with 415 and an oversized body with 413', async () => {
    const before = await app.knex('projects').count({ n: '*' }).first();
    const malformed = await app.request('POST', '/management/v1/projects', {
      token: app.ownerToken,
      rawBody: '{"key": "a",',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ status: 'error', message: 'Malformed JSON in request body.', code: expect.any(String) });

    const form = await app.request('POST', '/management/v1/projects', {
      token: app.ownerToken,
      rawBody: 'key=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);

    const huge = await app.request('POST', '/management/v1/projects', {
      token: app.ownerToken,
      rawBody: JSON.stringify({ key: 'big', name: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    const after = await app.knex('projects').count({ n: '*' }).first();
    expect(after).toEqual(before);
  });

  it('treats members named after Object.prototype as plain unknown fields: 422 naming them, Object.prototype untouched', async () => {
    const before = await app.knex('projects').count({ n: '*' }).first();
    for (const member of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await app.request('POST', '/management/v1/projects', {
        token: app.ownerToken,
        rawBody: `{"key":"p","name":"P","${member}":{"polluted":true,"prototype":{"polluted":true}}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, member).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(Object.keys(res.body.errors), member).toEqual([member]);
      expect(res.body.errors[member]).toEqual([`The ${member} field is not allowed.`]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await app.knex('projects').count({ n: '*' }).first()).toEqual(before);
  });

  it('reports body validation failures in the field-keyed 422 shape', async () => {
    const res = await app.mgmt('POST', '/projects', { key: 'Not A Key!', unknown_field: 1 });
    expect(res.status).toBe(422);
    expect(typeof res.body.message).toBe('string');
    expect(Object.keys(res.body.errors).sort()).toEqual(['key', 'name', 'unknown_field']);
  });

  it('reports query parameter failures as 422 in the standard envelope', async () => {
    for (const query of ['per_page=0', 'per_page=101', 'per_page=abc']) {
      const res = await app.mgmt('GET', `/projects?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.status).toBe('error');
    }
  });

  it('refuses an Idempotency-Key over 255 characters with 400', async () => {
    const res = await app.mgmt('POST', '/projects', { key: 'idem', name: 'Idem' }, { headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(await app.knex('projects').where('key', 'idem').first()).toBeUndefined();
  });
});
