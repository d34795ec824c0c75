/**
 * The openapi-fetch flow of the generated-clients suite (test/generated-clients/run.ts): with the
 * types openapi-typescript made of the served documents, sets up a flag with a rule through the
 * management API (minimal create bodies type-check), then sends the context and default values in
 * the POST twins' bodies and, since this client sends header text as given, in the headers too
 * (JSON text with non-ASCII characters written as \u escapes).
 */
import createClient from 'openapi-fetch';
import type {
  components as managementComponents,
  paths as managementPaths,
} from '../../../.generated-clients/openapi-typescript/management';
import type { components as publicComponents, paths as publicPaths } from '../../../.generated-clients/openapi-typescript/public';
import { check, env, step } from './common';

const base = env('VEXIL_URL');
const ownerToken = env('VEXIL_OWNER_TOKEN');
const management = createClient<managementPaths>({ baseUrl: `${base}/management/v1`, headers: { Authorization: `Bearer ${ownerToken}` } });

const projectKey = 'openapi-fetch-flow';
const environmentKey = 'production';
const city = 'Zürich & Co "quoted"';
const nested = { palette: { primary: '#0055ff', levels: [1, 2.5, { deep: null }] }, label: 'Grüße', on: true };
const inCity: publicComponents['schemas']['Context'] = {
  type: 'user',
  identifier: 'u-1',
  attributes: [{ key: 'city', values: [{ value: city }] }],
};
const declared: publicComponents['schemas']['DefaultValueDeclaration'][] = [
  { key: 'theme', type: 'json', value: nested },
  { key: 'checkout', type: 'boolean', value: false },
];

/** JSON text for a header: HTTP header values are bytes, so non-ASCII characters travel as \u escapes. */
function headerJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The body of a successful answer. */
function body<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`HTTP ${result.response.status} ${result.response.url}: ${JSON.stringify(result.error)}`);
  return result.data;
}

let serverKey = '';
await step('set-up with minimal bodies', async () => {
  const project: managementComponents['schemas']['ProjectCreate'] = { key: projectKey, name: 'openapi-fetch flow' };
  body(await management.POST('/projects', { body: project }));
  const keyPath = { params: { path: { projectKey, environmentKey } } };
  serverKey = body(
    await management.POST('/projects/{projectKey}/environments/{environmentKey}/keys', { ...keyPath, body: { kind: 'server' } }),
  ).data.key;
  // The five create operations whose members have documented defaults, with only the required members.
  body(await management.POST('/projects/{projectKey}/environments', { params: { path: { projectKey } }, body: { key: 'qa', name: 'QA' } }));
  body(await management.POST('/tokens', { body: { name: 'minimal', scopes: ['flags:read'] } }));
  body(await management.POST('/projects/{projectKey}/segments', { params: { path: { projectKey } }, body: { key: 'beta', name: 'Beta' } }));
  body(
    await management.POST('/projects/{projectKey}/flags', {
      params: { path: { projectKey } },
      body: { key: 'checkout', name: 'New checkout', type: 'boolean' },
    }),
  );
  body(
    await management.POST('/projects/{projectKey}/flags', {
      params: { path: { projectKey } },
      body: { key: 'theme', name: 'Theme', type: 'json' },
    }),
  );

  const flagPath = { projectKey, flagKey: 'checkout', environmentKey };
  const values = body(
    await management.GET('/projects/{projectKey}/flags/{flagKey}/values', { params: { path: { projectKey, flagKey: 'checkout' } } }),
  ).data;
  const on = values.find((v) => v.display === 'true')!.ulid;
  const draft = body(
    await management.POST('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets', { params: { path: flagPath } }),
  ).data;
  const targetPath = { ...flagPath, targetUlid: draft.ulid };
  body(
    await management.POST('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules', {
      params: { path: targetPath },
      body: {
        value_ulid: on,
        description: 'One city',
        criteria: [{ selector: 'attribute', sub_selector: 'city', comparer: 'equal', values: [city] }],
      },
    }),
  );
  body(
    await management.PUT('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/publish', {
      params: { path: targetPath },
      body: {},
    }),
  );
  // The management preview's context as JSON text in its query parameter.
  const preview = body(
    await management.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/evaluate', {
      params: { path: flagPath, query: { context: JSON.stringify(inCity) } },
    }),
  ).data;
  check(preview.value === true && preview.resolved_by === 'rule', 'management evaluateFlag: the context query parameter arrived intact');
});

await step('context and default values, in the bodies and in the headers', async () => {
  const evaluation = createClient<publicPaths>({ baseUrl: base, headers: { 'X-VEXIL-API-KEY': serverKey } });
  const inBody = body(await evaluation.POST('/v1/flags/evaluate', { body: { context: inCity, default_values: declared } })).data;
  const inHeaders = body(
    await evaluation.GET('/v1/flags', {
      params: { header: { 'X-VEXIL-CONTEXT': headerJson(inCity), 'X-VEXIL-DEFAULT-VALUE': headerJson(declared) } },
    }),
  ).data;
  for (const [form, items] of [
    ['body', inBody],
    ['headers', inHeaders],
  ] as const) {
    const byKey = new Map(items.map((item) => [item.flag.key, item.flag.value]));
    check(byKey.get('checkout')?.boolean === true, `context in the ${form}: arrived intact (rule on a non-ASCII value matched)`);
    check(
      JSON.stringify(byKey.get('theme')?.json) === JSON.stringify(nested),
      `default values in the ${form}: the nested JSON arrived intact`,
    );
  }
  const one = body(
    await evaluation.POST('/v1/flags/{flagKey}/evaluate', { params: { path: { flagKey: 'checkout' } }, body: { context: inCity } }),
  ).data;
  check(one.flag.value.boolean === true, 'evaluateFlag with the context in the body');
});

console.log('openapi-fetch flow: done');
