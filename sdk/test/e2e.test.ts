/**
 * The SDK against a real Vexil server (startTestApp), configured through the management API:
 * a publish reaches the SDK through the stream within 1 second; a stopped server leaves the last
 * payload served; a start with the server down serves defaults; a restart recovers.
 *
 * The SDK talks to a TCP proxy on a fixed port so the server can be stopped and started again
 * (a fresh app on the same database) without the SDK's base URL changing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OpenFeature, ProviderEvents, ProviderStatus } from '@openfeature/server-sdk';
import { describeEachDatabase, type TestDatabase } from '../../test/support/databases.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { VexilServerClient } from '../src/server-client.js';
import { VexilClientSideClient } from '../src/client-side-client.js';
import { VexilServerProvider } from '../src/openfeature/server.js';
import type { ChangeEvent } from '../src/types.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { sleep, waitFor } from './support/fake-vexil.js';

const gold = { type: 'user', identifier: 'user-1', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] };
const basic = { type: 'user', identifier: 'user-2', attributes: [{ key: 'plan', values: [{ value: 'basic' }] }] };

async function ok<T = any>(app: TestApp, method: string, path: string, body?: unknown): Promise<T> {
  const res = await app.mgmt<{ data: T }>(method, path, body);
  if (res.status !== 200) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

interface Setup {
  project: string;
  serverKey: string;
  clientKey: string;
  values: Record<string, string>;
}

const ENV = 'production';
const FLAG = 'new-checkout';

function flagPath(s: Setup, flag = FLAG): string {
  return `/projects/${s.project}/flags/${flag}/environments/${ENV}`;
}

/** A project, keys, a boolean flag published with a rule (gold -> true, base false), a string flag with only a default. */
async function setUp(app: TestApp): Promise<Setup> {
  const project = `sdk-${Date.now().toString(36)}`;
  await ok(app, 'POST', '/projects', { key: project, name: 'SDK end to end' });
  const serverKey = (await ok(app, 'POST', `/projects/${project}/environments/${ENV}/keys`, { kind: 'server', name: 'sdk server' }))
    .key as string;
  const clientKey = (await ok(app, 'POST', `/projects/${project}/environments/${ENV}/keys`, { kind: 'client', name: 'sdk browser' }))
    .key as string;
  await ok(app, 'POST', `/projects/${project}/flags`, { key: FLAG, name: 'New checkout', type: 'boolean' });
  const list = await ok<{ ulid: string; display: string }[]>(app, 'GET', `/projects/${project}/flags/${FLAG}/values`);
  const values = Object.fromEntries(list.map((v) => [v.display, v.ulid]));
  await ok(app, 'POST', `/projects/${project}/flags`, { key: 'banner', name: 'Banner', type: 'string' });
  await ok(app, 'POST', `/projects/${project}/flags/banner/values`, { display: 'Welcome' });
  const s = { project, serverKey, clientKey, values };
  const target = await ok(app, 'POST', `${flagPath(s)}/targets`);
  await ok(app, 'PUT', `${flagPath(s)}/targets/${target.ulid}`, { value_ulid: values['false'] });
  await ok(app, 'POST', `${flagPath(s)}/targets/${target.ulid}/rules`, {
    value_ulid: values['true'],
    description: 'gold plan',
    criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['gold'] }],
  });
  await ok(app, 'PUT', `${flagPath(s)}/targets/${target.ulid}/publish`, { comment: 'first publish' });
  return s;
}

/** Publishes a new target of new-checkout (rules copied) whose base value is `value`; resolves when the publish answered. */
async function publishBase(app: TestApp, s: Setup, value: 'true' | 'false'): Promise<void> {
  const draft = await ok(app, 'POST', `${flagPath(s)}/targets`);
  await ok(app, 'PUT', `${flagPath(s)}/targets/${draft.ulid}`, { value_ulid: s.values[value] });
  await ok(app, 'PUT', `${flagPath(s)}/targets/${draft.ulid}/publish`, { comment: `base ${value}` });
}

describeEachDatabase('SDK end to end against the real server', (db: TestDatabase) => {
  let database: { url: string; drop(): Promise<void> };
  let app: TestApp | undefined;
  let proxy: TcpProxy;
  let s: Setup;
  const closers: (() => Promise<void>)[] = [];

  async function startApp(): Promise<TestApp> {
    const started = await startTestApp(db, { databaseUrl: database.url });
    proxy.target = Number(new URL(started.baseUrl).port);
    return started;
  }

  async function stopApp(): Promise<void> {
    proxy.target = undefined;
    await app?.close();
    app = undefined;
    proxy.dropConnections();
  }

  function serverClient(): VexilServerClient {
    const c = new VexilServerClient({
      baseUrl: proxy.baseUrl,
      apiKey: s.serverKey,
      logger: null,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      usage: { intervalMs: 200 },
    });
    closers.push(() => c.close());
    return c;
  }

  beforeAll(async () => {
    database = await db.create();
    proxy = await new TcpProxy().start();
    app = await startApp();
    s = await setUp(app);
  });

  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await stopApp();
    await proxy.stop();
    await database.drop();
  });

  it('serves what the management API published, evaluated locally', async () => {
    const c = serverClient();
    expect(await c.ready(5000)).toBe(true);
    expect(c.status).toBe('ready');
    // the server's snapshot may trail the setup's last publish by its revision poll: the stream brings it
    await waitFor(() => c.boolean(FLAG, gold, false), 1000, 'the published target');
    expect(c.booleanDetails(FLAG, gold, false)).toMatchObject({ value: true, resolvedBy: 'rule', reason: 'TARGETING_MATCH' });
    expect(c.booleanDetails(FLAG, basic, true)).toMatchObject({ value: false, resolvedBy: 'target', reason: 'STATIC' });
    expect(c.stringDetails('banner', gold, 'x')).toMatchObject({ value: 'Welcome', resolvedBy: 'default', reason: 'DEFAULT' });
    expect(c.booleanDetails('missing', gold, true)).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
    // usage reports are accepted by the server
    await c.flushUsage();
    expect(c.usageStats).toMatchObject({ dropped: 0, failedRequests: 0 });
    expect(c.usageStats!.sent).toBeGreaterThanOrEqual(3);
  });

  it('a publish through the management API is served within 1 second, through the stream', async () => {
    const c = serverClient();
    const changes: ChangeEvent[] = [];
    c.on('change', (e) => changes.push(e));
    await c.ready(5000);
    await sleep(300); // the stream is open
    const polledBefore = c.revision;
    expect(c.boolean(FLAG, basic, true)).toBe(false);
    await publishBase(app!, s, 'true');
    const published = Date.now();
    await waitFor(() => c.boolean(FLAG, basic, false) === true, 1000, 'the new value within 1 s');
    expect(Date.now() - published).toBeLessThan(1000);
    expect(c.revision).toBeGreaterThan(polledBefore!);
    expect(changes.at(-1)!.keys).toContain(FLAG);
    // the rule came along with the new target
    expect(c.booleanDetails(FLAG, gold, false)).toMatchObject({ value: true, resolvedBy: 'rule' });
    await publishBase(app!, s, 'false');
    await waitFor(() => c.boolean(FLAG, basic, true) === false, 1000, 'back to false within 1 s');
  });

  it('the client-side client follows the stream for its context and switches context', async () => {
    const c = new VexilClientSideClient({ baseUrl: proxy.baseUrl, apiKey: s.clientKey, context: basic, logger: null, usage: false });
    closers.push(() => c.close());
    expect(await c.ready(5000)).toBe(true);
    expect(c.booleanDetails(FLAG, true)).toMatchObject({ value: false, resolvedBy: 'target' });
    expect(await c.setContext(gold)).toBe(true);
    expect(c.booleanDetails(FLAG, false)).toMatchObject({ value: true, resolvedBy: 'rule', reason: 'TARGETING_MATCH' });
    await c.setContext(basic);
    await sleep(300);
    await publishBase(app!, s, 'true');
    await waitFor(() => c.boolean(FLAG, false) === true, 1000, 'client-side value within 1 s');
    await publishBase(app!, s, 'false');
    await waitFor(() => c.boolean(FLAG, true) === false, 1000, 'client-side value back');
  });

  it('the OpenFeature server provider resolves and announces configuration changes', async () => {
    const provider = new VexilServerProvider({ baseUrl: proxy.baseUrl, apiKey: s.serverKey, logger: null, usage: false });
    await OpenFeature.setProviderAndWait('e2e', provider);
    closers.push(() => OpenFeature.clearProviders());
    const client = OpenFeature.getClient('e2e');
    const details = await client.getBooleanDetails(FLAG, false, { targetingKey: 'user-1', plan: 'gold' });
    expect(details).toMatchObject({ value: true, reason: 'TARGETING_MATCH', variant: 'true' });
    expect(details.flagMetadata).toMatchObject({ resolved_by: 'rule', type: 'boolean' });
    const changed = new Promise<string[] | undefined>((resolve) =>
      client.addHandler(ProviderEvents.ConfigurationChanged, (d) => resolve(d?.flagsChanged)),
    );
    await sleep(300);
    await publishBase(app!, s, 'true');
    expect(await changed).toEqual([FLAG]);
    expect(await client.getBooleanValue(FLAG, false, { targetingKey: 'user-2', plan: 'basic' })).toBe(true);
    await publishBase(app!, s, 'false');
    await waitFor(() => provider.client.boolean(FLAG, basic, true) === false, 1000, 'provider back to false');
    expect(client.providerStatus).toBe(ProviderStatus.READY);
  });

  it('keeps the last payload while the server is stopped, and recovers when it restarts', async () => {
    const c = serverClient();
    const events: string[] = [];
    c.on('stale', () => events.push('stale'));
    c.on('ready', () => events.push('ready'));
    expect(await c.ready(5000)).toBe(true);
    await sleep(300);
    expect(c.boolean(FLAG, basic, true)).toBe(false);

    await stopApp();
    await waitFor(() => c.status === 'stale', 3000, 'stale after the stop');
    expect(events).toEqual(['ready', 'stale']);
    expect(c.booleanDetails(FLAG, gold, false)).toMatchObject({ value: true, resolvedBy: 'rule' });
    expect(c.booleanDetails(FLAG, basic, true)).toMatchObject({ value: false, resolvedBy: 'target' });
    await sleep(500);
    expect(c.boolean(FLAG, basic, true)).toBe(false);

    app = await startApp();
    await waitFor(() => c.status === 'ready', 5000, 'ready after the restart');
    expect(events).toEqual(['ready', 'stale', 'ready']);
    await sleep(300);
    await publishBase(app, s, 'true');
    await waitFor(() => c.boolean(FLAG, basic, false) === true, 1000, 'stream works after the restart');
    await publishBase(app, s, 'false');
  });

  it('started while the server is down: defaults and not ready; serves the payload once it is up', async () => {
    await stopApp();
    const c = serverClient();
    expect(await c.ready(3000)).toBe(false);
    expect(c.status).toBe('not_ready');
    expect(c.booleanDetails(FLAG, gold, false)).toMatchObject({ value: false, errorCode: 'PROVIDER_NOT_READY' });
    expect(c.string('banner', gold, 'built-in')).toBe('built-in');

    const provider = new VexilServerProvider(c);
    // The provider starts degraded rather than rejecting (the README's example is safe to copy).
    await OpenFeature.setProviderAndWait('down', provider);
    const ofClient = OpenFeature.getClient('down');
    await waitFor(() => ofClient.providerStatus === ProviderStatus.ERROR, 2000, 'provider ERROR');
    expect(await ofClient.getBooleanDetails(FLAG, false, { targetingKey: 'user-1', plan: 'gold' })).toMatchObject({
      value: false,
      reason: 'ERROR',
      errorCode: 'PROVIDER_NOT_READY',
    });

    app = await startApp();
    await waitFor(() => c.status === 'ready', 5000, 'ready once the server is up');
    expect(c.booleanDetails(FLAG, gold, false)).toMatchObject({ value: true, resolvedBy: 'rule' });
    await waitFor(() => ofClient.providerStatus === ProviderStatus.READY, 2000, 'provider READY');
    expect(await ofClient.getBooleanValue(FLAG, false, { targetingKey: 'user-1', plan: 'gold' })).toBe(true);
  });
});
