import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { uniqueKey } from './audit-fixtures.js';

interface Entry {
  ulid: string;
  action: string;
  http_method: string | null;
}

// The management log's `kind` filter (changes or reads) and `environment_ulid` filter.
describeEachDatabase('audit log filters: kind and environment', (db) => {
  let app: TestApp;
  const project = uniqueKey('kind');
  let staging: string;
  let production: string;

  /** Every entry about `project` matching the query, oldest first. */
  async function entries(query: string): Promise<Entry[]> {
    const res = await app.mgmt('GET', `/audit-logs?project=${project}&per_page=100&sort=created_at_asc${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Entry[];
  }

  beforeAll(async () => {
    app = await startTestApp(db);
    const created = await app.mgmt('POST', '/projects', {
      key: project,
      name: 'Kinds',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    expect(created.status).toBe(200);
    const environments = (await app.mgmt('GET', `/projects/${project}/environments`)).body.data as Array<{ key: string; ulid: string }>;
    staging = environments.find((e) => e.key === 'staging')?.ulid as string;
    production = environments.find((e) => e.key === 'production')?.ulid as string;
    expect((await app.mgmt('POST', `/projects/${project}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' })).status).toBe(200);
    // Reads: plain GETs and an evaluation with a context (a POST that changes nothing).
    expect((await app.mgmt('GET', `/projects/${project}/flags/checkout`)).status).toBe(200);
    expect((await app.mgmt('GET', `/projects/${project}/environments/staging/keys`)).status).toBe(200);
    expect(
      (
        await app.mgmt('POST', `/projects/${project}/flags/checkout/environments/staging/evaluate`, {
          context: { type: 'user', identifier: 'u-1' },
        })
      ).status,
    ).toBe(200);
    // Changes: a flag update and a key in production.
    expect((await app.mgmt('PUT', `/projects/${project}/flags/checkout`, { name: 'Checkout v2', permanent: false })).status).toBe(200);
    expect((await app.mgmt('POST', `/projects/${project}/environments/production/keys`, { kind: 'server' })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps only changes with kind=changes, only reads with kind=reads, both without', async () => {
    const all = await entries('');
    const changes = await entries('&kind=changes');
    const reads = await entries('&kind=reads');
    expect(changes.map((e) => e.action)).toEqual(['project.created', 'flag.created', 'flag.updated', 'environment_key.created']);
    expect(changes.every((e) => e.http_method !== 'GET')).toBe(true);
    expect(reads.map((e) => e.action)).toEqual(['environment.listed', 'flag.read', 'environment_key.listed', 'flag.evaluated']);
    // Together they are the whole log, each entry once.
    expect([...changes, ...reads].map((e) => e.ulid).sort()).toEqual(all.map((e) => e.ulid).sort());
  });

  it('counts system actions (no request method) as changes', async () => {
    const marker = `sub_${uniqueKey('sys')}`;
    await app.composition.auditWriter.write(app.knex, {
      principal: undefined,
      actorType: 'system',
      httpMethod: null,
      httpPath: null,
      result: 'success',
      statusCode: null,
      action: 'target.published',
      subjectUlid: marker,
    });
    const changes = (await app.mgmt('GET', `/audit-logs?subject_ulid=${marker}&kind=changes`)).body.data as Entry[];
    expect(changes.map((e) => e.action)).toEqual(['target.published']);
    expect((await app.mgmt('GET', `/audit-logs?subject_ulid=${marker}&kind=reads`)).body.data).toEqual([]);
  });

  it('filters by environment, and combines with kind', async () => {
    expect((await entries(`&environment_ulid=${production}`)).map((e) => e.action)).toEqual(['environment_key.created']);
    expect((await entries(`&environment_ulid=${staging}`)).map((e) => e.action)).toEqual(['environment_key.listed', 'flag.evaluated']);
    expect((await entries(`&environment_ulid=${staging}&kind=changes`)).map((e) => e.action)).toEqual([]);
    expect(await entries('&environment_ulid=env_none')).toEqual([]);
  });

  it('refuses an unknown kind and a padded environment with 422', async () => {
    expect((await app.mgmt('GET', '/audit-logs?kind=writes')).status).toBe(422);
    expect((await app.mgmt('GET', `/audit-logs?environment_ulid=${encodeURIComponent(`${staging} `)}`)).status).toBe(422);
  });
});
