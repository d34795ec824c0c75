/**
 * Drives OFREP with the real OpenFeature provider from npm (@openfeature/ofrep-provider) through
 * the OpenFeature server SDK (@openfeature/server-sdk), both development dependencies: imported
 * outright, so a missing package fails the suite rather than skipping it.
 */
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature, type Client } from '@openfeature/server-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, type EnvironmentFixture, type ProjectFixture } from './public-fixtures.js';

describeEachDatabase('OFREP with the real OpenFeature provider', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let client: Client;
  let mobileClient: Client;
  const domain = `vexil-${db.name}`;

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    project = await fx.project();
    env = await fx.environment(project);
    const mobileKey = await fx.key(env, 'mobile');
    const checkout = await fx.flag(project, { key: 'checkout', type: 'boolean' });
    const banner = await fx.flag(project, { key: 'banner', type: 'string', values: ['Welcome', 'Hi pro'], include_in_mobile: false });
    const limit = await fx.flag(project, { key: 'limit', type: 'number', values: ['20', '50'] });
    const theme = await fx.flag(project, { key: 'theme', type: 'json', values: ['{"dense":false,"primary":"#0055ff"}'] });
    const split = await fx.flag(project, { key: 'split', type: 'string', values: ['old', 'new'] });
    await fx.publish(env, checkout, {
      value: 'false',
      rules: [{ value: 'true', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
    });
    await fx.publish(env, banner, {
      value: 'Welcome',
      rules: [{ value: 'Hi pro', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: ['pro'] }] }],
    });
    await fx.publish(env, limit, { value: '50' });
    await fx.publish(env, theme, { value: '{"dense":false,"primary":"#0055ff"}' });
    await fx.publish(env, split, { value: 'old' });
    await fx.publish(env, split, { value: 'new', rollout: { percentage: 100 } });
    await fx.settle(env);

    await OpenFeature.setProviderAndWait(
      domain,
      new OFREPProvider({ baseUrl: app.baseUrl, headers: [['X-VEXIL-API-KEY', env.serverKey]] }),
    );
    await OpenFeature.setProviderAndWait(
      `${domain}-mobile`,
      new OFREPProvider({ baseUrl: app.baseUrl, headers: [['X-API-KEY', mobileKey]] }),
    );
    client = OpenFeature.getClient(domain);
    mobileClient = OpenFeature.getClient(`${domain}-mobile`);
  });
  afterAll(async () => {
    await OpenFeature.clearProviders();
    await app?.close();
  });

  it('resolves boolean flags with the reason of the evaluation', async () => {
    const plain = await client.getBooleanDetails('checkout', true, { targetingKey: 'user-1' });
    expect(plain).toMatchObject({ value: false, reason: 'STATIC', variant: 'false' });
    expect(plain.errorCode).toBeUndefined();
    const pro = await client.getBooleanDetails('checkout', false, { targetingKey: 'user-1', plan: 'pro' });
    expect(pro).toMatchObject({ value: true, reason: 'TARGETING_MATCH', variant: 'true' });
    expect(pro.flagMetadata).toMatchObject({ resolved_by: 'rule', type: 'boolean' });
  });

  it('resolves string, number and object flags', async () => {
    expect(await client.getStringValue('banner', 'x', { targetingKey: 'u', plan: 'pro' })).toBe('Hi pro');
    expect(await client.getNumberValue('limit', 0, { targetingKey: 'u' })).toBe(50);
    expect(await client.getObjectValue('theme', {}, { targetingKey: 'u' })).toEqual({ dense: false, primary: '#0055ff' });
    const split = await client.getStringDetails('split', 'x', { targetingKey: 'u' });
    expect(split).toMatchObject({ value: 'new', reason: 'SPLIT' });
  });

  it('falls back to the caller’s default with the OFREP error codes', async () => {
    const missing = await client.getBooleanDetails('does-not-exist', true, { targetingKey: 'u' });
    expect(missing).toMatchObject({ value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    const noKey = await client.getBooleanDetails('checkout', true, { plan: 'pro' });
    expect(noKey).toMatchObject({ value: true, reason: 'ERROR', errorCode: 'TARGETING_KEY_MISSING' });
    const wrongType = await client.getNumberDetails('checkout', 7, { targetingKey: 'u' });
    expect(wrongType).toMatchObject({ value: 7, reason: 'ERROR', errorCode: 'TYPE_MISMATCH' });
    const hidden = await mobileClient.getStringDetails('banner', 'fallback', { targetingKey: 'u' });
    expect(hidden).toMatchObject({ value: 'fallback', errorCode: 'FLAG_NOT_FOUND' });
    expect(await mobileClient.getBooleanValue('checkout', true, { targetingKey: 'u' })).toBe(false);
  });
});
