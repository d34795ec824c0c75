import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// Apply makes what plan lists when a rollout is in progress: the rollout operations (percentage,
// complete, replace), or plan refuses the change too, naming its path in the file.
describeEachDatabase('flags as code: rollouts in progress and publish comments', (db) => {
  let app: TestApp;
  const projectKey = `rollouts-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  type Serving = {
    value: string;
    comment?: string | null;
    rules: unknown[];
    rollout: { mode: string; percentage: number; status: string } | null;
  };
  const file = (production: Serving) => ({
    version: 1,
    project: { key: projectKey, name: 'Rollouts', description: '' },
    environments: [
      { key: 'production', name: 'Production', description: null, color: '#d93025', comments_required: true, confirmation_required: false },
    ],
    segments: [],
    flags: [
      {
        key: 'banner-text',
        name: 'Banner text',
        type: 'string',
        description: null,
        permanent: false,
        include_in_mobile: true,
        include_in_client: true,
        values: [
          { value: 'Welcome', default: true },
          { value: 'Summer sale', default: false },
          { value: 'Winter sale', default: false },
        ],
        environments: { production },
      },
    ],
  });
  const rollingOut = (value: string, percentage: number): Serving => ({
    value,
    rules: [],
    rollout: { mode: 'manual', percentage, status: 'active' },
  });
  const exported = async () => (await app.mgmt('GET', `${p}/configuration`)).body.flags[0].environments.production as Serving;
  const apply = (body: unknown, comment = 'Release 42') =>
    app.mgmt('POST', `${p}/configuration/apply?comment=${encodeURIComponent(comment)}`, body);
  const plan = (body: unknown) => app.mgmt('POST', `${p}/configuration/plan`, body);
  const newestTarget = async () => {
    const targets = (await app.mgmt('GET', `${p}/flags/banner-text/environments/production/targets`)).body.data as Array<{
      ulid: string;
      status: string;
      published_at: string | null;
    }>;
    return targets.filter((t) => t.status === 'published').sort((a, b) => ((a.published_at ?? '') < (b.published_at ?? '') ? 1 : -1))[0]!;
  };

  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('applies a changed percentage as a rollout update, no rollout as its completion, another value as a new rollout', async () => {
    expect((await apply(file(rollingOut('Summer sale', 50)))).status).toBe(200);
    const rolloutTarget = (await newestTarget()).ulid;

    const more = file(rollingOut('Summer sale', 75));
    const planned = await plan(more);
    expect(planned.body.data.changes).toHaveLength(1);
    const applied = await apply(more);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.changes).toEqual(planned.body.data.changes);
    expect(await exported()).toEqual(rollingOut('Summer sale', 75));
    expect((await newestTarget()).ulid).toBe(rolloutTarget);
    expect((await plan(more)).body.data.changes).toEqual([]);

    // Another value under a rollout: the one in progress ends and the new one starts.
    const winter = file(rollingOut('Winter sale', 20));
    expect((await plan(winter)).body.data.changes).toHaveLength(1);
    const replaced = await apply(winter);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(await exported()).toEqual(rollingOut('Winter sale', 20));
    expect((await newestTarget()).ulid).not.toBe(rolloutTarget);

    // The same value without a rollout: the rollout completes, everyone gets Winter sale.
    const everyone = file({ value: 'Winter sale', rules: [], rollout: null });
    const completed = await apply(everyone);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(await exported()).toEqual({ value: 'Winter sale', rules: [], rollout: null });
    const actions = (await app.mgmt('GET', `/audit-logs?per_page=20&sort=created_at_desc`)).body.data.map(
      (e: { action: string }) => e.action,
    );
    expect(actions).toContain('target.rollout_updated');
    expect(actions).toContain('target.rollout_deleted');
    expect(actions).toContain('target.rollout_completed');
  });

  it('refuses in plan and apply alike the percentage of a paused rollout, naming the path in the file', async () => {
    expect((await apply(file(rollingOut('Summer sale', 40)))).status).toBe(200);
    const target = await newestTarget();
    const paused = await app.mgmt('PUT', `${p}/flags/banner-text/environments/production/targets/${target.ulid}/rollout`, {
      action: 'pause',
    });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    const changed = file(rollingOut('Summer sale', 60));
    for (const refused of [await plan(changed), await apply(changed)]) {
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('state_conflict');
      expect(Object.keys(refused.body.errors)).toEqual(['flags.0.environments.production.rollout.percentage']);
    }
    expect((await exported()).rollout).toEqual({ mode: 'manual', percentage: 40, status: 'paused' });
  });

  it('keeps the publish comment out of the export: an applied file exports as it was written and plans no change', async () => {
    const written = file({ value: 'Welcome', comment: null, rules: [], rollout: null });
    expect((await apply(written, 'Release 42')).status).toBe(200);
    expect((await newestTarget()) as unknown).toMatchObject({ status: 'published' });
    const target = (await app.mgmt('GET', `${p}/flags/banner-text/environments/production/targets/${(await newestTarget()).ulid}`)).body
      .data;
    expect(target.comment).toBe('Release 42');
    const text = await (
      await fetch(`${app.baseUrl}/management/v1${p}/configuration?format=yaml`, { headers: { authorization: `Bearer ${app.ownerToken}` } })
    ).text();
    expect(text).not.toMatch(/^\s+comment:/m);
    const { comment: _comment, ...withoutComment } = written.flags[0]!.environments.production;
    expect(YAML.parse(text).flags[0].environments.production).toEqual(withoutComment);
    expect((await plan(written)).body.data.changes).toEqual([]);
  });
});
