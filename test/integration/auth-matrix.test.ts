/**
 * Scope and grant matrix of every administration operation: who gets 401, 403 (with or without
 * `required_scope`), 404 and success, and that no refusal writes anything.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allScopes } from '../../src/auth/principal.js';
import { loadConfig } from '../../src/config.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  createAccountWithToken,
  createEnvironmentKey,
  createManagementToken,
  createProject,
  expectNoWrites,
  uniqueKey,
} from './admin-support.js';

interface Fixture {
  project: string;
  environment: string;
  keyUlid: string;
  tokenUlid: string;
  accountUlid: string;
  patUlid: string;
  webhookUlid: string;
  deliveryUlid: string;
}

/** A public address literal: accepted without a DNS lookup; nothing is delivered in this suite. */
const webhookBody = () => ({ url: 'https://203.0.113.10/hook', events: ['*'] });

type Level = 'global' | 'no-grants' | 'project' | 'whole-project' | 'environment' | 'personal';

interface Operation {
  id: string;
  scope: string;
  level: Level;
  method: string;
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
}

const operations: Operation[] = [
  { id: 'listProjects', scope: 'projects:read', level: 'global', method: 'GET', path: () => '/projects' },
  {
    id: 'createProject',
    scope: 'config:write',
    level: 'no-grants',
    method: 'POST',
    path: () => '/projects',
    body: () => ({ key: uniqueKey('new'), name: 'New' }),
  },
  { id: 'getProject', scope: 'projects:read', level: 'project', method: 'GET', path: (f) => `/projects/${f.project}` },
  {
    id: 'updateProject',
    scope: 'config:write',
    level: 'whole-project',
    method: 'PUT',
    path: (f) => `/projects/${f.project}`,
    body: () => ({ name: 'Renamed' }),
  },
  { id: 'deleteProject', scope: 'config:write', level: 'whole-project', method: 'DELETE', path: (f) => `/projects/${f.project}` },
  { id: 'listEnvironments', scope: 'projects:read', level: 'project', method: 'GET', path: (f) => `/projects/${f.project}/environments` },
  {
    id: 'createEnvironment',
    scope: 'config:write',
    level: 'whole-project',
    method: 'POST',
    path: (f) => `/projects/${f.project}/environments`,
    body: () => ({ key: uniqueKey('env'), name: 'Env' }),
  },
  {
    id: 'getEnvironment',
    scope: 'projects:read',
    level: 'environment',
    method: 'GET',
    path: (f) => `/projects/${f.project}/environments/${f.environment}`,
  },
  {
    id: 'updateEnvironment',
    scope: 'config:write',
    level: 'environment',
    method: 'PUT',
    path: (f) => `/projects/${f.project}/environments/${f.environment}`,
    body: () => ({ name: 'Renamed' }),
  },
  {
    id: 'deleteEnvironment',
    scope: 'config:write',
    level: 'environment',
    method: 'DELETE',
    path: (f) => `/projects/${f.project}/environments/${f.environment}`,
  },
  {
    id: 'listEnvironmentKeys',
    scope: 'config:write',
    level: 'environment',
    method: 'GET',
    path: (f) => `/projects/${f.project}/environments/${f.environment}/keys`,
  },
  {
    id: 'createEnvironmentKey',
    scope: 'config:write',
    level: 'environment',
    method: 'POST',
    path: (f) => `/projects/${f.project}/environments/${f.environment}/keys`,
    body: () => ({ kind: 'client' }),
  },
  {
    id: 'revokeEnvironmentKey',
    scope: 'config:write',
    level: 'environment',
    method: 'DELETE',
    path: (f) => `/projects/${f.project}/environments/${f.environment}/keys/${f.keyUlid}`,
  },
  { id: 'listManagementTokens', scope: 'personal', level: 'personal', method: 'GET', path: () => '/tokens' },
  {
    id: 'createManagementToken',
    scope: 'personal',
    level: 'personal',
    method: 'POST',
    path: () => '/tokens',
    body: () => ({ name: 'x', scopes: ['flags:read'] }),
  },
  { id: 'revokeManagementToken', scope: 'personal', level: 'personal', method: 'DELETE', path: (f) => `/tokens/${f.tokenUlid}` },
  { id: 'listAccounts', scope: 'personal', level: 'personal', method: 'GET', path: () => '/accounts' },
  {
    id: 'createAccount',
    scope: 'personal',
    level: 'personal',
    method: 'POST',
    path: () => '/accounts',
    body: () => ({ name: 'x', email: `${uniqueKey('m')}@example.com`, role: 'member' }),
  },
  { id: 'deleteAccount', scope: 'personal', level: 'personal', method: 'DELETE', path: (f) => `/accounts/${f.accountUlid}` },
  {
    id: 'createPersonalAccessToken',
    scope: 'personal',
    level: 'personal',
    method: 'POST',
    path: (f) => `/accounts/${f.accountUlid}/tokens`,
    body: () => ({ name: 'x' }),
  },
  {
    id: 'revokePersonalAccessToken',
    scope: 'personal',
    level: 'personal',
    method: 'DELETE',
    path: (f) => `/accounts/${f.accountUlid}/tokens/${f.patUlid}`,
  },
  // Webhooks receive every environment's changes: the whole project is needed.
  { id: 'listWebhooks', scope: 'config:write', level: 'whole-project', method: 'GET', path: (f) => `/projects/${f.project}/webhooks` },
  {
    id: 'createWebhook',
    scope: 'config:write',
    level: 'whole-project',
    method: 'POST',
    path: (f) => `/projects/${f.project}/webhooks`,
    body: webhookBody,
  },
  {
    id: 'getWebhook',
    scope: 'config:write',
    level: 'whole-project',
    method: 'GET',
    path: (f) => `/projects/${f.project}/webhooks/${f.webhookUlid}`,
  },
  {
    id: 'updateWebhook',
    scope: 'config:write',
    level: 'whole-project',
    method: 'PUT',
    path: (f) => `/projects/${f.project}/webhooks/${f.webhookUlid}`,
    body: webhookBody,
  },
  {
    id: 'deleteWebhook',
    scope: 'config:write',
    level: 'whole-project',
    method: 'DELETE',
    path: (f) => `/projects/${f.project}/webhooks/${f.webhookUlid}`,
  },
  {
    id: 'listWebhookDeliveries',
    scope: 'config:write',
    level: 'whole-project',
    method: 'GET',
    path: (f) => `/projects/${f.project}/webhooks/${f.webhookUlid}/deliveries`,
  },
  {
    id: 'redeliverWebhookDelivery',
    scope: 'config:write',
    level: 'whole-project',
    method: 'POST',
    path: (f) => `/projects/${f.project}/webhooks/${f.webhookUlid}/deliveries/${f.deliveryUlid}/redeliver`,
  },
  {
    id: 'pingWebhook',
    scope: 'config:write',
    level: 'whole-project',
    method: 'POST',
    path: (f) => `/projects/${f.project}/webhooks/${f.webhookUlid}/ping`,
  },
];

describeEachDatabase('auth: scope and grant matrix of the administration operations', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    // No delivery task runs: the subscriptions point at an address nobody answers.
    app = await startTestApp(db, { config: { webhooks: { ...loadConfig({}).webhooks, pollMs: 3_600_000 } } });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Fresh resources for one operation, so successful deletes do not disturb the next case. */
  async function fixture(): Promise<Fixture> {
    const project = await createProject(app);
    const key = await createEnvironmentKey(app, project.key, 'production', 'server');
    const token = await createManagementToken(app, ['flags:read']);
    const account = await createAccountWithToken(app, 'member');
    const webhook = await app.mgmt('POST', `/projects/${project.key}/webhooks`, webhookBody());
    const ping = await app.mgmt('POST', `/projects/${project.key}/webhooks/${webhook.body.data.ulid}/ping`);
    return {
      project: project.key,
      environment: 'production',
      keyUlid: key.ulid,
      tokenUlid: token.ulid,
      accountUlid: account.ulid,
      patUlid: account.tokenUlid,
      webhookUlid: webhook.body.data.ulid,
      deliveryUlid: ping.body.data.ulid,
    };
  }

  const call = (op: Operation, f: Fixture, token: string | undefined) =>
    app.request(op.method, `/management/v1${op.path(f)}`, { ...(token === undefined ? {} : { token }), body: op.body?.(f) });

  it('documents every administration operation with the scope the matrix expects', () => {
    const paths = app.composition.documents.management.original.paths as Record<
      string,
      Record<string, { operationId?: string; 'x-required-scope'?: string }>
    >;
    const documented = new Map<string, string | undefined>();
    for (const item of Object.values(paths))
      for (const op of Object.values(item)) if (op?.operationId) documented.set(op.operationId, op['x-required-scope']);
    for (const op of operations) {
      expect(documented.get(op.id), op.id).toBe(op.scope);
      expect(app.composition.managementHandlers[op.id], op.id).toBeTypeOf('function');
    }
  });

  for (const op of operations) {
    it(`${op.id}: 401 without a token, 403 without the scope, success with it`, async () => {
      const f = await fixture();
      const none = await expectNoWrites(app, () => call(op, f, undefined));
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ status: 'error', message: 'Missing bearer token.', code: expect.any(String) });

      // Every scope but the required one (for `personal`: every scope there is).
      const others = allScopes.filter((s) => s !== op.scope && !(op.scope === 'targets:read' && s === 'targets:write'));
      const lacking = await createManagementToken(app, others);
      const denied = await expectNoWrites(app, () => call(op, f, lacking.token));
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ status: 'error', required_scope: op.scope });
      // The refusal's audit entry may be written just after the answer: read until it is there.
      await expect
        .poll(() => app.knex('audit_entries').where('token_ulid', lacking.ulid).orderBy('ulid', 'desc').first(), { timeout: 10_000 })
        .toMatchObject({ action: 'scope.denied', result: 'denied_scope', status_code: 403 });

      if (op.scope !== 'personal') {
        const scoped = await createManagementToken(app, [op.scope]);
        const ok = await call(op, f, scoped.token);
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
        expect(ok.body.status).toBe('success');
      } else {
        const admin = await createAccountWithToken(app, 'admin');
        const ok = await call(op, f, admin.token);
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      }
    });

    if (op.level === 'project' || op.level === 'whole-project' || op.level === 'environment') {
      it(`${op.id}: 404 with a grant to another project or environment, success with the right grant`, async () => {
        const f = await fixture();
        const elsewhere = await createProject(app);
        const otherProject = await createManagementToken(app, [op.scope], { grants: { projects: [elsewhere.key] } });
        const res = await expectNoWrites(app, () => call(op, f, otherProject.token));
        expect(res.status).toBe(404);
        expect(res.body.status).toBe('error');

        const otherEnvironment = await createManagementToken(app, [op.scope], {
          grants: { environments: [{ project: f.project, environment: 'development' }] },
        });
        const envRes = await expectNoWrites(app, () => call(op, f, otherEnvironment.token));
        // Project-level reads see a project one of whose environments is granted; whole-project
        // changes need the project itself (403); the other environment is out of reach (404).
        const expected = op.level === 'project' ? 200 : op.level === 'whole-project' ? 403 : 404;
        expect(envRes.status, JSON.stringify(envRes.body)).toBe(expected);

        const granted = await createManagementToken(app, [op.scope], {
          grants:
            op.level === 'environment' ? { environments: [{ project: f.project, environment: f.environment }] } : { projects: [f.project] },
        });
        const ok = await call(op, f, granted.token);
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      });
    }

    it(`${op.id}: what a member's personal access token may do`, async () => {
      const f = await fixture();
      const own = await createAccountWithToken(app, 'member', [f.project]);
      const stranger = await createAccountWithToken(app, 'member', []);
      if (op.scope === 'projects:read') {
        const ok = await call(op, f, own.token);
        expect(ok.status).toBe(200);
        if (op.level !== 'global') {
          const hidden = await expectNoWrites(app, () => call(op, f, stranger.token));
          expect(hidden.status).toBe(404);
        } else {
          expect((await call(op, f, stranger.token)).body.data).toEqual([]);
        }
      } else {
        const res = await expectNoWrites(app, () => call(op, f, own.token));
        expect(res.status).toBe(403);
        expect(res.body.required_scope).toBe(op.scope);
      }
    });
  }

  it('targets:write implies targets:read, and no other scope implies another', async () => {
    const f = await fixture();
    const write = await createManagementToken(app, ['targets:write']);
    const principal = await app.composition.authenticator.authenticate(`Bearer ${write.token}`);
    const { hasScope } = await import('../../src/auth/principal.js');
    expect(hasScope(principal, 'targets:read')).toBe(true);
    expect(hasScope(principal, 'flags:read')).toBe(false);
    const flagsWrite = await app.composition.authenticator.authenticate(
      `Bearer ${(await createManagementToken(app, ['flags:write'])).token}`,
    );
    expect(hasScope(flagsWrite, 'flags:read')).toBe(false);
    const configWrite = await createManagementToken(app, ['config:write']);
    const read = await app.request('GET', `/management/v1/projects/${f.project}`, { token: configWrite.token });
    expect(read.status).toBe(403);
    expect(read.body.required_scope).toBe('projects:read');
  });
});
