/**
 * Every operation of the management document, called by every kind of caller (owner, admin and
 * member personal access tokens, a token per scope, project- and environment-granted tokens,
 * console sessions of an owner and a member), answered as the document's rules say: a caller
 * without the operation's `x-required-scope` gets 403 naming it, every other caller passes the
 * check; a caller outside a project's grants finds it absent (404). The rules are read from the
 * document itself where it states them, so the code and the document cannot drift apart.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allScopes } from '../../src/auth/principal.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { createAccountWithToken, createManagementToken, createProject } from './admin-support.js';

interface DocumentOperation {
  id: string;
  method: string;
  template: string;
  scope: string;
  /** `x-also-required-scopes`: further scopes every caller must hold. */
  alsoScopes: string[];
  hasBody: boolean;
}

interface Caller {
  name: string;
  /** `pat` and `session` act with the account's role; `token` with its scopes. */
  kind: 'pat' | 'session' | 'token';
  role: 'owner' | 'admin' | 'member';
  scopes: readonly string[];
  grants: 'none' | 'other-project' | 'environment';
  headers: Record<string, string>;
}

const password = 'correct horse battery staple';

/** The scopes the document's Authentication section lets a member's token use. */
function memberScopesOf(description: string): Set<string> {
  const line = /`member`: ([^;]*?) operations on the projects/s.exec(description)?.[1];
  if (!line) throw new Error('the management document no longer states what members may do');
  return new Set([...line.matchAll(/`([a-z]+:[a-z]+)`/g)].map((m) => m[1] as string));
}

function operationsOf(app: TestApp): DocumentOperation[] {
  const doc = app.composition.documents.management.original as { paths: Record<string, Record<string, any>> };
  const out: DocumentOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const alsoScopes = (op['x-also-required-scopes'] as string[] | undefined) ?? [];
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        template,
        scope: op['x-required-scope'],
        alsoScopes,
        hasBody: op.requestBody !== undefined,
      });
    }
  }
  // Signing out ends the session every later call of a session caller needs.
  return out.sort((a, b) => Number(a.id === 'deleteSession') - Number(b.id === 'deleteSession'));
}

/** Whether the document's rules let the caller pass the operation's scope check. */
function mayUse(caller: Caller, scope: string, memberScopes: Set<string>): boolean {
  if (scope === 'personal') return caller.kind !== 'token' && caller.role !== 'member';
  if (caller.kind !== 'token') return caller.role !== 'member' || memberScopes.has(scope);
  return caller.scopes.includes(scope) || (scope === 'targets:read' && caller.scopes.includes('targets:write'));
}

const missing = {
  projectKey: 'no-such-project',
  environmentKey: 'production',
  flagKey: 'no-such-flag',
  segmentKey: 'no-such-segment',
};

/** A path naming resources that do not exist, so an allowed call changes nothing. */
function absentPath(template: string): string {
  return `/management/v1${template.replace(/\{(\w+)\}/g, (_m, name: string) => missing[name as keyof typeof missing] ?? `${name.replace(/Ulid$/, '').slice(0, 3)}_01J00000000000000000000000`)}`;
}

describeEachDatabase('auth: every operation of the management document, for every kind of caller', (db) => {
  let app: TestApp;
  let operations: DocumentOperation[];
  let memberScopes: Set<string>;
  let project: string;
  const callers: Caller[] = [];

  async function sessionHeaders(email: string): Promise<Record<string, string>> {
    const res = await app.request('POST', '/management/v1/session', { body: { email, password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] as string, 'x-csrf-token': res.body.data.csrf_token };
  }

  beforeAll(async () => {
    app = await startTestApp(db);
    operations = operationsOf(app);
    memberScopes = memberScopesOf(String((app.composition.documents.management.original as any).info.description));
    project = (await createProject(app)).key;
    const elsewhere = (await createProject(app)).key;
    const admin = await createAccountWithToken(app, 'admin');
    const member = await createAccountWithToken(app, 'member', [project]);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    callers.push(
      { name: 'owner PAT', kind: 'pat', role: 'owner', scopes: [], grants: 'none', headers: bearer(app.ownerToken) },
      { name: 'admin PAT', kind: 'pat', role: 'admin', scopes: [], grants: 'none', headers: bearer(admin.token) },
      { name: 'member PAT', kind: 'pat', role: 'member', scopes: [], grants: 'none', headers: bearer(member.token) },
    );
    for (const scope of allScopes) {
      callers.push({
        name: `${scope} token`,
        kind: 'token',
        role: 'owner',
        scopes: [scope],
        grants: 'none',
        headers: bearer((await createManagementToken(app, [scope])).token),
      });
    }
    const projectGranted = await createManagementToken(app, [...allScopes], { grants: { projects: [elsewhere] } });
    callers.push({
      name: 'token granted another project',
      kind: 'token',
      role: 'owner',
      scopes: allScopes,
      grants: 'other-project',
      headers: bearer(projectGranted.token),
    });
    const environmentGranted = await createManagementToken(app, [...allScopes], {
      grants: { environments: [{ project, environment: 'development' }] },
    });
    callers.push({
      name: 'token granted one environment',
      kind: 'token',
      role: 'owner',
      scopes: allScopes,
      grants: 'environment',
      headers: bearer(environmentGranted.token),
    });

    // Console sessions: the owner's own password, and a member's after choosing their own.
    const ownerEmail = (await app.knex('accounts').where('ulid', app.ownerUlid).first('email')).email as string;
    expect((await app.mgmt('PUT', `/accounts/${app.ownerUlid}/password`, { password })).status).toBe(200);
    callers.push({
      name: 'owner session',
      kind: 'session',
      role: 'owner',
      scopes: [],
      grants: 'none',
      headers: await sessionHeaders(ownerEmail),
    });
    expect((await app.mgmt('PUT', `/accounts/${member.ulid}/password`, { password: 'temporary password 1' })).status).toBe(200);
    const temporary = await app.request('POST', '/management/v1/session', {
      body: { email: member.email, password: 'temporary password 1' },
    });
    const change = await app.request('PUT', '/management/v1/session/password', {
      headers: {
        cookie: (temporary.headers.get('set-cookie') ?? '').split(';')[0] as string,
        'x-csrf-token': temporary.body.data.csrf_token,
      },
      body: { current_password: 'temporary password 1', new_password: password },
    });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    callers.push({
      name: 'member session',
      kind: 'session',
      role: 'member',
      scopes: [],
      grants: 'none',
      headers: await sessionHeaders(member.email),
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reads every operation and the rules from the document', () => {
    expect(operations.length).toBeGreaterThan(75);
    expect(memberScopes).toEqual(new Set(['projects:read', 'flags:read', 'flags:write', 'targets:read', 'targets:write']));
    for (const op of operations) expect([...allScopes, 'personal', 'none'], op.id).toContain(op.scope);
  });

  it('refuses exactly the callers without the operation scope, on every operation', async () => {
    const wrong: string[] = [];
    // Callers side by side (each one's calls in order: a session signs out last).
    await Promise.all(
      callers.map(async (caller) => {
        for (const op of operations) {
          const res: ApiResponse = await app.request(op.method, absentPath(op.template), {
            headers: caller.headers,
            ...(op.hasBody ? { body: {} } : {}),
            skipContract: true,
          });
          const scopeRefusal = res.status === 403 && res.body?.required_scope !== undefined;
          const lacking = [op.scope, ...op.alsoScopes].filter((scope) => scope !== 'none' && !mayUse(caller, scope, memberScopes));
          const expected = op.scope === 'none' ? 'answer' : lacking.length > 0 ? 'refuse' : 'pass';
          const fine =
            res.status < 500 &&
            (expected === 'refuse'
              ? scopeRefusal && lacking.includes(res.body.required_scope)
              : !scopeRefusal && (expected === 'answer' || res.status !== 401));
          if (!fine) wrong.push(`${caller.name} ${op.id} (${op.scope}): ${res.status} ${JSON.stringify(res.body)}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
  }, 180_000);

  it('hides a project outside the grants or the account, and environments outside an environment grant', async () => {
    const wrong: string[] = [];
    // The reads of one project or environment, named by key only: each exists for the owner.
    const reads = operations.filter(
      (op) => op.method === 'GET' && op.template.includes('{projectKey}') && !/\{(?!projectKey|environmentKey)\w+\}/.test(op.template),
    );
    expect(reads.length).toBeGreaterThan(10);
    const realPath = (template: string) =>
      `/management/v1${template.replace('{projectKey}', project).replace('{environmentKey}', 'production')}`;
    for (const op of reads) {
      const owner = await app.request('GET', realPath(op.template), { token: app.ownerToken, skipContract: true });
      if (owner.status !== 200) wrong.push(`owner ${op.id}: ${owner.status}`);
      for (const caller of callers.filter((c) => c.grants !== 'none' && mayUse(c, op.scope, memberScopes))) {
        const res = await app.request('GET', realPath(op.template), { headers: caller.headers, skipContract: true });
        // The document: a project outside the grants is absent (404); with one environment granted,
        // project-level resources are readable, other environments absent, webhooks need the whole project (403).
        const expected =
          caller.grants === 'other-project'
            ? 404
            : op.template.includes('{environmentKey}')
              ? 404
              : op.template.includes('/webhooks')
                ? 403
                : 200;
        if (res.status !== expected) wrong.push(`${caller.name} ${op.id}: ${res.status}, expected ${expected}`);
      }
      const stranger = await createAccountWithToken(app, 'member', []);
      if (mayUse({ ...callers[2]!, headers: {} }, op.scope, memberScopes)) {
        const res = await app.request('GET', realPath(op.template), { token: stranger.token, skipContract: true });
        if (res.status !== 404) wrong.push(`member of no project ${op.id}: ${res.status}, expected 404`);
        const own = await app.request('GET', realPath(op.template), { headers: callers[2]!.headers, skipContract: true });
        if (own.status !== 200) wrong.push(`member of the project ${op.id}: ${own.status}, expected 200`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('answers every operation that names an environment outside an environment grant as for an absent one', async () => {
    // A flag that exists, so only the environment decides; other path ids name nothing.
    expect((await app.mgmt('POST', `/projects/${project}/flags`, { key: 'granted-walk', name: 'Walk', type: 'boolean' })).status).toBe(200);
    const caller = callers.find((c) => c.grants === 'environment')!;
    const named = operations.filter((op) => op.template.includes('{environmentKey}'));
    expect(named.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    const pathIn = (template: string, environment: string) =>
      `/management/v1${template
        .replace('{projectKey}', project)
        .replace('{flagKey}', 'granted-walk')
        .replace('{environmentKey}', environment)
        .replace(/\{(\w+)\}/g, (_m, name: string) => `${name.replace(/Ulid$/, '').slice(0, 3)}_01J00000000000000000000000`)}`;
    for (const op of named) {
      const res = await app.request(op.method, pathIn(op.template, 'production'), {
        headers: caller.headers,
        ...(op.hasBody ? { body: {} } : {}),
        skipContract: true,
      });
      // Absent (404), or refused by the body's schema before anything is read (nothing told).
      const schemaOnly = res.status === 422 && ['validation_failed', 'invalid_query'].includes(res.body?.code);
      if (res.status !== 404 && !schemaOnly) wrong.push(`${op.method} ${op.id}: ${res.status} ${JSON.stringify(res.body)}`);
      if (JSON.stringify(res.body ?? '').includes('"production"'))
        wrong.push(`${op.id} names the environment: ${JSON.stringify(res.body)}`);
    }
    // The project-level operations that name environments in their query or body.
    const byCaller = (method: string, path: string, body?: unknown) =>
      app.request(method, `/management/v1/projects/${project}${path}`, {
        headers: caller.headers,
        skipContract: true,
        ...(body ? { body } : {}),
      });
    for (const filter of ['on=production', 'off=production']) {
      const res = await byCaller('GET', `/flags?${filter}`);
      if (res.status !== 422 || res.body.code !== 'reference_not_found') wrong.push(`listFlags ${filter}: ${res.status}`);
    }
    for (const path of ['/flags?include=serving', '/flags/granted-walk?include=serving', '/configuration']) {
      const res = await byCaller('GET', path);
      if (res.status !== 200 || JSON.stringify(res.body).includes('"production"')) wrong.push(`${path}: ${res.status} names production`);
    }
    for (const body of [
      { from: 'development', to: 'production' },
      { from: 'production', to: 'development' },
    ]) {
      const res = await byCaller('POST', '/configuration/promote', body);
      if (res.status !== 404) wrong.push(`promote ${body.from} -> ${body.to}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
