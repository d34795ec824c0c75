import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createManagementToken, lastAuditEntry } from './admin-support.js';

describeEachDatabase('flags as code: export', (db) => {
  let app: TestApp;
  const projectKey = `export-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;

  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  /** Drafts, configures and publishes one flag's target in one environment through the API. */
  async function publish(flagKey: string, env: string, valueUlid: string, rules: unknown[], publishBody: Record<string, unknown> = {}) {
    const target = await ok('POST', `${p}/flags/${flagKey}/environments/${env}/targets`);
    const targetPath = `${p}/flags/${flagKey}/environments/${env}/targets/${target.ulid}`;
    await ok('PUT', targetPath, { value_ulid: valueUlid });
    for (const rule of rules) await ok('POST', `${targetPath}/rules`, rule);
    return ok('PUT', `${targetPath}/publish`, publishBody);
  }

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Export shop',
      description: 'Everything the shop serves',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    await ok('PUT', `${p}/environments/production`, {
      name: 'Production',
      color: '#aa0000',
      comments_required: true,
      confirmation_required: false,
    });
    await ok('POST', `${p}/segments`, {
      key: 'pro-users',
      name: 'Pro users',
      included: ['u-1'],
      rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
    });
    await ok('POST', `${p}/segments`, { key: 'beta', name: 'Beta', description: 'Early access', excluded: ['u-9'] });

    await ok('POST', `${p}/flags`, { key: 'new-checkout', name: 'New checkout', type: 'boolean', description: 'Checkout v2' });
    const booleanValues: Array<{ ulid: string; display: string }> = await ok('GET', `${p}/flags/new-checkout/values`);
    const on = booleanValues.find((v) => v.display === 'true')!.ulid;
    const off = booleanValues.find((v) => v.display === 'false')!.ulid;
    await publish('new-checkout', 'staging', off, [
      { value_ulid: on, description: 'Pro users', criteria: [{ selector: 'segment', comparer: 'in', values: ['pro-users'] }] },
      {
        value_ulid: on,
        description: 'Staff without a country',
        criteria: [
          { selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@shop.test'] },
          { selector: 'attribute', sub_selector: 'country', comparer: 'isnull' },
        ],
      },
    ]);
    await publish('new-checkout', 'production', on, [], {
      comment: 'Half of production',
      rollout_enabled: true,
      rollout_mode: 'manual',
      rollout_percentage: 50,
    });

    await ok('POST', `${p}/flags`, { key: 'banner', name: 'Banner', type: 'string', include_in_client: false });
    await ok('PUT', `${p}/flags/banner`, { name: 'Banner', permanent: true, include_in_client: false });
    await ok('POST', `${p}/flags/banner/values`, { display: 'Welcome' });
    const sale = await ok('POST', `${p}/flags/banner/values`, { display: 'Sale <b>now</b>' });
    await publish('banner', 'staging', sale.ulid, []);

    await ok('POST', `${p}/flags`, { key: 'limits', name: 'Limits', type: 'json' });
    await ok('POST', `${p}/flags/limits/values`, { display: '{ "max": 3,  "tiers": ["a", "b"] }' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('exports the whole project by key, in a fixed order, checked against the document', async () => {
    const res = await app.mgmt('GET', `${p}/configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      version: 1,
      project: { key: projectKey, name: 'Export shop', description: 'Everything the shop serves' },
      environments: [
        { key: 'staging', name: 'Staging', description: null, color: '#808080', comments_required: false, confirmation_required: false },
        {
          key: 'production',
          name: 'Production',
          description: null,
          color: '#aa0000',
          comments_required: true,
          confirmation_required: false,
        },
      ],
      segments: [
        { key: 'beta', name: 'Beta', description: 'Early access', included: [], excluded: ['u-9'], rules: [] },
        {
          key: 'pro-users',
          name: 'Pro users',
          description: null,
          included: ['u-1'],
          excluded: [],
          rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
        },
      ],
      flags: [
        {
          key: 'banner',
          name: 'Banner',
          type: 'string',
          description: null,
          permanent: true,
          include_in_mobile: true,
          include_in_client: false,
          values: [
            { value: 'Welcome', default: true },
            { value: 'Sale <b>now</b>', default: false },
          ],
          environments: { staging: { value: 'Sale <b>now</b>', rules: [], rollout: null } },
        },
        {
          key: 'limits',
          name: 'Limits',
          type: 'json',
          description: null,
          permanent: false,
          include_in_mobile: true,
          include_in_client: true,
          values: [{ value: '{"max":3,"tiers":["a","b"]}', default: true }],
          environments: {},
        },
        {
          key: 'new-checkout',
          name: 'New checkout',
          type: 'boolean',
          description: 'Checkout v2',
          permanent: false,
          include_in_mobile: true,
          include_in_client: true,
          values: [
            { value: 'true', default: false },
            { value: 'false', default: true },
          ],
          environments: {
            staging: {
              value: 'false',
              rules: [
                { description: 'Pro users', value: 'true', criteria: [{ selector: 'segment', comparer: 'in', values: ['pro-users'] }] },
                {
                  description: 'Staff without a country',
                  value: 'true',
                  criteria: [
                    { selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@shop.test'] },
                    { selector: 'attribute', sub_selector: 'country', comparer: 'isnull' },
                  ],
                },
              ],
              rollout: null,
            },
            production: { value: 'true', rules: [], rollout: { mode: 'manual', percentage: 50, status: 'active' } },
          },
        },
      ],
    });
    // The published JSON Schema of the file format accepts it too.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(fs.readFileSync('specs/project-configuration.schema.json', 'utf8')));
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...res.body, flags: [{ key: 'Bad Key' }] })).toBe(false);
    const audit = await lastAuditEntry(app);
    expect(audit).toMatchObject({ action: 'project.exported', subject_type: 'project', subject_label: projectKey });
  });

  it('exports identical bytes twice, as JSON and as YAML, and the YAML reads as the same document', async () => {
    const get = (query: string, accept?: string) =>
      fetch(`${app.baseUrl}/management/v1${p}/configuration${query}`, {
        headers: { authorization: `Bearer ${app.ownerToken}`, ...(accept ? { accept } : {}) },
      });
    const json1 = await (await get('')).text();
    const json2 = await (await get('')).text();
    expect(json1).toBe(json2);
    const yamlByAccept = await get('', 'application/yaml');
    expect(yamlByAccept.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    const yaml1 = await yamlByAccept.text();
    const yaml2 = await (await get('?format=yaml')).text();
    expect(yaml1).toBe(yaml2);
    expect(YAML.parse(yaml1)).toEqual(JSON.parse(json1));
    // After a change the file changes, and only then.
    await ok('PUT', `${p}/flags/limits`, { name: 'Limits', permanent: true });
    expect(await (await get('')).text()).not.toBe(json1);
  });

  it('exports only the named environments, and 404s an unknown one', async () => {
    const res = await app.mgmt('GET', `${p}/configuration?environments=production`);
    expect(res.status).toBe(200);
    expect(res.body.environments.map((e: { key: string }) => e.key)).toEqual(['production']);
    const checkout = res.body.flags.find((f: { key: string }) => f.key === 'new-checkout');
    expect(Object.keys(checkout.environments)).toEqual(['production']);

    const unknown = await app.mgmt('GET', `${p}/configuration?environments=production,qa`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Environment "qa" not found.');
  });

  it('needs targets:read beside flags:read, and shows only granted environments', async () => {
    const flagsOnly = await createManagementToken(app, ['flags:read']);
    const refused = await app.request('GET', `/management/v1${p}/configuration`, { token: flagsOnly.token });
    expect(refused.status).toBe(403);

    const stagingOnly = await createManagementToken(app, ['flags:read', 'targets:read'], {
      grants: { environments: [{ project: projectKey, environment: 'staging' }] },
    });
    const granted = await app.request('GET', `/management/v1${p}/configuration`, { token: stagingOnly.token });
    expect(granted.status).toBe(200);
    expect(granted.body.environments.map((e: { key: string }) => e.key)).toEqual(['staging']);
  });
});
