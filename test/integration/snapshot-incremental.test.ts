import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadChangesSince, loadEnvironmentConfig } from '../../src/runtime/config-loader.js';
import { buildEnvironmentSnapshot } from '../../src/runtime/environment-snapshot.js';
import { bumpEnvironmentRevision, REVISION_CHANGES_KEPT } from '../../src/storage/revisions.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { unique, waitFor } from './public-fixtures.js';

/**
 * Management writes record which flags each revision changed (revision_changes), and the
 * serving cache reloads just those flags. Whatever path it took, the payload it serves must be
 * the one a full reload of the same rows gives (another instance may have loaded it whole).
 */
describeEachDatabase('incremental snapshot rebuilds', (db) => {
  let app: TestApp;
  const project = unique('incr');
  let serverKey: string;
  let environmentUlid: string;
  const flagsPath = `/projects/${project}/flags`;
  const envPath = (flag: string) => `${flagsPath}/${flag}/environments/production`;

  beforeAll(async () => {
    app = await startTestApp(db);
    const created = await app.mgmt('POST', '/projects', {
      key: project,
      name: 'Incremental',
      environments: [{ key: 'production', name: 'Production' }],
    });
    expect(created.status).toBe(200);
    const key = await app.mgmt('POST', `/projects/${project}/environments/production/keys`, { kind: 'server' });
    expect(key.status).toBe(200);
    serverKey = key.body.data.key;
    const env = await app
      .knex('environments')
      .where('key', 'production')
      .whereIn('project_ulid', app.knex('projects').where('key', project).select('ulid'))
      .first('ulid');
    environmentUlid = env.ulid;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function revision(): Promise<number> {
    return Number((await app.knex('environments').where('ulid', environmentUlid).first('revision')).revision);
  }

  /** Waits until the app serves the current revision, then compares it with a full reload. */
  async function expectServedEqualsFullReload(): Promise<void> {
    const current = await revision();
    const served = await waitFor(
      async () => {
        const res = await app.request('GET', '/v1/payload', { apiKey: serverKey });
        return res.status === 200 && res.body.data.revision >= current ? res : undefined;
      },
      3000,
      `revision ${current}`,
    );
    const full = buildEnvironmentSnapshot((await loadEnvironmentConfig(app.knex, environmentUlid))!);
    expect(served.body.data.revision).toBe(full.revision);
    expect(served.headers.get('etag')).toBe(full.serverEtag);
    expect(served.body).toEqual(JSON.parse(full.serverPayloadJson));
  }

  async function valueUlid(flag: string, display: string): Promise<string> {
    const values = (await app.mgmt('GET', `${flagsPath}/${flag}/values`)).body.data as Array<{ ulid: string; display: string }>;
    return values.find((v) => v.display === display)!.ulid;
  }

  async function publish(flag: string, value: string, body: Record<string, unknown> = {}, rules: Array<Record<string, unknown>> = []) {
    const draft = await app.mgmt('POST', `${envPath(flag)}/targets`);
    expect(draft.status).toBe(200);
    const target = draft.body.data.ulid;
    expect((await app.mgmt('PUT', `${envPath(flag)}/targets/${target}`, { value_ulid: await valueUlid(flag, value) })).status).toBe(200);
    for (const rule of rules) expect((await app.mgmt('POST', `${envPath(flag)}/targets/${target}/rules`, rule)).status).toBe(200);
    const published = await app.mgmt('PUT', `${envPath(flag)}/targets/${target}/publish`, { comment: 'go', ...body });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  }

  it('serves, after each kind of change, what a full reload gives; flag changes load only those flags', async () => {
    await app.request('GET', '/v1/payload', { apiKey: serverKey });
    for (const key of ['m-flag', 'a-flag', 'z-flag']) {
      expect((await app.mgmt('POST', flagsPath, { key, name: key, type: 'boolean' })).status).toBe(200);
      await expectServedEqualsFullReload();
    }
    const before = await revision();
    await publish('a-flag', 'true', {}, [
      {
        value_ulid: await valueUlid('a-flag', 'false'),
        description: 'free',
        criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['free'] }],
      },
    ]);
    await expectServedEqualsFullReload();
    const changes = await loadChangesSince(app.knex, environmentUlid, before);
    expect(changes?.kind).toBe('flags');
    if (changes?.kind === 'flags') expect([...changes.flags.values()].map((f) => f?.key)).toEqual(['a-flag']);

    // A rollout keeps the previous target serving outside it.
    await publish('a-flag', 'false', { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 30 });
    await expectServedEqualsFullReload();
    expect((await app.mgmt('PUT', `${flagsPath}/m-flag`, { name: 'Renamed', permanent: false, include_in_client: false })).status).toBe(
      200,
    );
    await expectServedEqualsFullReload();
    expect((await app.mgmt('PATCH', `${flagsPath}/m-flag/values/${await valueUlid('m-flag', 'true')}/default`)).status).toBe(200);
    await expectServedEqualsFullReload();
    expect((await app.mgmt('DELETE', `${flagsPath}/z-flag`)).status).toBe(200);
    await expectServedEqualsFullReload();
    const served = await app.request('GET', '/v1/flags/z-flag', { apiKey: serverKey });
    expect(served.status).toBe(404);

    // A segment concerns every flag: the whole environment is reloaded.
    const beforeSegment = await revision();
    expect((await app.mgmt('POST', `/projects/${project}/segments`, { key: 'beta', name: 'Beta' })).status).toBe(200);
    expect((await loadChangesSince(app.knex, environmentUlid, beforeSegment))?.kind).toBe('full');
    await expectServedEqualsFullReload();
  });

  it('answers a full reload when the revisions in between were not recorded', async () => {
    const current = await revision();
    await app.knex('environments').where('ulid', environmentUlid).increment('revision', 1);
    expect((await loadChangesSince(app.knex, environmentUlid, current))?.kind).toBe('full');
    expect(await loadChangesSince(app.knex, 'env_missing', 1)).toBeUndefined();
    await expectServedEqualsFullReload();
  });

  it('keeps each flag’s newest change through pruning, so its own revision (OFREP metadata) survives', async () => {
    const flagUlid = async (key: string) =>
      (
        await app
          .knex('flags')
          .whereIn('project_ulid', app.knex('projects').where('key', project).select('ulid'))
          .where('key', key)
          .first('ulid')
      ).ulid as string;
    const [quiet, busy] = [await flagUlid('a-flag'), await flagUlid('m-flag')];
    await app.knex.transaction((trx) => bumpEnvironmentRevision(trx, environmentUlid, [quiet]));
    const quietAt = await revision();
    // Enough changes of another flag for several prunes to pass the quiet flag's change.
    for (let i = 0; i < REVISION_CHANGES_KEPT + 60; i++) {
      await app.knex.transaction((trx) => bumpEnvironmentRevision(trx, environmentUlid, [busy]));
    }
    const current = await revision();
    // Pruning runs at every 50th revision: the last one removed what was older than this.
    const prunedUpTo = Math.floor(current / 50) * 50 - REVISION_CHANGES_KEPT;
    expect(prunedUpTo).toBeGreaterThan(quietAt);
    const old: Array<{ flag_ulid: string | null }> = await app
      .knex('revision_changes')
      .where('environment_ulid', environmentUlid)
      .where('revision', '<=', prunedUpTo)
      .select('flag_ulid');
    // Old rows were pruned but the newest of each flag, the quiet flag's among them, stayed.
    expect(old.filter((r) => r.flag_ulid === busy)).toEqual([]);
    expect(old.filter((r) => r.flag_ulid === quiet)).toHaveLength(1);

    const full = buildEnvironmentSnapshot((await loadEnvironmentConfig(app.knex, environmentUlid))!);
    expect(full.flagRevision('a-flag')).toBe(quietAt);
    expect(full.flagRevision('m-flag')).toBe(current);
    await expectServedEqualsFullReload();
    const res = await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: serverKey, body: {} });
    const served = Object.fromEntries(
      res.body.flags.map((f: { key: string; metadata: { revision: number } }) => [f.key, f.metadata.revision]),
    );
    expect(served).toEqual(Object.fromEntries(Object.keys(served).map((key) => [key, full.flagRevision(key)])));
  });
});
