/**
 * The typescript-fetch flow of the generated-clients suite (test/generated-clients/run.ts): every
 * operation of both documents through the clients openapi-generator made of them, each answered
 * with a success. Management: a console session included. Public: the context and default values
 * in a body, and the context in its header (which this client sends as JSON); the event stream
 * opened, its first event read, and closed. The proxy in front of the server checks every
 * response (and every stream event) against the documents; run.ts fails unless this flow alone
 * called every operation.
 */
import * as mgmt from '../../../.generated-clients/typescript-fetch/management/index';
import * as pub from '../../../.generated-clients/typescript-fetch/public/index';
import { SseParser } from '../../../sdk/src/sse';
import { check, env, step } from './common';

const base = env('VEXIL_URL');
const ownerToken = env('VEXIL_OWNER_TOKEN');
const webhookUrl = env('VEXIL_WEBHOOK_URL');
const owner = new mgmt.Configuration({ basePath: `${base}/management/v1`, accessToken: ownerToken });
const project = 'ts-flow';
const production = 'production';
const staging = 'staging';

const projects = new mgmt.ProjectsApi(owner);
const environments = new mgmt.EnvironmentsApi(owner);
const keys = new mgmt.EnvironmentKeysApi(owner);
const flags = new mgmt.FlagsApi(owner);
const values = new mgmt.FlagValuesApi(owner);
const targets = new mgmt.TargetsApi(owner);
const rollouts = new mgmt.RolloutsApi(owner);
const rules = new mgmt.RulesApi(owner);
const segments = new mgmt.SegmentsApi(owner);
const evaluation = new mgmt.EvaluationApi(owner);
const insights = new mgmt.InsightsApi(owner);
const tokens = new mgmt.ManagementTokensApi(owner);
const accounts = new mgmt.AccountsApi(owner);
const webhooks = new mgmt.WebhooksApi(owner);
const flagsAsCode = new mgmt.FlagsAsCodeApi(owner);
const auditLogs = new mgmt.AuditLogsApi(owner);

const city = 'Zürich & Co "quoted"';
const nested = { palette: { primary: '#0055ff', levels: [1, 2.5, { deep: null }] }, label: 'Grüße', on: true };
const flagPath = (flagKey: string, environmentKey = production) => ({ projectKey: project, flagKey, environmentKey });

await step('documentation and projects', async () => {
  const document = await new mgmt.DocumentationApi(owner).getManagementApiDocs();
  check(typeof document === 'object' && document !== null, 'getManagementApiDocs answers the document');
  const created = await projects.createProject({ projectCreate: { key: project, name: 'TypeScript flow' } });
  check(created.data.key === project, 'createProject');
  await projects.createProject({ projectCreate: { key: 'ts-flow-scratch', name: 'Scratch', environments: [] } });
  check((await projects.getProject({ projectKey: project })).data.name === 'TypeScript flow', 'getProject');
  const renamed = await projects.updateProject({
    projectKey: project,
    projectUpdate: { name: 'TypeScript flow (renamed)', description: 'Through typescript-fetch' },
  });
  check(renamed.data.description === 'Through typescript-fetch', 'updateProject');
  const listed = await projects.listProjects({ perPage: 100 });
  check(
    listed.data.some((p) => p.key === project),
    'listProjects',
  );
  await projects.deleteProject({ projectKey: 'ts-flow-scratch' });
});

await step('environments and keys', async () => {
  const created = await environments.createEnvironment({ projectKey: project, environmentCreate: { key: staging, name: 'Staging' } });
  check(created.data.color === '#808080' && created.data.commentsRequired === false, 'createEnvironment applies the defaults it documents');
  await environments.createEnvironment({ projectKey: project, environmentCreate: { key: 'scratch', name: 'Scratch' } });
  check((await environments.getEnvironment({ projectKey: project, environmentKey: staging })).data.key === staging, 'getEnvironment');
  const updated = await environments.updateEnvironment({
    projectKey: project,
    environmentKey: staging,
    environmentUpdate: { name: 'Staging', color: '#00aa55', commentsRequired: false },
  });
  check(updated.data.color === '#00aa55', 'updateEnvironment');
  const listed = await environments.listEnvironments({ projectKey: project });
  check(listed.data.map((e) => e.key).join() === 'development,production,staging,scratch', 'listEnvironments');
  await environments.deleteEnvironment({ projectKey: project, environmentKey: 'scratch' });

  const spare = await keys.createEnvironmentKey({
    projectKey: project,
    environmentKey: production,
    environmentKeyCreate: { kind: 'mobile' },
  });
  check(spare.data.key.startsWith('mob_'), 'createEnvironmentKey shows the secret once');
  const list = await keys.listEnvironmentKeys({ projectKey: project, environmentKey: production });
  check(
    list.data.some((k) => k.ulid === spare.data.ulid),
    'listEnvironmentKeys',
  );
  await keys.revokeEnvironmentKey({ projectKey: project, environmentKey: production, keyUlid: spare.data.ulid });
});

const valueUlids = new Map<string, string>();
await step('flags and values', async () => {
  const checkout = await flags.createFlag({ projectKey: project, flagCreate: { key: 'checkout', name: 'New checkout', type: 'boolean' } });
  check(checkout.data.includeInMobile === true && checkout.data.permanent === false, 'createFlag with a minimal body');
  await flags.createFlag({ projectKey: project, flagCreate: { key: 'banner', name: 'Banner', type: 'string', description: null } });
  await flags.createFlag({ projectKey: project, flagCreate: { key: 'theme', name: 'Theme', type: 'json' } });
  check((await flags.getFlag({ projectKey: project, flagKey: 'checkout' })).data.type === 'boolean', 'getFlag');
  const updated = await flags.updateFlag({
    projectKey: project,
    flagKey: 'checkout',
    flagUpdate: { name: 'New checkout', permanent: true },
  });
  check(updated.data.permanent === true, 'updateFlag');
  const listed = await flags.listFlags({ projectKey: project, type: 'boolean' });
  check(listed.data.map((f) => f.key).join() === 'checkout', 'listFlags filtered by type');

  for (const value of (await values.listFlagValues({ projectKey: project, flagKey: 'checkout' })).data)
    valueUlids.set(`checkout:${value.display}`, value.ulid);
  check(valueUlids.has('checkout:true') && valueUlids.has('checkout:false'), 'listFlagValues');
  const welcome = await values.createFlagValueForFlag({ projectKey: project, flagKey: 'banner', flagValueWrite: { display: 'Welcome' } });
  check(welcome.data._default === true, 'createFlagValueForFlag: the first value is the default');
  const hello = await values.createFlagValue({ ...flagPath('banner'), flagValueWrite: { display: 'Hello' } });
  const renamed = await values.updateFlagValue({
    projectKey: project,
    flagKey: 'banner',
    valueUlid: hello.data.ulid,
    flagValueWrite: { display: 'Hello there' },
  });
  check(renamed.data.value === 'Hello there', 'updateFlagValue');
  const setDefault = await values.setDefaultFlagValueForFlag({ projectKey: project, flagKey: 'banner', valueUlid: hello.data.ulid });
  check(setDefault.data._default === true, 'setDefaultFlagValueForFlag');
  const back = await values.setDefaultFlagValue({ ...flagPath('banner'), valueUlid: welcome.data.ulid });
  check(back.data._default === true, 'setDefaultFlagValue (environment path)');
  const spare = await values.createFlagValueForFlag({ projectKey: project, flagKey: 'banner', flagValueWrite: { display: 'Unused' } });
  await values.deleteFlagValue({ projectKey: project, flagKey: 'banner', valueUlid: spare.data.ulid });
});

await step('targets, rules and rollouts', async () => {
  const draft = (await targets.createTarget(flagPath('checkout'))).data;
  check(draft.status === 'draft', 'createTarget');
  const updated = await targets.updateTarget({
    ...flagPath('checkout'),
    targetUlid: draft.ulid,
    targetUpdate: { valueUlid: valueUlids.get('checkout:false'), comment: 'base off' },
  });
  check(updated.data.valueUlid === valueUlids.get('checkout:false'), 'updateTarget');
  check((await targets.getTarget({ ...flagPath('checkout'), targetUlid: draft.ulid })).data.ulid === draft.ulid, 'getTarget');
  const criterion = { selector: 'attribute' as const, subSelector: 'city', comparer: 'in' as const, values: [city, 'Basel'] };
  const rule = await rules.createRule({
    ...flagPath('checkout'),
    targetUlid: draft.ulid,
    ruleWrite: { valueUlid: valueUlids.get('checkout:true')!, description: 'Two cities', criteria: [criterion] },
  });
  const second = await rules.createRule({
    ...flagPath('checkout'),
    targetUlid: draft.ulid,
    ruleWrite: {
      valueUlid: valueUlids.get('checkout:true')!,
      description: 'Staff',
      criteria: [{ selector: 'context', comparer: 'in', values: ['staff-1'] }],
    },
  });
  const rewritten = await rules.updateRule({
    ...flagPath('checkout'),
    targetUlid: draft.ulid,
    ruleUlid: second.data.ulid,
    ruleWrite: {
      valueUlid: valueUlids.get('checkout:true')!,
      description: 'Staff and friends',
      criteria: [{ selector: 'context', comparer: 'in', values: ['staff-1', 'friend-2'] }],
    },
  });
  check(rewritten.data.criteria.data[0]!.values.data.length === 2, 'updateRule');
  const reordered = await rules.reorderRules({
    ...flagPath('checkout'),
    targetUlid: draft.ulid,
    rulesOrder: {
      rules: [
        { ulid: second.data.ulid, order: 0 },
        { ulid: rule.data.ulid, order: 1 },
      ],
    },
  });
  check(reordered.data[0]!.ulid === second.data.ulid, 'reorderRules');
  await rules.deleteRule({ ...flagPath('checkout'), targetUlid: draft.ulid, ruleUlid: second.data.ulid });
  const listed = await rules.listRules({ ...flagPath('checkout'), targetUlid: draft.ulid });
  check(
    listed.data.length === 1 && listed.data[0]!.criteria.data[0]!.values.data[0]!.value === city,
    'listRules: the criterion value arrived intact',
  );
  // Prerequisites: set on the draft, read back, and cleared again, so the rest of the flow serves as before.
  const bannerDefault = (await values.listFlagValues({ projectKey: project, flagKey: 'banner' })).data.find((v) => v._default)!;
  const required = await rules.replaceTargetPrerequisites({
    ...flagPath('checkout'),
    targetUlid: draft.ulid,
    prerequisitesWrite: { prerequisites: [{ flagKey: 'banner', valueUlids: [bannerDefault.ulid] }] },
  });
  check(required.data[0]!.flagKey === 'banner', 'replaceTargetPrerequisites');
  const prerequisites = await rules.listTargetPrerequisites({ ...flagPath('checkout'), targetUlid: draft.ulid });
  check(prerequisites.data[0]!.valueUlids[0] === bannerDefault.ulid, 'listTargetPrerequisites');
  await rules.replaceTargetPrerequisites({ ...flagPath('checkout'), targetUlid: draft.ulid, prerequisitesWrite: { prerequisites: [] } });
  const published = await targets.publishTarget({
    ...flagPath('checkout'),
    targetUlid: draft.ulid,
    targetPublish: { comment: 'typescript-fetch flow' },
  });
  check(published.data.status === 'published', 'publishTarget');

  // A rollout configured on a draft, published, moved and completed.
  const next = (await targets.createTarget(flagPath('checkout'))).data;
  await targets.updateTarget({
    ...flagPath('checkout'),
    targetUlid: next.ulid,
    targetUpdate: { valueUlid: valueUlids.get('checkout:true') },
  });
  const rollout = await rollouts.createRollout({
    ...flagPath('checkout'),
    targetUlid: next.ulid,
    rolloutCreate: { rolloutMode: 'manual', rolloutPercentage: 10 },
  });
  check(rollout.data.rolloutStatus === 'active', 'createRollout');
  await targets.publishTarget({ ...flagPath('checkout'), targetUlid: next.ulid, targetPublish: {} });
  const moved = await rollouts.updateRollout({ ...flagPath('checkout'), targetUlid: next.ulid, rolloutUpdate: { rolloutPercentage: 50 } });
  check(moved.data.rolloutPercentage === 50, 'updateRollout');
  const completed = await rollouts.completeRollout({ ...flagPath('checkout'), targetUlid: next.ulid });
  check(completed.data.rolloutStatus === 'completed', 'completeRollout');

  // A rollout removed from a draft, and the draft discarded.
  const other = (await targets.createTarget(flagPath('checkout'))).data;
  await rollouts.createRollout({ ...flagPath('checkout'), targetUlid: other.ulid, rolloutCreate: { rolloutMode: 'automatic' } });
  const removed = await rollouts.deleteRollout({ ...flagPath('checkout'), targetUlid: other.ulid });
  check(removed.data.rolloutMode === null, 'deleteRollout');
  await targets.deleteTarget({ ...flagPath('checkout'), targetUlid: other.ulid });
  const all = await targets.listTargets(flagPath('checkout'));
  check(all.data.length === 2 && all.data.every((t) => t.ulid !== other.ulid), 'listTargets');
});

await step('evaluation, context and default values', async () => {
  const plain = await evaluation.evaluateFlag(flagPath('checkout'));
  check(plain.data.value === true && plain.data.resolvedBy === 'target', 'evaluateFlag without a context');
  const inCity = { type: 'user', identifier: 'u-1', attributes: [{ key: 'city', values: [{ value: city }] }] };
  const preview = await evaluation.evaluateFlagForContext({ ...flagPath('checkout'), managementEvaluationRequest: { context: inCity } });
  check(preview.data.resolvedBy === 'rule', 'evaluateFlagForContext: the context arrived intact (rule matched)');

  const serverKey = (
    await keys.createEnvironmentKey({ projectKey: project, environmentKey: production, environmentKeyCreate: { kind: 'server' } })
  ).data.key;
  const publicConfig = new pub.Configuration({ basePath: base, apiKey: serverKey });
  const publicEvaluation = new pub.EvaluationApi(publicConfig);
  const declared: pub.DefaultValueDeclaration[] = [
    { key: 'theme', type: 'json', value: nested },
    { key: 'checkout', type: 'boolean', value: false },
  ];
  const all = await publicEvaluation.evaluateFlags({ evaluationRequest: { context: inCity, defaultValues: declared } });
  const byKey = new Map(all.data.map((item) => [item.flag.key, item.flag.value]));
  check(byKey.get('checkout')?._boolean === true, 'public evaluateFlags: the context arrived intact');
  check(
    JSON.stringify(byKey.get('theme')?.json) === JSON.stringify(nested),
    'public evaluateFlags: the nested JSON default arrived intact',
  );
  // This client sends a context header as JSON text (not the default-value header: it joins arrays
  // with commas), in Latin-1, so only ASCII survives: non-ASCII text goes in the body.
  const basel = { type: 'user', identifier: 'u-2', attributes: [{ key: 'city', values: [{ value: 'Basel' }] }] };
  const header = await publicEvaluation.getEvaluatedFlag({ flagKey: 'checkout', xVEXILCONTEXT: basel });
  check(header.data.flag.value._boolean === true, 'public getEvaluatedFlag: the context header arrived intact');
});

await step('every public operation', async () => {
  // A flag whose rule serves another value than its target, so each check below tells that the
  // context arrived (checkout serves true either way); deleted at the end of this step.
  await flags.createFlag({ projectKey: project, flagCreate: { key: 'greeting', name: 'Greeting', type: 'string' } });
  const hello = (await values.createFlagValueForFlag({ projectKey: project, flagKey: 'greeting', flagValueWrite: { display: 'Hello' } }))
    .data.ulid;
  const gruezi = (await values.createFlagValueForFlag({ projectKey: project, flagKey: 'greeting', flagValueWrite: { display: 'Grüezi' } }))
    .data.ulid;
  const draft = (await targets.createTarget(flagPath('greeting'))).data.ulid;
  await targets.updateTarget({ ...flagPath('greeting'), targetUlid: draft, targetUpdate: { valueUlid: hello } });
  const criterion = { selector: 'attribute' as const, subSelector: 'city', comparer: 'in' as const, values: [city, 'Basel'] };
  await rules.createRule({
    ...flagPath('greeting'),
    targetUlid: draft,
    ruleWrite: { valueUlid: gruezi, description: 'Swiss cities', criteria: [criterion] },
  });
  await targets.publishTarget({ ...flagPath('greeting'), targetUlid: draft, targetPublish: {} });

  const serverKey = (
    await keys.createEnvironmentKey({ projectKey: project, environmentKey: production, environmentKeyCreate: { kind: 'server' } })
  ).data.key;
  const clientKey = (
    await keys.createEnvironmentKey({ projectKey: project, environmentKey: production, environmentKeyCreate: { kind: 'client' } })
  ).data.key;
  const server = new pub.Configuration({ basePath: base, apiKey: serverKey });
  const client = new pub.Configuration({ basePath: base, apiKey: clientKey });

  const operations = new pub.OperationsApi(server);
  check((await operations.getHealth()).status === 'ok', 'getHealth');
  check((await operations.getReadiness()).status === 'ready', 'getReadiness');
  check((await operations.getMetrics()).includes('vexil_'), 'getMetrics answers the Prometheus text');
  const document = await new pub.DocumentationApi(server).getPublicApiDocs();
  check(document.openapi.startsWith('3.0') && '/v1/stream' in document.paths, 'getPublicApiDocs answers the document');

  const evaluation = new pub.EvaluationApi(server);
  const inCity = { type: 'user', identifier: 'u-1', attributes: [{ key: 'city', values: [{ value: city }] }] };
  // Header values go out as Latin-1 with this client: only ASCII in the context header.
  const basel = { type: 'user', identifier: 'u-2', attributes: [{ key: 'city', values: [{ value: 'Basel' }] }] };
  const declared: pub.DefaultValueDeclaration[] = [{ key: 'theme', type: 'json', value: nested }];
  const listed = await evaluation.listEvaluatedFlags({ xVEXILCONTEXT: basel });
  check(
    listed.data.map((item) => item.flag.key).join() === 'banner,checkout,greeting',
    'listEvaluatedFlags leaves out the unavailable flag',
  );
  check(listed.data[2]!.flag.value.string === 'Grüezi', 'listEvaluatedFlags: the context header arrived intact (rule matched)');
  const greeting = await evaluation.evaluateFlag({ flagKey: 'greeting', evaluationRequest: { context: inCity } });
  check(greeting.data.flag.value.string === 'Grüezi', 'evaluateFlag: the context arrived intact (rule on a non-ASCII value matched)');
  const theme = await evaluation.evaluateFlag({ flagKey: 'theme', evaluationRequest: { defaultValues: declared } });
  check(JSON.stringify(theme.data.flag.value.json) === JSON.stringify(nested), 'evaluateFlag serves the declared nested JSON default');
  const usage = await new pub.UsageApi(client).recordFlagUsage({ flagKey: 'greeting', usageReport: { count: 2, context: inCity } });
  check(usage.status === 'success', 'recordFlagUsage');

  const serverSdk = new pub.SDKApi(server);
  const clientSdk = new pub.SDKApi(client);
  const compiled = (await serverSdk.getPayload()).data;
  check(
    compiled.kind === 'server' && compiled.config.flags.map((f) => f.key).join() === 'banner,checkout,greeting,theme',
    'getPayload (server key): the compiled configuration',
  );
  const evaluated = (await clientSdk.getPayload({ xVEXILCONTEXT: basel })).data;
  const byHeader = evaluated.kind === 'client' ? evaluated.flags.find((f) => f.key === 'greeting') : undefined;
  check(byHeader?.value === 'Grüezi' && byHeader.resolvedBy === 'rule', 'getPayload (client key): the context header arrived intact');
  const inputs = { context: inCity, defaultValues: declared };
  const forContext = (await clientSdk.getPayloadForContext({ evaluationRequest: inputs })).data;
  const served = forContext.kind === 'client' ? Object.fromEntries(forContext.flags.map((f) => [f.key, f.value])) : {};
  check(
    JSON.stringify(served) === JSON.stringify({ banner: 'Welcome', checkout: true, greeting: 'Grüezi', theme: nested }),
    'getPayloadForContext: context and defaults evaluated for the client key',
  );
  const unchanged = await statusOf(clientSdk.getPayloadForContext({ ifNoneMatch: forContext.etag, evaluationRequest: inputs }));
  check(unchanged === 304, 'getPayloadForContext answers 304 for the same inputs and ETag');

  // The stream: opened through the client, its first event read, then closed (it never ends by itself).
  const stream = await serverSdk.streamPayloadChangesRaw({});
  check(stream.raw.headers.get('content-type')?.startsWith('text/event-stream'), 'streamPayloadChanges opens an event stream');
  const first = pub.PayloadStreamEventFromJSON(await firstEvent(stream.raw));
  check(
    pub.instanceOfPayloadStreamEvent(first) && (JSON.parse(first.data) as { etag: string }).etag === compiled.etag,
    'streamPayloadChanges announces the payload ETag first',
  );

  const ofrep = new pub.OFREPApi(server);
  const ofrepContext = { context: { targetingKey: 'u-1', city } };
  const single = await ofrep.ofrepEvaluateFlag({ key: 'greeting', ofrepEvaluationRequest: ofrepContext });
  check(single.value === 'Grüezi' && single.reason === 'TARGETING_MATCH', 'ofrepEvaluateFlag: the context arrived intact');
  const bulk = await ofrep.ofrepEvaluateFlagsRaw({ ofrepEvaluationRequest: ofrepContext });
  check((await bulk.value()).flags.map((f) => f.key).join() === 'banner,checkout,greeting', 'ofrepEvaluateFlags');
  const notModified = await statusOf(
    ofrep.ofrepEvaluateFlags({ ifNoneMatch: bulk.raw.headers.get('etag') ?? '', ofrepEvaluationRequest: ofrepContext }),
  );
  check(notModified === 304, 'ofrepEvaluateFlags answers 304 for the same context and ETag');

  await flags.deleteFlag({ projectKey: project, flagKey: 'greeting' });
});

await step('segments', async () => {
  const created = await segments.createSegment({ projectKey: project, segmentCreate: { key: 'beta', name: 'Beta' } });
  check(created.data.included.length === 0, 'createSegment with a minimal body');
  check((await segments.getSegment({ projectKey: project, segmentKey: 'beta' })).data.key === 'beta', 'getSegment');
  const updated = await segments.updateSegment({
    projectKey: project,
    segmentKey: 'beta',
    segmentUpdate: { name: 'Beta', included: new Set(['u-7']) },
  });
  check(updated.data.included.join() === 'u-7', 'updateSegment');
  check((await segments.listSegments({ projectKey: project })).data.length === 1, 'listSegments');
  await segments.deleteSegment({ projectKey: project, segmentKey: 'beta' });
});

await step('insights', async () => {
  const flag = await insights.getFlagInsights(flagPath('checkout'));
  check(flag.data.flagKey === 'checkout', 'getFlagInsights');
  check(Array.isArray((await insights.listSplitExposures({ ...flagPath('checkout'), days: 7 })).data), 'listSplitExposures');
  check(
    Array.isArray((await insights.listFlagEvaluationHours({ ...flagPath('checkout'), hours: 24 })).data.buckets),
    'listFlagEvaluationHours',
  );
  const overview = await flags.getFlagEnvironmentOverview({ ...flagPath('checkout'), hours: 24, days: 7 });
  check(overview.data.flagKey === 'checkout' && overview.data.evaluations.hours === 24, 'getFlagEnvironmentOverview');
  await insights.listStaleFlags({ projectKey: project, environmentKey: production, days: 30 });
  await insights.listDefaultValueReports({ projectKey: project, environmentKey: production });
  await insights.listContextAttributes({ projectKey: project, environmentKey: production });
});

await step('management tokens, accounts and a console session', async () => {
  const token = await tokens.createManagementToken({ managementTokenCreate: { name: 'ci', scopes: new Set(['flags:read' as const]) } });
  check(token.data.token.startsWith('mgt_') && token.data.tier === 'standard', 'createManagementToken with a minimal body');
  check(
    (await tokens.listManagementTokens({})).data.some((t) => t.ulid === token.data.ulid),
    'listManagementTokens',
  );
  await tokens.revokeManagementToken({ tokenUlid: token.data.ulid });

  const email = `member-${Date.now()}@example.com`;
  const account = await accounts.createAccount({ accountCreate: { name: 'Member', email, role: 'member', projects: new Set([project]) } });
  check(
    (await accounts.listAccounts({})).data.some((a) => a.ulid === account.data.ulid),
    'listAccounts',
  );
  const renamed = await accounts.updateAccount({
    accountUlid: account.data.ulid,
    accountUpdate: { name: 'Member (renamed)', role: 'member', projects: new Set([project]) },
  });
  check(renamed.data.name === 'Member (renamed)', 'updateAccount');
  const pat = await accounts.createPersonalAccessToken({ accountUlid: account.data.ulid, personalAccessTokenCreate: { name: 'laptop' } });
  check(pat.data.token.startsWith('pat_'), 'createPersonalAccessToken');
  await accounts.revokePersonalAccessToken({ accountUlid: account.data.ulid, tokenUlid: pat.data.ulid });
  const password = 'first password 123';
  await accounts.setAccountPassword({ accountUlid: account.data.ulid, passwordSet: { password } });

  // A console session: the cookie from createSession, its CSRF token on every change.
  const anonymous = new mgmt.ConsoleSessionApi(new mgmt.Configuration({ basePath: `${base}/management/v1` }));
  const signIn = await anonymous.createSessionRaw({ signIn: { email, password } });
  const cookie = (signIn.raw.headers.get('set-cookie') ?? '').split(';')[0]!;
  const session = (await signIn.value()).data;
  check(cookie.startsWith('vexil_session=') && session.account.email === email, 'createSession sets the session cookie');
  const signedIn = new mgmt.ConsoleSessionApi(
    new mgmt.Configuration({ basePath: `${base}/management/v1`, headers: { Cookie: cookie, 'X-CSRF-Token': session.csrfToken } }),
  );
  check((await signedIn.getSession()).data.ulid === session.ulid, 'getSession');
  await signedIn.changeOwnPassword({ passwordChange: { currentPassword: password, newPassword: 'second password 456' } });
  const again = await anonymous.createSessionRaw({ signIn: { email, password: 'second password 456' } });
  const cookie2 = (again.raw.headers.get('set-cookie') ?? '').split(';')[0]!;
  const session2 = (await again.value()).data;
  const second = new mgmt.ConsoleSessionApi(
    new mgmt.Configuration({ basePath: `${base}/management/v1`, headers: { Cookie: cookie2, 'X-CSRF-Token': session2.csrfToken } }),
  );
  await second.deleteSession();
  await accounts.deleteAccount({ accountUlid: account.data.ulid });
});

await step('webhooks', async () => {
  const created = await webhooks.createWebhook({
    projectKey: project,
    webhookWrite: { url: webhookUrl, events: new Set(['target.published' as const]) },
  });
  check(created.data.secret.startsWith('whsec_'), 'createWebhook shows the signing secret once');
  const hook = created.data.ulid;
  check((await webhooks.getWebhook({ projectKey: project, webhookUlid: hook })).data.url === webhookUrl, 'getWebhook');
  const updated = await webhooks.updateWebhook({
    projectKey: project,
    webhookUlid: hook,
    webhookWrite: { url: webhookUrl, events: new Set(['*' as const]), description: 'all' },
  });
  check(updated.data.description === 'all', 'updateWebhook');
  check((await webhooks.listWebhooks({ projectKey: project })).data.length === 1, 'listWebhooks');
  const ping = await webhooks.pingWebhook({ projectKey: project, webhookUlid: hook });
  const deliveries = await webhooks.listWebhookDeliveries({ projectKey: project, webhookUlid: hook });
  check(
    deliveries.data.some((d) => d.ulid === ping.data.ulid),
    'listWebhookDeliveries',
  );
  const again = await webhooks.redeliverWebhookDelivery({ projectKey: project, webhookUlid: hook, deliveryUlid: ping.data.ulid });
  check(again.data.ulid !== ping.data.ulid, 'redeliverWebhookDelivery queues a new delivery');
  const rotated = await webhooks.rotateWebhookSecret({
    projectKey: project,
    webhookUlid: hook,
    webhookSecretRotationRequest: { gracePeriodSeconds: 60 },
  });
  check(
    rotated.data.secret.startsWith('whsec_') && rotated.data.secret !== created.data.secret,
    'rotateWebhookSecret shows a new signing secret',
  );
  await webhooks.deleteWebhook({ projectKey: project, webhookUlid: hook });
});

await step('flags as code', async () => {
  const exported = await flagsAsCode.exportProjectConfiguration({ projectKey: project });
  check(exported.project.key === project && exported.flags.length === 3, 'exportProjectConfiguration');
  const plan = await flagsAsCode.planProjectConfiguration({ projectKey: project, projectConfiguration: exported });
  check(plan.data.changes.length === 0, 'planProjectConfiguration: the exported file changes nothing');
  const applied = await flagsAsCode.applyProjectConfiguration({ projectKey: project, projectConfiguration: exported });
  check(applied.data.changes.length === 0, 'applyProjectConfiguration');
  const promoted = await flagsAsCode.promoteConfiguration({
    projectKey: project,
    promoteRequest: { from: production, to: staging, publish: true },
  });
  check(promoted.data.promoted.length === 1, 'promoteConfiguration');
  const served = await targets.serveFlagValue({ ...flagPath('banner', staging), serveRequest: { value: 'Hello there' } });
  check(served.data.status === 'published', 'serveFlagValue');
  const off = await targets.switchFlag({ ...flagPath('banner', staging), switchRequest: { on: false } });
  check(off.data.on === false && off.data.environmentKey === staging, 'switchFlag');
  const restored = await targets.restoreTarget({
    ...flagPath('banner', staging),
    targetUlid: served.data.ulid,
    restoreRequest: { comment: 'served again' },
  });
  check(restored.data.status === 'published' && restored.data.comment === 'served again', 'restoreTarget');
});

await step('deletions and audit logs', async () => {
  const bulk = await flags.bulkDeleteFlags({ projectKey: project, bulkDeleteRequest: { flagKeys: new Set(['theme', 'nope']) } });
  check(bulk.data.deleted.join() === 'theme' && bulk.data.notFound.join() === 'nope', 'bulkDeleteFlags');
  await flags.deleteFlag({ projectKey: project, flagKey: 'banner' });
  const audit = await auditLogs.listAuditLogs({ action: 'flag.bulk_deleted', perPage: 10 });
  check(audit.data.length === 1 && audit.data[0]!.subjectLabel !== undefined, 'listAuditLogs filtered by action');
  const publicAudit = await auditLogs.listPublicAuditLogs({ perPage: 5 });
  check(Array.isArray(publicAudit.data), 'listPublicAuditLogs');
});

/** The status of a call this client answers with an error (it throws for anything outside 2xx, 304 included). */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    if (error instanceof pub.ResponseError) return error.response.status;
    throw error;
  }
}

/** The first event of a Server-Sent Events response, as a parser reads it; the response is closed then. */
async function firstEvent(response: Response): Promise<{ event: string; data: string }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error('the stream ended before its first event');
      const [event] = parser.feed(decoder.decode(value, { stream: true }));
      if (event) return { event: event.event, data: event.data };
    }
  } finally {
    await reader.cancel();
  }
}

console.log('typescript-fetch flow: done');
