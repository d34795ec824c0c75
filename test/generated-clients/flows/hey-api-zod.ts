/**
 * The hey-api zod flow of the generated-clients suite (test/generated-clients/run.ts): the zod
 * schemas @hey-api/openapi-ts (`-p zod`) made of the served documents validate what a client
 * sends and parse what the server answers. Their name rule refuses a blank name and takes a
 * non-ASCII one, as the server does; the answers to a project, key and flag creation and to an
 * evaluation with a declared default parse, and the number comes back exactly.
 */
import * as mgmt from '../../../.generated-clients/hey-api-zod/management/zod.gen';
import * as pub from '../../../.generated-clients/hey-api-zod/public/zod.gen';
import { check, env, step } from './common';

const base = env('VEXIL_URL');
const ownerToken = env('VEXIL_OWNER_TOKEN');
const projectKey = 'hey-api-zod-flow';

async function send(method: string, url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}
const asOwner = { authorization: `Bearer ${ownerToken}` };

let serverKey = '';
await step('management requests and answers through the zod schemas', async () => {
  check(
    !mgmt.zProjectCreate.safeParse({ key: projectKey, name: ' \u2028\u3000' }).success,
    'zProjectCreate refuses a blank name (U+2028 and U+3000 are blank)',
  );
  check(!mgmt.zProjectCreate.safeParse({ key: projectKey, name: 'a\u0007' }).success, 'zProjectCreate refuses a control character');
  const project = mgmt.zProjectCreate.parse({ key: projectKey, name: 'Zürich\u2028flow' });
  mgmt.zCreateProjectResponse.parse(await send('POST', `${base}/management/v1/projects`, asOwner, project));
  const keyBody = mgmt.zEnvironmentKeyCreate.parse({ kind: 'server' });
  const created = mgmt.zCreateEnvironmentKeyResponse.parse(
    await send('POST', `${base}/management/v1/projects/${projectKey}/environments/production/keys`, asOwner, keyBody),
  );
  serverKey = created.data.key;
  const flag = mgmt.zFlagCreate.parse({ key: 'max-cart-items', name: 'Maximum cart items', type: 'number' });
  mgmt.zCreateFlagResponse.parse(await send('POST', `${base}/management/v1/projects/${projectKey}/flags`, asOwner, flag));
  check(serverKey.startsWith('srv_'), 'zCreateProjectResponse, zCreateEnvironmentKeyResponse and zCreateFlagResponse parse the answers');
});

await step('an evaluation through the zod schemas', async () => {
  const limit = 123456789.125;
  const request = pub.zEvaluationRequest.parse({ default_values: [{ key: 'max-cart-items', type: 'number', value: limit }] });
  const answer = pub.zEvaluateFlagResponse.parse(
    await send('POST', `${base}/v1/flags/max-cart-items/evaluate`, { 'x-vexil-api-key': serverKey }, request),
  );
  check(answer.data.flag.value.number === limit, 'zEvaluateFlagResponse parses the evaluation; the declared number comes back exactly');
});

console.log('hey-api zod flow: done');
