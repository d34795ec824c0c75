import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { expectNoWrites, lastAuditEntry } from './admin-support.js';

const password = 'correct horse battery staple';

/**
 * Typed confirmation beyond publish: every change of what a `confirmation_required` environment
 * serves (rollouts, serve, promote, apply) is refused for Bearer tokens and allowed to a console
 * session only with the environment's key.
 */
describeEachDatabase('typed confirmation of rollouts and flags-as-code publishes', (db) => {
  let app: TestApp;
  let session: { cookie: string; csrf: string };
  const projectKey = `confirm-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const locked = `${p}/flags/checkout/environments/locked`;
  /** A draft (for createRollout) and a published target with an active manual rollout at 10 %. */
  let draft: string;
  let rolling: string;

  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const bySession = (method: string, path: string, body?: unknown) =>
    app.request(method, `/management/v1${path}`, {
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
      ...(body === undefined ? {} : { body }),
    });
  const target = async (ulid: string) => ok('GET', `${locked}/targets/${ulid}`);

  function expectRefusedForTokens(res: ApiResponse): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ status: 'error', code: 'confirmation_required' });
    expect(res.body.message).toMatch(/typed confirmation/);
  }

  function expectConfirmationField(res: ApiResponse): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors).toEqual({ confirmation: ['Type the environment\'s key "locked" to confirm publishing here.'] });
  }

  beforeAll(async () => {
    app = await startTestApp(db);
    const owner = await app.knex('accounts').where('ulid', app.ownerUlid).first('email');
    await ok('PUT', `/accounts/${app.ownerUlid}/password`, { password });
    const signIn = await app.request('POST', '/management/v1/session', { body: { email: owner.email, password } });
    session = { cookie: (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string, csrf: signIn.body.data.csrf_token };
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Confirm',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'locked', name: 'Locked' },
      ],
    });
    await ok('POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    // Set up while the environment does not require confirmation yet.
    const first = await ok('POST', `${locked}/targets`);
    await ok('PUT', `${locked}/targets/${first.ulid}/publish`, {});
    const values: Array<{ ulid: string; display: string }> = await ok('GET', `${p}/flags/checkout/values`);
    const second = await ok('POST', `${locked}/targets`);
    await ok('PUT', `${locked}/targets/${second.ulid}`, { value_ulid: values.find((v) => v.display === 'true')!.ulid });
    rolling = (
      await ok('PUT', `${locked}/targets/${second.ulid}/publish`, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 })
    ).ulid;
    draft = (await ok('POST', `${locked}/targets`)).ulid;
    await ok('PUT', `${p}/environments/locked`, { name: 'Locked', confirmation_required: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses every rollout change with a Bearer token, whatever it sends, and changes nothing', async () => {
    const attempts: Array<[string, string, unknown?]> = [
      ['POST', `${locked}/targets/${draft}/rollout`, { rollout_mode: 'manual', rollout_percentage: 20, confirmation: 'locked' }],
      ['PUT', `${locked}/targets/${rolling}/rollout`, { action: 'pause', confirmation: 'locked' }],
      ['PUT', `${locked}/targets/${rolling}/rollout`, { rollout_percentage: 50, confirmation: 'locked' }],
      ['POST', `${locked}/targets/${rolling}/rollout/complete`, { confirmation: 'locked' }],
      ['POST', `${locked}/targets/${rolling}/rollout/complete`],
      ['DELETE', `${locked}/targets/${rolling}/rollout?confirmation=locked`],
    ];
    for (const [method, path, body] of attempts) {
      expectRefusedForTokens(await expectNoWrites(app, () => app.mgmt(method, path, body)));
    }
    expect(await target(rolling)).toMatchObject({ rollout_status: 'active', rollout_percentage: 10 });
    expect(await target(draft)).toMatchObject({ rollout_mode: null });
    // The refusal is audited with its rule.
    const entry = await app
      .knex('audit_entries')
      .where('action', 'target.rollout_deleted')
      .orderBy('ulid', 'desc')
      .first('result', 'status_code');
    expect(entry).toMatchObject({ result: 'invalid', status_code: 422 });
  });

  it('lets a console session change rollouts there only with the environment key typed', async () => {
    // Without and with a wrong confirmation: a field-keyed 422, nothing written.
    expectConfirmationField(await expectNoWrites(app, () => bySession('PUT', `${locked}/targets/${rolling}/rollout`, { action: 'pause' })));
    expectConfirmationField(
      await expectNoWrites(app, () =>
        bySession('PUT', `${locked}/targets/${rolling}/rollout`, { action: 'pause', confirmation: 'staging' }),
      ),
    );
    expectConfirmationField(await expectNoWrites(app, () => bySession('POST', `${locked}/targets/${rolling}/rollout/complete`)));
    expectConfirmationField(await expectNoWrites(app, () => bySession('DELETE', `${locked}/targets/${draft}/rollout`)));
    expectConfirmationField(
      await expectNoWrites(app, () => bySession('POST', `${locked}/targets/${draft}/rollout`, { rollout_mode: 'automatic' })),
    );

    const created = await bySession('POST', `${locked}/targets/${draft}/rollout`, {
      rollout_mode: 'manual',
      rollout_percentage: 5,
      confirmation: 'locked',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toEqual({ ulid: draft, rollout_mode: 'manual', rollout_percentage: 5, rollout_status: 'active' });

    const paused = await bySession('PUT', `${locked}/targets/${rolling}/rollout`, { action: 'pause', confirmation: 'locked' });
    expect(paused.body.data).toMatchObject({ rollout_status: 'paused' });
    // Resume too is refused to a token while the session may do it.
    expectRefusedForTokens(await app.mgmt('PUT', `${locked}/targets/${rolling}/rollout`, { action: 'resume' }));
    const resumed = await bySession('PUT', `${locked}/targets/${rolling}/rollout`, { action: 'resume', confirmation: 'locked' });
    expect(resumed.body.data).toMatchObject({ rollout_status: 'active' });
    const widened = await bySession('PUT', `${locked}/targets/${rolling}/rollout`, { rollout_percentage: 60, confirmation: 'locked' });
    expect(widened.body.data).toMatchObject({ rollout_status: 'active', rollout_percentage: 60 });
    // Both an action and a percentage (with a confirmation): one message for the body.
    const both = await bySession('PUT', `${locked}/targets/${rolling}/rollout`, {
      action: 'pause',
      rollout_percentage: 5,
      confirmation: 'locked',
    });
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.errors)).toEqual(['body']);
    const completed = await bySession('POST', `${locked}/targets/${rolling}/rollout/complete`, { confirmation: 'locked' });
    expect(completed.body.data).toEqual({ ulid: rolling, rollout_percentage: 100, rollout_status: 'completed' });
    const removed = await bySession('DELETE', `${locked}/targets/${draft}/rollout?confirmation=locked`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data).toMatchObject({ ulid: draft, rollout_mode: null, rollout_percentage: null, rollout_status: null });
  });

  it('applies the same rule to serving a value now', async () => {
    const path = `${locked}/serve`;
    expectRefusedForTokens(await expectNoWrites(app, () => app.mgmt('POST', path, { value: 'false', confirmation: 'locked' })));
    expectConfirmationField(await expectNoWrites(app, () => bySession('POST', path, { value: 'false' })));
    const served = await bySession('POST', path, { value: 'false', confirmation: 'locked' });
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect(await ok('GET', `${locked}/evaluate`)).toMatchObject({ value: false, resolved_by: 'target' });
  });

  it('applies the same rule to promoting with publish', async () => {
    await ok('POST', `${p}/flags/checkout/environments/staging/serve`, { value: 'true' });
    const body = { from: 'staging', to: 'locked', publish: true };
    expectRefusedForTokens(
      await expectNoWrites(app, () => app.mgmt('POST', `${p}/configuration/promote`, { ...body, confirmation: 'locked' })),
    );
    expectConfirmationField(await expectNoWrites(app, () => bySession('POST', `${p}/configuration/promote`, body)));
    const promoted = await bySession('POST', `${p}/configuration/promote`, { ...body, confirmation: 'locked' });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body.data.promoted).toEqual([{ flag: 'checkout', target_ulid: expect.stringMatching(/^tgt_/), status: 'published' }]);
    // A promote that only drafts needs no confirmation.
    await ok('POST', `${p}/flags/checkout/environments/staging/serve`, { value: 'false' });
    const drafted = await app.mgmt('POST', `${p}/configuration/promote`, { from: 'staging', to: 'locked' });
    expect(drafted.body.data.promoted[0].status).toBe('draft');
  });

  it('applies the same rule to applying a configuration file, confirmed per environment', async () => {
    const file = (await app.mgmt('GET', `${p}/configuration`)).body;
    file.flags.find((f: { key: string }) => f.key === 'checkout').environments.locked = {
      value: 'false',
      comment: null,
      rules: [],
      rollout: null,
    };
    const apply = `${p}/configuration/apply`;
    expectRefusedForTokens(await expectNoWrites(app, () => app.mgmt('POST', `${apply}?confirmation=locked`, file)));
    expectConfirmationField(await expectNoWrites(app, () => bySession('POST', apply, file)));
    expectConfirmationField(await expectNoWrites(app, () => bySession('POST', `${apply}?confirmation=staging`, file)));
    const applied = await bySession('POST', `${apply}?confirmation=staging,locked`, file);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.changes.map((c: { action: string; kind: string }) => `${c.action} ${c.kind}`)).toEqual(['publish serving']);
    expect(await ok('GET', `${locked}/evaluate`)).toMatchObject({ value: false, resolved_by: 'target' });
  });

  it('applies the same rule to the switch and to restoring an earlier publish', async () => {
    const history: Array<{ ulid: string; status: string }> = await ok('GET', `${locked}/targets`);
    const earlier = history.find((t) => t.status === 'expired')!;
    const attempts: Array<[string, Record<string, unknown>]> = [
      // Off already (the last serve served false to everyone): switching on would publish.
      [`${locked}/switch`, { on: true }],
      [`${locked}/targets/${earlier.ulid}/restore`, {}],
    ];
    for (const [path, body] of attempts) {
      expectRefusedForTokens(await expectNoWrites(app, () => app.mgmt('POST', path, { ...body, confirmation: 'locked' })));
      expectConfirmationField(await expectNoWrites(app, () => bySession('POST', path, body)));
    }
    const restored = await bySession('POST', `${locked}/targets/${earlier.ulid}/restore`, { confirmation: 'locked' });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
  });

  it("refuses a file that lifts the environment's confirmation_required, alone or with a publish", async () => {
    const file = (await app.mgmt('GET', `${p}/configuration`)).body;
    file.environments.find((e: { key: string }) => e.key === 'locked').confirmation_required = false;
    expectRefusedForTokens(await expectNoWrites(app, () => app.mgmt('POST', `${p}/configuration/apply?confirmation=locked`, file)));
    file.flags.find((f: { key: string }) => f.key === 'checkout').environments.locked = { value: 'true', rules: [], rollout: null };
    expectRefusedForTokens(await expectNoWrites(app, () => app.mgmt('POST', `${p}/configuration/apply?confirmation=locked`, file)));
    expectConfirmationField(await expectNoWrites(app, () => bySession('POST', `${p}/configuration/apply`, file)));
  });

  it("refuses every token's update of the environment's own settings, lifting the guard included", async () => {
    const before = await ok('GET', `${p}/environments/locked`);
    const bodies = [
      { name: 'Locked', confirmation_required: false },
      { name: 'Locked', comments_required: true },
      { name: 'Renamed' },
      // A token may not confirm by typing, even with the right key.
      { name: 'Locked', confirmation_required: false, confirmation: 'locked' },
    ];
    for (const body of bodies) {
      const res = await expectNoWrites(app, () => app.mgmt('PUT', `${p}/environments/locked`, body));
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ status: 'error', code: 'confirmation_required' });
      expect(res.body.message).toMatch(/typed confirmation/);
    }
    for (const confirmation of [undefined, 'staging', 'LOCKED']) {
      const body = { name: 'Locked', confirmation_required: false, ...(confirmation === undefined ? {} : { confirmation }) };
      const res = await expectNoWrites(app, () => bySession('PUT', `${p}/environments/locked`, body));
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors).toEqual({ confirmation: ['Type the environment\'s key "locked" to confirm changing its settings.'] });
    }
    expect(await ok('GET', `${p}/environments/locked`)).toEqual(before);
    // Where the stored setting is off, neither a token nor the confirmation is asked for.
    const staging = await app.mgmt('PUT', `${p}/environments/staging`, { name: 'Staging', confirmation_required: true });
    expect(staging.status, JSON.stringify(staging.body)).toBe(200);
    expect((await app.mgmt('PUT', `${p}/environments/staging`, { name: 'Staging', confirmation_required: false })).status).toBe(422);
    const lifted = await bySession('PUT', `${p}/environments/staging`, {
      name: 'Staging',
      confirmation_required: false,
      confirmation: 'staging',
    });
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);
    expect(lifted.body.data.confirmation_required).toBe(false);
    // The person's typed key lets the console change the protected environment, audited as any update.
    const renamed = await bySession('PUT', `${p}/environments/locked`, { name: 'Locked', description: 'Typed.', confirmation: 'locked' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data).toMatchObject({ description: 'Typed.', confirmation_required: true });
    expect(await lastAuditEntry(app)).toMatchObject({ action: 'environment.updated', result: 'success' });
  });

  it("refuses every token's deletion of a protected environment, and deletes it with the person's typed key", async () => {
    await ok('POST', `${p}/environments`, { key: 'vault', name: 'Vault', confirmation_required: true });
    await ok('POST', `${p}/environments/vault/keys`, { kind: 'server' });
    const before = await ok('GET', `${p}/environments/vault`);
    // A token may not confirm by typing, even with the right key.
    for (const query of ['', '?confirmation=vault', '?confirmation=staging']) {
      const res = await expectNoWrites(app, () => app.mgmt('DELETE', `${p}/environments/vault${query}`));
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ status: 'error', code: 'confirmation_required' });
      expect(res.body.message).toBe('The environment "vault" requires typed confirmation; delete it in the web console.');
    }
    for (const query of ['', '?confirmation=staging', '?confirmation=VAULT']) {
      const res = await expectNoWrites(app, () => bySession('DELETE', `${p}/environments/vault${query}`));
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ code: 'confirmation_required' });
      expect(res.body.errors).toEqual({ confirmation: ['Type the environment\'s key "vault" to confirm deleting it.'] });
    }
    expect(await ok('GET', `${p}/environments/vault`)).toEqual(before);
    expect(await ok('GET', `${p}/environments/vault/keys`)).toHaveLength(1);
    const deleted = await bySession('DELETE', `${p}/environments/vault?confirmation=vault`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await lastAuditEntry(app)).toMatchObject({ action: 'environment.deleted', result: 'success', subject_ulid: before.ulid });
    expect((await app.mgmt('GET', `${p}/environments/vault`)).status).toBe(404);
    // The stored setting decides: an environment that does not require confirmation is deleted by a token.
    await ok('POST', `${p}/environments`, { key: 'scratch', name: 'Scratch' });
    expect((await app.mgmt('DELETE', `${p}/environments/scratch`)).status).toBe(200);
  });

  it('deletes a protected environment by a pruning apply only with the typed key, as the direct deletion', async () => {
    await ok('POST', `${p}/environments`, { key: 'vault', name: 'Vault', confirmation_required: true });
    const file = (await app.mgmt('GET', `${p}/configuration`)).body;
    file.environments = file.environments.filter((e: { key: string }) => e.key !== 'vault');
    for (const flag of file.flags as Array<{ environments: Record<string, unknown> }>) delete flag.environments.vault;
    const apply = `${p}/configuration/apply?prune=true`;
    const refused = await expectNoWrites(app, () => app.mgmt('POST', `${apply}&confirmation=vault`, file));
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body).toMatchObject({ status: 'error', code: 'confirmation_required' });
    const applied = await bySession('POST', `${apply}&confirmation=vault`, file);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.changes.map((c: { action: string; kind: string; key: string }) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      'delete environment vault',
    ]);
    expect((await app.mgmt('GET', `${p}/environments/vault`)).status).toBe(404);
  });

  it("refuses every token's deletion of a project holding a protected environment, and deletes it with the person's typed project key", async () => {
    const guarded = `${projectKey}-guarded`;
    await ok('POST', '/projects', {
      key: guarded,
      name: 'Guarded',
      environments: [
        { key: 'development', name: 'Development' },
        { key: 'vault', name: 'Vault', confirmation_required: true },
        { key: 'archive', name: 'Archive', confirmation_required: true },
      ],
    });
    await ok('POST', `/projects/${guarded}/environments/vault/keys`, { kind: 'server' });
    await ok('POST', `/projects/${guarded}/flags`, { key: 'kept', name: 'Kept', type: 'boolean' });
    const before = await ok('GET', `/projects/${guarded}`);
    // A token may not confirm by typing, even with the project's key or an environment's.
    for (const query of ['', `?confirmation=${guarded}`, '?confirmation=vault']) {
      const res = await expectNoWrites(app, () => app.mgmt('DELETE', `/projects/${guarded}${query}`));
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ status: 'error', code: 'confirmation_required' });
      expect(res.body.message).toBe(
        `The project "${guarded}" holds environments that require typed confirmation ("archive", "vault"); delete it in the web console.`,
      );
    }
    // A console session types the project's key, not an environment's.
    for (const query of ['', '?confirmation=vault', `?confirmation=${guarded.toUpperCase()}`]) {
      const res = await expectNoWrites(app, () => bySession('DELETE', `/projects/${guarded}${query}`));
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ code: 'confirmation_required' });
      expect(res.body.errors).toEqual({
        confirmation: [
          `Type the project's key "${guarded}" to confirm deleting it with its environments that require typed confirmation ("archive", "vault").`,
        ],
      });
    }
    expect(await ok('GET', `/projects/${guarded}`)).toEqual(before);
    expect(await ok('GET', `/projects/${guarded}/environments/vault/keys`)).toHaveLength(1);
    expect(await ok('GET', `/projects/${guarded}/flags/kept`)).toMatchObject({ key: 'kept' });
    const deleted = await bySession('DELETE', `/projects/${guarded}?confirmation=${guarded}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await lastAuditEntry(app)).toMatchObject({ action: 'project.deleted', result: 'success', subject_ulid: before.ulid });
    expect((await app.mgmt('GET', `/projects/${guarded}`)).status).toBe(404);
  });

  it('deletes a project without protected environments as before, by token or session, and reads the stored setting', async () => {
    const plain = `${projectKey}-plain`;
    await ok('POST', '/projects', { key: plain, name: 'Plain' });
    expect((await app.mgmt('DELETE', `/projects/${plain}`)).status).toBe(200);
    await ok('POST', '/projects', { key: plain, name: 'Plain' });
    expect((await bySession('DELETE', `/projects/${plain}`)).status).toBe(200);
    // Once its only protected environment is lifted (in the console) or deleted, a token deletes the project.
    const lifted = `${projectKey}-lifted`;
    await ok('POST', '/projects', {
      key: lifted,
      name: 'Lifted',
      environments: [{ key: 'vault', name: 'Vault', confirmation_required: true }],
    });
    expect((await app.mgmt('DELETE', `/projects/${lifted}`)).status).toBe(422);
    const lift = await bySession('PUT', `/projects/${lifted}/environments/vault`, {
      name: 'Vault',
      confirmation_required: false,
      confirmation: 'vault',
    });
    expect(lift.status, JSON.stringify(lift.body)).toBe(200);
    expect((await app.mgmt('DELETE', `/projects/${lifted}`)).status).toBe(200);
  });

  it('covers every operation the management document lets typed confirmation through', () => {
    // Each is exercised here, by the publish tests or by configuration-refusals.test.ts (plan); a new one must be too.
    const exercised = [
      'publishTarget',
      'createRollout',
      'updateRollout',
      'deleteRollout',
      'completeRollout',
      'planProjectConfiguration',
      'applyProjectConfiguration',
      'promoteConfiguration',
      'serveFlagValue',
      'switchFlag',
      'restoreTarget',
      'updateEnvironment',
      'deleteEnvironment',
      'deleteProject',
    ];
    const doc = app.composition.documents.management.dereferenced as { paths: Record<string, Record<string, any>> };
    const confirming: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (typeof op !== 'object' || op === null || !('operationId' in op)) continue;
        const inQuery = ((op.parameters ?? []) as Array<{ name: string }>).some((param) => param.name === 'confirmation');
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const inBody = [schema, ...(schema?.allOf ?? []), ...(schema?.oneOf ?? [])].some((s) => s?.properties?.confirmation !== undefined);
        if (inQuery || inBody) confirming.push(op.operationId);
      }
    }
    expect(confirming.sort()).toEqual([...exercised].sort());
  });
});
