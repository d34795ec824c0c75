import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { AuditWriter, type AuditEntryInput } from '../../src/audit/audit-trail.js';
import { auditUlid } from '../../src/audit/audit-ids.js';
import { purgeOldAuditEntries } from '../../src/features/audit-logs/retention.js';
import { KnexAuditLogStore } from '../../src/features/audit-logs/store.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { insertPublicAuditRows } from '../support/public-audit-rows.js';
import {
  eventually,
  flushPublicAudit,
  seedEnvironmentKey,
  seedProject,
  seedToken,
  uniqueKey,
  type SeededProject,
} from './audit-fixtures.js';
import { Fixtures } from './public-fixtures.js';

const spec = parse(readFileSync(new URL('../../specs/management.yaml', import.meta.url), 'utf8'));
const allActions: string[] = spec.components.schemas.AuditAction.enum;
const allResults: string[] = spec.components.schemas.AuditResult.enum;

interface Entry {
  ulid: string;
  actor: { type: string; ulid: string | null; name: string | null; email: string | null } | null;
  token: { ulid: string; name: string } | null;
  http_method: string | null;
  http_path: string | null;
  action: string;
  subject_type: string | null;
  subject_ulid: string | null;
  subject_label: string | null;
  result: string;
  status_code: number | null;
  created_at: string;
}

function system(subject: Partial<AuditEntryInput> & { action: string }): AuditEntryInput {
  return { principal: undefined, actorType: 'system', httpMethod: null, httpPath: null, result: 'success', statusCode: null, ...subject };
}

describeEachDatabase('audit logs', (db) => {
  let app: TestApp;
  const list = (query: string, token?: string) =>
    app.request('GET', `/management/v1/audit-logs${query}`, { token: token ?? app.ownerToken });
  const listPublic = (query: string, token?: string) =>
    app.request('GET', `/management/v1/api-public-audit-logs${query}`, { token: token ?? app.ownerToken });
  /** The entry of the newest request to an exact path, read through the API. */
  async function entryFor(path: string): Promise<Entry> {
    const row = await app.knex('audit_entries').where('http_path', path).orderBy('ulid', 'desc').first('ulid');
    expect(row, `no audit entry for ${path}`).toBeDefined();
    const at = encodeURIComponent(isoOf(row.ulid));
    const found = ((await listAll(`&from=${at}&to=${at}`)) as Entry[]).find((e) => e.ulid === row.ulid);
    expect(found).toBeDefined();
    return found as Entry;
  }
  /** Every entry matching a query string (which must start with &), following next_cursor. */
  async function listAll(query: string, token?: string, sort = 'created_at_desc', perPage = 100, publicLog = false): Promise<unknown[]> {
    const out: unknown[] = [];
    let cursor = '';
    for (let i = 0; i < 1000; i++) {
      const q = `?per_page=${perPage}&sort=${sort}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = publicLog ? await listPublic(q, token) : await list(q, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      out.push(...res.body.data);
      cursor = res.body.meta.next_cursor;
      if (!cursor) return out;
    }
    throw new Error('pagination did not end');
  }

  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('every management request is an entry', () => {
    it('records a missing, an invalid and an expired token with their own actions', async () => {
      const missing = `/management/v1/projects/${uniqueKey('p')}`;
      expect((await app.request('GET', missing)).status).toBe(401);
      const invalid = `/management/v1/projects/${uniqueKey('p')}`;
      expect((await app.request('GET', invalid, { token: 'mgt_' + 'x'.repeat(40) })).status).toBe(401);
      const expired = await seedToken(app, { scopes: ['projects:read'], expiresAt: '2000-01-01T00:00:00.000Z' });
      const expiredPath = `/management/v1/projects/${uniqueKey('p')}`;
      expect((await app.request('GET', expiredPath, { token: expired.token })).status).toBe(401);

      const a = await entryFor(missing);
      expect(a).toMatchObject({
        action: 'auth.missing_token',
        result: 'denied_auth',
        status_code: 401,
        actor: null,
        token: null,
        http_method: 'GET',
        http_path: missing,
      });
      expect((await entryFor(invalid)).action).toBe('auth.invalid_token');
      expect(await entryFor(expiredPath)).toMatchObject({ action: 'auth.expired_token', result: 'denied_auth' });
    });

    it('records a scope refusal, a 404, a 422 and an unknown path', async () => {
      const weak = await seedToken(app, { scopes: ['flags:read'], tier: 'unlimited' });
      const denied = await app.request('GET', '/management/v1/audit-logs?per_page=5', { token: weak.token });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ status: 'error', message: expect.any(String), required_scope: 'audit:read', code: expect.any(String) });
      const scopeEntry = await entryFor('/management/v1/audit-logs');
      expect(scopeEntry).toMatchObject({
        action: 'scope.denied',
        result: 'denied_scope',
        status_code: 403,
        actor: { type: 'management_token', ulid: weak.ulid, name: weak.name, email: null },
        token: { ulid: weak.ulid, name: weak.name },
      });

      const notFoundPath = '/management/v1/projects/NOT_A_KEY';
      expect((await app.mgmt('GET', '/projects/NOT_A_KEY')).status).toBe(404);
      expect(await entryFor(notFoundPath)).toMatchObject({ action: 'project.read', result: 'not_found', status_code: 404 });

      const bad = await list('?per_page=0');
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ status: 'error', message: expect.any(String), code: expect.any(String) });
      const invalid = (await listAll('&action=audit_log.listed&result=invalid')) as Entry[];
      expect(invalid.length).toBeGreaterThan(0);
      expect(invalid[0]).toMatchObject({ status_code: 422, http_method: 'GET', http_path: '/management/v1/audit-logs' });

      const unknownPath = `/management/v1/${uniqueKey('nowhere')}`;
      expect((await app.mgmt('GET', unknownPath.slice('/management/v1'.length))).status).toBe(404);
      expect(await entryFor(unknownPath)).toMatchObject({ action: 'unknown', result: 'not_found' });
    });

    it('names the account of a personal access token as actor and the token used', async () => {
      await list('?per_page=1');
      const [entry] = (await list('?per_page=1&action=audit_log.listed&result=success')).body.data as Entry[];
      const pat = await app.knex('personal_access_tokens').where('account_ulid', app.ownerUlid).first('ulid', 'name');
      expect(entry).toMatchObject({
        actor: { type: 'account', ulid: app.ownerUlid, name: 'Test Owner', email: expect.stringContaining('@') },
        token: { ulid: pat.ulid, name: pat.name },
        http_method: 'GET',
        http_path: '/management/v1/audit-logs',
        status_code: 200,
      });
      expect(entry?.ulid).toMatch(/^aud_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(Date.parse(entry?.created_at ?? '')).not.toBeNaN();
    });

    it('shows system entries with actor system and no HTTP request', async () => {
      const subject = `tgt_${uniqueKey('sys')}`;
      await app.composition.auditWriter.writeSystem(app.knex, {
        action: 'target.published',
        subjectType: 'target',
        subjectUlid: subject,
        subjectLabel: 'flag/production',
      });
      const res = await list(`?subject_ulid=${subject}`);
      expect(res.body.data).toEqual([
        expect.objectContaining({
          actor: { type: 'system', ulid: null, name: 'system', email: null },
          token: null,
          http_method: null,
          http_path: null,
          status_code: null,
          action: 'target.published',
          result: 'success',
          subject_type: 'target',
          subject_label: 'flag/production',
          request: null,
        }),
      ]);
    });

    it('gives the entries of one request one request ulid and the action of its operation', async () => {
      const key = uniqueKey('req');
      await app.mgmt('POST', '/projects', { key, name: key, environments: [{ key: 'production', name: 'Production' }] });
      const flag = await app.mgmt('POST', `/projects/${key}/flags`, { key: 'gate', name: 'Gate', type: 'boolean' });
      expect(flag.status).toBe(200);
      // A serve writes the entries of the target it creates and publishes beside its own.
      const served = await app.mgmt('POST', `/projects/${key}/flags/gate/environments/production/serve`, {
        value: 'true',
        comment: 'open',
      });
      expect(served.status, JSON.stringify(served.body)).toBe(200);
      const entries = (
        (await listAll(`&project=${key}&kind=changes`, undefined, 'created_at_asc')) as Array<
          Entry & { request: { ulid: string; action: string } | null }
        >
      ).filter((e) => e.http_path?.endsWith('/serve'));
      expect(entries.length, JSON.stringify(entries.map((e) => e.action))).toBeGreaterThan(1);
      expect(new Set(entries.map((e) => e.request?.ulid)).size).toBe(1);
      expect(entries[0]!.request).toEqual({ ulid: expect.stringMatching(/^req_[0-9A-HJKMNP-TV-Z]{26}$/), action: 'target.served' });
      // Another request, another ulid: the flag's creation.
      const created = (
        (await listAll(`&project=${key}&action=flag.created`)) as Array<Entry & { request: { ulid: string; action: string } }>
      )[0]!;
      expect(created.request.action).toBe('flag.created');
      expect(created.request.ulid).not.toBe(entries[0]!.request!.ulid);
    });
  });

  describe('filters', () => {
    it('filters by every action', async () => {
      const marker = `sub_${uniqueKey('act')}`;
      for (const action of allActions) {
        await app.composition.auditWriter.write(app.knex, system({ action, subjectUlid: marker }));
      }
      for (const action of allActions) {
        const res = await list(`?per_page=100&action=${action}`);
        expect(res.status, action).toBe(200);
        const data = res.body.data as Entry[];
        expect(
          data.every((e) => e.action === action),
          action,
        ).toBe(true);
        expect(
          data.some((e) => e.subject_ulid === marker),
          action,
        ).toBe(true);
      }
      const both = (await listAll(`&subject_ulid=${marker}`)) as Entry[];
      expect(both.map((e) => e.action).sort()).toEqual([...allActions].sort());
    });

    it('filters by result, subject type, subject, management token and actor, combined with AND', async () => {
      const marker = `sub_${uniqueKey('f')}`;
      const token = await seedToken(app, { scopes: ['audit:read'], tier: 'unlimited' });
      for (const result of allResults) {
        await app.composition.auditWriter.write(
          app.knex,
          system({ action: 'flag.read', result, subjectUlid: marker, subjectType: 'flag' }),
        );
      }
      await app.composition.auditWriter.write(app.knex, system({ action: 'flag.read', subjectUlid: marker, subjectType: 'segment' }));
      for (const result of allResults) {
        const data = (await listAll(`&subject_ulid=${marker}&result=${result}`)) as Entry[];
        expect(
          data.map((e) => e.result),
          result,
        ).toEqual(result === 'success' ? ['success', 'success'] : [result]);
      }
      expect(((await listAll(`&subject_ulid=${marker}&subject_type=segment`)) as Entry[]).length).toBe(1);
      expect(((await listAll(`&subject_ulid=${marker}&subject_type=flag`)) as Entry[]).length).toBe(allResults.length);

      // A request made with the token: found by management_token_ulid and by actor_ulid (the token is the actor).
      expect((await list('?per_page=2', token.token)).status).toBe(200);
      const byToken = (await listAll(`&management_token_ulid=${token.ulid}`)) as Entry[];
      expect(byToken.length).toBe(1);
      expect(byToken[0]?.token?.ulid).toBe(token.ulid);
      expect(((await listAll(`&actor_ulid=${token.ulid}`)) as Entry[]).map((e) => e.ulid)).toEqual(byToken.map((e) => e.ulid));
      const byOwner = (await list(`?per_page=100&actor_ulid=${app.ownerUlid}`)).body.data as Entry[];
      expect(byOwner.length).toBeGreaterThan(0);
      expect(byOwner.every((e) => e.actor?.ulid === app.ownerUlid)).toBe(true);
      expect(((await listAll(`&actor_ulid=${token.ulid}&result=denied_auth`)) as Entry[]).length).toBe(0);
    });

    it('bounds created_at inclusively with from and to', async () => {
      const marker = `sub_${uniqueKey('t')}`;
      const writer = app.composition.auditWriter;
      const created: string[] = [];
      for (let i = 0; i < 3; i++) {
        await writer.write(app.knex, system({ action: 'flag.read', subjectUlid: marker }));
        const row = await app.knex('audit_entries').where('subject_ulid', marker).orderBy('ulid', 'desc').first('created_at');
        created.push(row.created_at);
        app.clock.advance(1000);
      }
      const [t0, t1, t2] = created as [string, string, string];
      const q = (from?: string, to?: string) =>
        listAll(
          `&subject_ulid=${marker}${from ? `&from=${encodeURIComponent(from)}` : ''}${to ? `&to=${encodeURIComponent(to)}` : ''}`,
          undefined,
          'created_at_asc',
        );
      const times = async (from?: string, to?: string) => ((await q(from, to)) as Entry[]).map((e) => e.created_at);
      expect(await times(t1, t2)).toEqual([t1, t2]);
      expect(await times(t1, t1)).toEqual([t1]);
      expect(await times(undefined, t0)).toEqual([t0]);
      expect(await times(t1)).toEqual([t1, t2]);
      // A bound a fraction of a millisecond after an entry excludes it (from) / includes the one before (to).
      expect(await times(t1.replace('Z', '1Z'), undefined)).toEqual([t2]);
      expect(await times(undefined, t2.replace('Z', '9Z'))).toEqual([t0, t1, t2]);
      // Offsets other than Z mean the same instant.
      const plusTwo = new Date(Date.parse(t1) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      expect(await times(plusTwo, plusTwo)).toEqual([t1]);

      const reversed = await list(`?from=${encodeURIComponent(t2)}&to=${encodeURIComponent(t1)}`);
      expect(reversed.status).toBe(422);
      expect(reversed.body).toEqual({ status: 'error', message: expect.stringContaining('from'), code: expect.any(String) });
    });

    it('refuses bad parameters with 422 in the standard envelope and changes nothing', async () => {
      const before = await app.knex('audit_entries').count({ n: '*' }).first();
      for (const query of [
        '?per_page=0',
        '?per_page=101',
        '?per_page=abc',
        '?sort=newest',
        '?from=yesterday',
        '?to=2024-13-45T00:00:00Z',
        '?action=flag.exploded',
        '?result=maybe',
        '?subject_type=planet',
        '?cursor=not-a-cursor',
        `?subject_ulid=${'x'.repeat(101)}`,
      ]) {
        for (const call of [list, listPublic]) {
          const res = await call(query);
          expect(res.status, query).toBe(422);
          expect(res.body, query).toEqual({ status: 'error', message: expect.any(String), code: expect.any(String) });
        }
      }
      // Only the refused requests' own audit entries were added. Each is written just after its
      // answer, so the last ones may still be on their way: wait for them (at most 5 s).
      const added = async () => Number((await app.knex('audit_entries').count({ n: '*' }).first())?.n) - Number(before?.n);
      for (let waited = 0; waited < 5000 && (await added()) < 22; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(await added()).toBe(22);
    });
  });

  describe('pagination', () => {
    it('pages by ulid in both directions with meta {per_page, sort, next_cursor}', async () => {
      const marker = `sub_${uniqueKey('page')}`;
      for (let i = 0; i < 23; i++) {
        await app.composition.auditWriter.write(app.knex, system({ action: 'flag.read', subjectUlid: marker, subjectLabel: String(i) }));
      }
      const expected = (await app.knex('audit_entries').where('subject_ulid', marker).orderBy('ulid', 'asc').select('ulid')).map(
        (r: { ulid: string }) => r.ulid,
      );
      expect(expected.length).toBe(23);

      const first = await list(`?per_page=10&subject_ulid=${marker}`);
      expect(first.body.meta).toEqual({ per_page: 10, sort: 'created_at_desc', next_cursor: expect.any(String) });
      const desc = (await listAll(`&subject_ulid=${marker}`, undefined, 'created_at_desc', 10)) as Entry[];
      expect(desc.map((e) => e.ulid)).toEqual([...expected].reverse());
      expect(desc.map((e) => e.subject_label)).toEqual([...Array(23).keys()].reverse().map(String));
      const asc = (await listAll(`&subject_ulid=${marker}`, undefined, 'created_at_asc', 7)) as Entry[];
      expect(asc.map((e) => e.ulid)).toEqual(expected);

      const lastPage = await list(`?per_page=23&subject_ulid=${marker}`);
      expect(lastPage.body.meta.next_cursor).toBeNull();
      const defaults = await list(`?subject_ulid=${marker}`);
      expect(defaults.body.meta).toMatchObject({ per_page: 25, sort: 'created_at_desc', next_cursor: null });
      expect(defaults.body.data.length).toBe(23);

      // A cursor belongs to its list and sort order.
      const descCursor = first.body.meta.next_cursor as string;
      expect((await list(`?per_page=10&sort=created_at_asc&subject_ulid=${marker}&cursor=${descCursor}`)).status).toBe(422);
      expect((await listPublic(`?per_page=10&cursor=${descCursor}`)).status).toBe(422);
    });
  });

  describe('grants', () => {
    let a: SeededProject;
    let b: SeededProject;
    const marker = `sub_${Math.random().toString(36).slice(2)}`;
    const labels = (data: Entry[]) => data.map((e) => e.subject_label).sort();

    beforeAll(async () => {
      a = await seedProject(app);
      b = await seedProject(app);
      const w = app.composition.auditWriter;
      const rows: Array<[string, string | undefined, string | undefined]> = [
        ['a', a.ulid, undefined],
        ['a-dev', a.ulid, a.environments.development],
        ['a-prod', a.ulid, a.environments.production],
        ['b', b.ulid, undefined],
        ['none', undefined, undefined],
      ];
      for (const [label, projectUlid, environmentUlid] of rows) {
        await w.write(app.knex, system({ action: 'flag.updated', subjectUlid: marker, subjectLabel: label, projectUlid, environmentUlid }));
        app.composition.publicAudit.record({
          actor_type: 'sdk_key',
          actor_ulid: null,
          environment_ulid: environmentUlid ?? null,
          environment_key: environmentUlid ? 'env' : null,
          project_ulid: projectUlid ?? null,
          http_method: 'GET',
          http_path: '/v1/flags',
          action: 'flag.evaluated',
          subject_type: 'environment',
          subject_ulid: marker,
          subject_label: label,
          result: 'success',
          status_code: 200,
        });
      }
      await flushPublicAudit(app);
    });

    it('shows a token only the entries of projects and environments it may reach', async () => {
      const all = await seedToken(app, { scopes: ['audit:read'], tier: 'unlimited' });
      const onlyA = await seedToken(app, { scopes: ['audit:read'], tier: 'unlimited', projects: [a.ulid] });
      const aDev = await seedToken(app, {
        scopes: ['audit:read'],
        tier: 'unlimited',
        environments: [{ projectUlid: a.ulid, environmentUlid: a.environments.development as string }],
      });
      const onlyB = await seedToken(app, { scopes: ['audit:read'], tier: 'unlimited', projects: [b.ulid] });
      for (const publicLog of [false, true]) {
        const seen = async (token: string) =>
          labels((await listAll(`&subject_ulid=${marker}`, token, 'created_at_desc', 2, publicLog)) as Entry[]);
        expect(await seen(all.token)).toEqual(['a', 'a-dev', 'a-prod', 'b', 'none']);
        expect(await seen(app.ownerToken)).toEqual(['a', 'a-dev', 'a-prod', 'b', 'none']);
        expect(await seen(onlyA.token)).toEqual(['a', 'a-dev', 'a-prod']);
        expect(await seen(aDev.token)).toEqual(['a', 'a-dev']);
        expect(await seen(onlyB.token)).toEqual(['b']);
      }
    });

    it('refuses callers without audit:read on both logs', async () => {
      const weak = await seedToken(app, { scopes: ['flags:read', 'targets:write', 'config:write'], tier: 'unlimited' });
      for (const call of [list, listPublic]) {
        const res = await call('', weak.token);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ status: 'error', message: expect.any(String), required_scope: 'audit:read', code: expect.any(String) });
        expect((await call('')).status).toBe(200);
        const anonymous = await app.request('GET', '/management/v1/audit-logs');
        expect(anonymous.status).toBe(401);
      }
    });
  });

  describe('public API audit log', () => {
    it('records every public request in batches: anonymous, refused and keyed', async () => {
      const project = await seedProject(app);
      const key = await seedEnvironmentKey(app, project.environments.production as string);
      const mobile = await seedEnvironmentKey(app, project.environments.production as string, 'mobile');
      expect((await app.request('GET', '/v1/api-docs')).status).toBe(200);
      expect((await app.request('GET', '/v1/flags')).status).toBe(401);
      expect((await app.request('GET', '/v1/flags', { apiKey: 'srv_' + 'y'.repeat(40) })).status).toBe(401);
      // A mobile key is the wrong kind for GET /v1/flags.
      expect((await app.request('GET', '/v1/flags', { apiKey: mobile.key })).status).toBe(401);
      const keyed = await app.request('GET', '/v1/flags/some-flag', { apiKey: key.key });
      await flushPublicAudit(app);

      const mine = (await listAll(`&actor_ulid=${key.ulid}`, undefined, 'created_at_asc', 100, true)) as Array<Record<string, unknown>>;
      expect(mine).toEqual([
        {
          ulid: expect.stringMatching(/^aud_/),
          actor_type: 'sdk_key',
          actor_ulid: key.ulid,
          environment: { ulid: project.environments.production, key: 'production' },
          action: 'flag.evaluated',
          subject_type: 'flag',
          subject_ulid: null,
          subject_label: 'some-flag',
          result: keyed.status === 200 ? 'success' : keyed.status === 404 ? 'not_found' : 'error',
          status_code: keyed.status,
          count: 1,
          created_at: expect.any(String),
        },
      ]);
      const missing = (await listPublic('?per_page=5&action=auth.missing_key', undefined)).body.data;
      expect(missing[0]).toMatchObject({
        actor_type: 'anonymous',
        actor_ulid: null,
        environment: null,
        result: 'denied_auth',
        status_code: 401,
      });
      const invalid = (await listPublic('?per_page=5&action=auth.invalid_key')).body.data;
      expect(invalid.length).toBeGreaterThanOrEqual(1);
      // The key of the wrong kind is refused with 401, and that refusal is an entry naming the key.
      const recent = (await listPublic('?per_page=25')).body.data as Array<Record<string, unknown>>;
      expect(recent.some((entry) => entry.status_code === 401 && entry.actor_ulid === mobile.ulid)).toBe(true);
      expect((await listPublic('?per_page=5&action=api_docs.read')).body.data[0]).toMatchObject({
        actor_type: 'anonymous',
        result: 'success',
        status_code: 200,
      });
      // Public requests carry no management token.
      expect((await listPublic(`?management_token_ulid=${(await seedToken(app, { scopes: [] })).ulid}`)).body.data).toEqual([]);
    });

    it('fills in the flag ulid when the flag exists, also before the serving snapshot holds it', async () => {
      const project = await seedProject(app);
      const key = await seedEnvironmentKey(app, project.environments.production as string);
      // The environment's snapshot is loaded first: the flag, inserted below without a revision,
      // is then in the database but not in the snapshot, and its entry is named by the writer.
      expect((await app.request('GET', '/v1/flags', { apiKey: key.key })).status).toBe(200);
      const now = app.clock.now().toISOString();
      const flagUlid = `flg_${uniqueKey('x').replace(/-/g, '')}`;
      await app.knex('flags').insert({
        ulid: flagUlid,
        project_ulid: project.ulid,
        key: 'known-flag',
        name: 'Known',
        type: 'boolean',
        description: null,
        permanent: false,
        include_in_mobile: true,
        include_in_client: true,
        created_at: now,
        updated_at: now,
      });
      expect((await app.request('GET', '/v1/flags/known-flag', { apiKey: key.key })).status).toBe(404);
      await flushPublicAudit(app);
      const entries = (await listPublic(`?actor_ulid=${key.ulid}`)).body.data;
      expect(entries[0]).toMatchObject({ subject_type: 'flag', subject_ulid: flagUlid, subject_label: 'known-flag' });
      expect((await listPublic(`?subject_ulid=${flagUlid}&subject_type=flag`)).body.data.length).toBe(1);
    });

    it('records GET /v1/flags and GET /v1/flags/{flagKey} as flag.evaluated', async () => {
      const fx = new Fixtures(app);
      const { project, env } = await fx.keyedEnvironment('production');
      const flag = await fx.flag(project, { key: 'evaluated-flag', type: 'boolean' });
      await fx.publish(env, flag, { value: 'true' });
      await fx.settle(env);
      const keyUlid = (await app.knex('environment_keys').where('environment_ulid', env.ulid).where('kind', 'server').first()).ulid;
      expect((await app.request('GET', '/v1/flags', { apiKey: env.serverKey })).status).toBe(200);
      expect((await app.request('GET', '/v1/flags/evaluated-flag', { apiKey: env.serverKey })).status).toBe(200);
      await flushPublicAudit(app);

      // (settle() above read GET /v1/payload with the same key.)
      const rows: Array<Record<string, unknown>> = await app
        .knex('public_audit_entries')
        .where('actor_ulid', keyUlid)
        .whereIn('http_path', ['/v1/flags', '/v1/flags/evaluated-flag'])
        .orderBy('http_path')
        .select('http_method', 'http_path', 'action', 'subject_type', 'subject_ulid', 'status_code');
      expect(rows.map((row) => ({ ...row, status_code: Number(row.status_code) }))).toEqual([
        {
          http_method: 'GET',
          http_path: '/v1/flags',
          action: 'flag.evaluated',
          subject_type: 'environment',
          subject_ulid: env.ulid,
          status_code: 200,
        },
        {
          http_method: 'GET',
          http_path: '/v1/flags/evaluated-flag',
          action: 'flag.evaluated',
          subject_type: 'flag',
          subject_ulid: flag.ulid,
          status_code: 200,
        },
      ]);
      const listed = (await listPublic(`?actor_ulid=${keyUlid}&action=flag.evaluated`)).body.data as Entry[];
      expect(listed.map((entry) => entry.subject_type).sort()).toEqual(['environment', 'flag']);
    });

    it('is written by the background task without an explicit flush', async () => {
      const path = `/v1/flags/${uniqueKey('bg')}`;
      await app.request('GET', path);
      const row = await eventually(async () => app.knex('public_audit_entries').where('http_path', path).first(), 5000);
      expect(row.action).toBe('auth.missing_key');
    });
  });

  describe('retention', () => {
    it('deletes entries of both logs older than the retention period', async () => {
      const marker = `sub_${uniqueKey('old')}`;
      const old = new AuditWriter({ now: () => new Date(app.clock.now().getTime() - 40 * 86_400_000) });
      await old.write(app.knex, system({ action: 'flag.read', subjectUlid: marker, subjectLabel: 'old' }));
      await app.composition.auditWriter.write(app.knex, system({ action: 'flag.read', subjectUlid: marker, subjectLabel: 'new' }));
      const oldTime = new Date(app.clock.now().getTime() - 40 * 86_400_000);
      await insertPublicAuditRows(app.knex, [
        {
          ulid: auditUlid(oldTime),
          created_at: oldTime.toISOString(),
          actor_type: 'anonymous',
          http_method: 'GET',
          http_path: '/v1/flags',
          action: 'auth.missing_key',
          subject_ulid: marker,
          result: 'denied_auth',
          status_code: 401,
        },
      ]);
      const store = new KnexAuditLogStore(app.composition.core.dialect);
      expect(await purgeOldAuditEntries(store, app.knex, app.clock, 0)).toEqual({ management: 0, public: 0 });
      const purged = await purgeOldAuditEntries(store, app.knex, app.clock, 30, 1);
      expect(purged.management).toBeGreaterThanOrEqual(1);
      expect(purged.public).toBeGreaterThanOrEqual(1);
      const left = await app.knex('audit_entries').where('subject_ulid', marker).select('subject_label');
      expect(left).toEqual([{ subject_label: 'new' }]);
      expect(await app.knex('public_audit_entries').where('subject_ulid', marker).first()).toBeUndefined();
    });
  });
});

function isoOf(ulid: string): string {
  const chars = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let ms = 0;
  for (const c of ulid.slice(4, 14)) ms = ms * 32 + chars.indexOf(c);
  return new Date(ms).toISOString();
}
