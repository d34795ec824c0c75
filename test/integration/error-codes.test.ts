import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createManagementToken } from './admin-support.js';

// Every error body carries a stable machine-readable code beside its message (ErrorCode).
describeEachDatabase('error codes', (db) => {
  let app: TestApp;
  const p = `/projects/codes-${Date.now().toString(36)}`;
  beforeAll(async () => {
    app = await startTestApp(db);
    await expectOk(app, 'POST', '/projects', {
      key: p.slice('/projects/'.length),
      name: 'Codes',
      environments: [{ key: 'production', name: 'Production' }],
    });
    await expectOk(app, 'PUT', `${p}/environments/production`, { name: 'Production', confirmation_required: true });
    await expectOk(app, 'POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const code = async (promise: Promise<{ status: number; body: { code?: string } }>) => {
    const res = await promise;
    return [res.status, res.body.code];
  };

  it('names the kind of refusal', async () => {
    expect(await code(app.request('GET', '/management/v1/projects'))).toEqual([401, 'missing_token']);
    expect(await code(app.request('GET', '/management/v1/projects', { token: `pat_${'x'.repeat(40)}` }))).toEqual([401, 'invalid_token']);
    const readOnly = await createManagementToken(app, ['flags:read']);
    expect(
      await code(
        app.request('POST', `/management/v1${p}/flags`, { token: readOnly.token, body: { key: 'x', name: 'x', type: 'boolean' } }),
      ),
    ).toEqual([403, 'scope_missing']);
    expect(await code(app.mgmt('GET', `${p}/flags/nope`))).toEqual([404, 'not_found']);
    expect(await code(app.request('GET', '/v1/flags', { apiKey: `srv_${'y'.repeat(40)}` }))).toEqual([401, 'invalid_api_key']);
  });

  it('challenges every 401 (WWW-Authenticate) with the scheme of its API', async () => {
    const management = await app.request('GET', '/management/v1/projects');
    expect(management.headers.get('www-authenticate')).toBe('Bearer realm="vexil"');
    const evaluation = await app.request('GET', '/v1/flags', { apiKey: `srv_${'y'.repeat(40)}` });
    expect(evaluation.headers.get('www-authenticate')).toBe('ApiKey realm="vexil", header="X-VEXIL-API-KEY"');
    const ofrep = await app.request('POST', '/ofrep/v1/evaluate/flags', { body: {} });
    expect(ofrep.headers.get('www-authenticate')).toBe('ApiKey realm="vexil", header="X-API-Key"');
  });

  it('names the rule that refused input the document allows; validation_failed only for input it does not', async () => {
    const flags = `${p}/flags`;
    expect(await code(app.mgmt('POST', flags, { key: 'checkout', name: 'Again', type: 'boolean' }))).toEqual([422, 'already_exists']);
    expect(
      await code(app.mgmt('POST', '/tokens', { name: 'ci', scopes: ['flags:read'], grants: { projects: ['no-such-project'] } })),
    ).toEqual([422, 'reference_not_found']);
    expect(await code(app.mgmt('POST', '/tokens', { name: 'ci', scopes: ['flags:read'], expires_at: '2001-01-01T00:00:00Z' }))).toEqual([
      422,
      'date_not_in_future',
    ]);
    expect(await code(app.mgmt('POST', `${flags}/checkout/values`, { display: 'maybe' }))).toEqual([422, 'value_type_mismatch']);
    await expectOk(app, 'POST', `${p}/environments`, { key: 'staging', name: 'Staging', comments_required: true });
    const draft = await expectOk(app, 'POST', `${flags}/checkout/environments/staging/targets`);
    const publish = `${flags}/checkout/environments/staging/targets/${draft.ulid}/publish`;
    expect(await code(app.mgmt('PUT', publish, { comment: 'go', rollout_mode: 'manual' }))).toEqual([422, 'invalid_combination']);
    expect(await code(app.mgmt('PUT', publish, {}))).toEqual([422, 'comment_required']);
    expect(await code(app.mgmt('GET', '/audit-logs?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z'))).toEqual([
      422,
      'invalid_combination',
    ]);
    // A body that breaks both a rule and the document: the document's failure names it.
    expect(await code(app.mgmt('POST', flags, { key: 'checkout', name: 'Again', type: 'boolean', colour: 'red' }))).toEqual([
      422,
      'validation_failed',
    ]);
  });

  it('tells validation failures from refusals by the current state', async () => {
    expect(await code(app.mgmt('POST', `${p}/flags`, { key: 'Bad Key', name: 'x', type: 'boolean' }))).toEqual([422, 'validation_failed']);
    expect(await code(app.mgmt('GET', `${p}/flags?cursor=not-a-cursor`))).toEqual([422, 'invalid_cursor']);
    const values: Array<{ ulid: string; display: string }> = await expectOk(app, 'GET', `${p}/flags/checkout/values`);
    const falseValue = values.find((v) => v.display === 'false')!.ulid;
    const trueValue = values.find((v) => v.display === 'true')!.ulid;
    const draft = await expectOk(app, 'POST', `${p}/flags/checkout/environments/production/targets`);
    await expectOk(app, 'PUT', `${p}/flags/checkout/environments/production/targets/${draft.ulid}`, { value_ulid: trueValue });
    expect(await code(app.mgmt('DELETE', `${p}/flags/checkout/values/${trueValue}`))).toEqual([422, 'value_in_use']);
    expect(await code(app.mgmt('DELETE', `${p}/flags/checkout/values/${falseValue}`))).toEqual([422, 'state_conflict']);
    expect(await code(app.mgmt('PUT', `${p}/flags/checkout/environments/production/targets/${draft.ulid}/publish`, {}))).toEqual([
      422,
      'confirmation_required',
    ]);
    const key = { headers: { 'idempotency-key': `codes-${Date.now()}` } };
    await app.mgmt('POST', `${p}/flags`, { key: 'idem', name: 'Idem', type: 'boolean' }, key);
    expect(await code(app.mgmt('POST', `${p}/flags`, { key: 'idem-2', name: 'Other', type: 'boolean' }, key))).toEqual([
      422,
      'idempotency_key_reused',
    ]);
  });
});
