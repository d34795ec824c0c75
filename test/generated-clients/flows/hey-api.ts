/**
 * The hey-api flow of the generated-clients suite (test/generated-clients/run.ts): through the SDK
 * functions @hey-api/openapi-ts made of the served documents, sets up a flag with a rule and sends
 * the context and default values in the bodies of the POST twins (the only form this client can
 * send: it writes an object-valued header or query parameter as `[object Object]`).
 */
import * as mgmt from '../../../.generated-clients/hey-api/management/index';
import { client as managementClient } from '../../../.generated-clients/hey-api/management/client.gen';
import * as pub from '../../../.generated-clients/hey-api/public/index';
import { client as publicClient } from '../../../.generated-clients/hey-api/public/client.gen';
import { check, env, step } from './common';

const base = env('VEXIL_URL');
const ownerToken = env('VEXIL_OWNER_TOKEN');
managementClient.setConfig({
  baseUrl: `${base}/management/v1`,
  auth: (scheme) => (scheme.type === 'http' ? ownerToken : undefined),
  throwOnError: true,
});

const projectKey = 'hey-api-flow';
const environmentKey = 'production';
const city = 'Zürich & Co "quoted"';
const nested = { palette: { primary: '#0055ff', levels: [1, 2.5, { deep: null }] }, label: 'Grüße', on: true };
const inCity = { type: 'user', identifier: 'u-1', attributes: [{ key: 'city', values: [{ value: city }] }] };

/** The body of a successful answer (the SDK functions answer `{data}` or `{error}`). */
function body<T>(result: { data?: T; error?: unknown }): T {
  if (result.data === undefined) throw new Error(`no data: ${JSON.stringify(result.error)}`);
  return result.data;
}

let serverKey = '';
let clientKey = '';
await step('set-up through the management SDK', async () => {
  await mgmt.createProject({ body: { key: projectKey, name: 'hey-api flow' } });
  const path = { projectKey, environmentKey };
  serverKey = body(await mgmt.createEnvironmentKey({ path, body: { kind: 'server' } })).data.key;
  clientKey = body(await mgmt.createEnvironmentKey({ path, body: { kind: 'client' } })).data.key;
  await mgmt.createFlag({ path: { projectKey }, body: { key: 'checkout', name: 'New checkout', type: 'boolean' } });
  await mgmt.createFlag({ path: { projectKey }, body: { key: 'theme', name: 'Theme', type: 'json' } });
  const values = body(await mgmt.listFlagValues({ path: { projectKey, flagKey: 'checkout' } })).data;
  const on = values.find((v) => v.display === 'true')!.ulid;
  const flagPath = { projectKey, flagKey: 'checkout', environmentKey };
  const draft = body(await mgmt.createTarget({ path: flagPath })).data;
  await mgmt.createRule({
    path: { ...flagPath, targetUlid: draft.ulid },
    body: {
      value_ulid: on,
      description: 'One city',
      criteria: [{ selector: 'attribute', sub_selector: 'city', comparer: 'equal', values: [city] }],
    },
  });
  await mgmt.publishTarget({ path: { ...flagPath, targetUlid: draft.ulid }, body: {} });
  const preview = body(await mgmt.evaluateFlagForContext({ path: flagPath, body: { context: inCity } })).data;
  check(preview.value === true && preview.resolved_by === 'rule', 'management evaluateFlagForContext: the context arrived intact');
});

await step('context and default values in the bodies of the public twins', async () => {
  publicClient.setConfig({ baseUrl: base, auth: () => serverKey, throwOnError: true });
  const declared: pub.DefaultValueDeclaration[] = [
    { key: 'theme', type: 'json', value: nested },
    { key: 'checkout', type: 'boolean', value: false },
  ];
  const all = body(await pub.evaluateFlags({ body: { context: inCity, default_values: declared } })).data;
  const byKey = new Map(all.map((item) => [item.flag.key, item.flag.value]));
  check(byKey.get('checkout')?.boolean === true, 'evaluateFlags: the context arrived intact (rule on a non-ASCII value matched)');
  check(JSON.stringify(byKey.get('theme')?.json) === JSON.stringify(nested), 'evaluateFlags: the nested JSON default arrived intact');
  const one = body(await pub.evaluateFlag({ path: { flagKey: 'theme' }, body: { default_values: declared } })).data;
  check(JSON.stringify(one.flag.value.json) === JSON.stringify(nested), 'evaluateFlag serves the declared default');

  const payload = body(await pub.getPayloadForContext({ body: { context: inCity, default_values: declared }, auth: () => clientKey })).data;
  check(
    payload.kind === 'client' && payload.flags.find((f) => f.key === 'checkout')?.value === true,
    'getPayloadForContext for a client key',
  );
});

console.log('hey-api flow: done');
