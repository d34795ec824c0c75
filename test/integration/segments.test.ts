import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';

const SEGMENTS = '/projects/shop/segments';
const ENV = '/projects/shop/flags/checkout/environments/production';

describeEachDatabase('segments', (db) => {
  let app: TestApp;
  let shopUlid: string;
  let valTrue: string;

  beforeAll(async () => {
    app = await startTestApp(db);
    shopUlid = (await app.mgmt('POST', '/projects', { key: 'shop', name: 'Shop' })).body.data.ulid;
    expect((await app.mgmt('POST', '/projects', { key: 'other', name: 'Other' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects/shop/flags', { key: 'checkout', name: 'Checkout', type: 'boolean' })).status).toBe(200);
    const values = (await app.mgmt('GET', '/projects/shop/flags/checkout/values')).body.data as { ulid: string; display: string }[];
    valTrue = values.find((v) => v.display === 'true')!.ulid;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function revisions(): Promise<Record<string, number>> {
    const rows = await app
      .knex('environments')
      .join('projects', 'projects.ulid', 'environments.project_ulid')
      .select('projects.key as p', 'environments.key as e', 'environments.revision as r');
    return Object.fromEntries(rows.map((row) => [`${row.p}/${row.e}`, Number(row.r)]));
  }

  async function snapshot() {
    return {
      segments: await app.knex('segments').orderBy('ulid').select(),
      revisions: await revisions(),
      changes: await app
        .knex('audit_entries')
        .where('result', 'success')
        .whereIn('action', ['segment.created', 'segment.updated', 'segment.deleted'])
        .count({ n: '*' }),
    };
  }

  function expectFieldErrors(res: ApiResponse, fields: string[]): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(typeof res.body.message).toBe('string');
    for (const field of fields) expect(Object.keys(res.body.errors), JSON.stringify(res.body)).toContain(field);
  }

  function expectEnvelope(res: ApiResponse, status: number): void {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ status: 'error', message: expect.any(String) });
  }

  async function createSegment(body: Record<string, unknown>, path = SEGMENTS) {
    const res = await app.mgmt('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  async function token(scopes: string[], grants?: Record<string, unknown>): Promise<string> {
    const res = await app.mgmt('POST', '/tokens', { name: 'segments', scopes, ...(grants ? { grants } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.token;
  }

  const evaluate = async (identifier: string, attributes: { key: string; values: { value: string }[] }[] = []) => {
    const context = encodeURIComponent(JSON.stringify({ type: 'user', identifier, attributes }));
    const res = await app.mgmt('GET', `${ENV}/evaluate?context=${context}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.resolved_by as string;
  };

  describe('create, read, list', () => {
    it('creates a segment, bumps every environment of the project and audits it', async () => {
      const before = await revisions();
      const created = await createSegment({
        key: 'beta-testers',
        name: 'Beta testers',
        description: 'Opted in',
        included: ['u-1', 'u-2'],
        excluded: ['u-3'],
        rules: [
          {
            criteria: [
              { selector: 'attribute', sub_selector: 'beta', comparer: 'equal', values: ['true'] },
              { selector: 'attribute', sub_selector: 'email', comparer: 'notnull' },
            ],
          },
          { criteria: [{ selector: 'context', sub_selector: 'organization', comparer: 'in', values: ['org-1'] }] },
        ],
      });
      expect(created).toEqual({
        ulid: expect.stringMatching(/^seg_/),
        key: 'beta-testers',
        name: 'Beta testers',
        description: 'Opted in',
        included: ['u-1', 'u-2'],
        excluded: ['u-3'],
        rules: [
          {
            criteria: [
              { selector: 'attribute', sub_selector: 'beta', comparer: 'equal', values: ['true'] },
              { selector: 'attribute', sub_selector: 'email', comparer: 'notnull', values: [] },
            ],
          },
          { criteria: [{ selector: 'context', sub_selector: 'organization', comparer: 'in', values: ['org-1'] }] },
        ],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const after = await revisions();
      expect(after['shop/development']).toBe(before['shop/development']! + 1);
      expect(after['shop/production']).toBe(before['shop/production']! + 1);
      expect(after['other/production']).toBe(before['other/production']);

      const got = await app.mgmt('GET', `${SEGMENTS}/beta-testers`);
      expect(got.status).toBe(200);
      expect(got.body.data).toEqual(created);
      const entry = await app.knex('audit_entries').where({ action: 'segment.created', subject_ulid: created.ulid }).first();
      expect(entry).toMatchObject({ subject_type: 'segment', subject_label: 'beta-testers', result: 'success', project_ulid: shopUlid });
      const read = await app.knex('audit_entries').where({ action: 'segment.read', subject_ulid: created.ulid }).first();
      expect(read).toMatchObject({ subject_type: 'segment', result: 'success' });
    });

    it('defaults optional fields', async () => {
      const created = await createSegment({ key: 'plain', name: 'Plain' });
      expect(created).toMatchObject({ description: null, included: [], excluded: [], rules: [] });
    });

    it('lists the project segments in creation order, paginated', async () => {
      const project = '/projects/other/segments';
      for (const key of ['s1', 's2', 's3']) await createSegment({ key, name: key }, project);
      const first = await app.mgmt('GET', `${project}?per_page=2`);
      expect(first.status).toBe(200);
      expect(first.body.data.map((s: { key: string }) => s.key)).toEqual(['s1', 's2']);
      expect(first.body.meta).toMatchObject({ per_page: 2, prev_cursor: null, next_cursor: expect.any(String) });
      const second = await app.mgmt('GET', `${project}?per_page=2&cursor=${first.body.meta.next_cursor}`);
      expect(second.body.data.map((s: { key: string }) => s.key)).toEqual(['s3']);
      expect(second.body.meta.next_cursor).toBeNull();
      const back = await app.mgmt('GET', `${project}?per_page=2&cursor=${second.body.meta.prev_cursor}`);
      expect(back.body.data.map((s: { key: string }) => s.key)).toEqual(['s1', 's2']);
      expectEnvelope(await app.mgmt('GET', `${project}?per_page=0`), 422);
      expectEnvelope(await app.mgmt('GET', `${project}?cursor=garbage`), 422);
      // A cursor of one project's list is refused on another's.
      expectEnvelope(await app.mgmt('GET', `${SEGMENTS}?cursor=${first.body.meta.next_cursor}`), 422);
      const all = await app.mgmt('GET', SEGMENTS);
      expect(all.body.data.every((s: { key: string }) => !s.key.startsWith('s'))).toBe(true);
    });

    it('refuses invalid bodies field by field and writes nothing', async () => {
      await createSegment({ key: 'taken', name: 'Taken' });
      const before = await snapshot();
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['key', 'name']],
        [{ key: 'taken', name: 'Again' }, ['key']],
        [{ key: 'Bad Key', name: 'x' }, ['key']],
        [{ key: 'ok', name: '' }, ['name']],
        [{ key: 'ok', name: 'x', extra: true }, ['extra']],
        [{ key: 'ok', name: 'x', included: ['a', 'a'] }, ['included']],
        [{ key: 'ok', name: 'x', excluded: [''] }, ['excluded.0']],
        [{ key: 'ok', name: 'x', rules: [{ criteria: [] }] }, ['rules.0.criteria']],
        [
          { key: 'ok', name: 'x', rules: [{ criteria: [{ selector: 'segment', comparer: 'in', values: ['taken'] }] }] },
          ['rules.0.criteria.0.selector'],
        ],
        [
          { key: 'ok', name: 'x', rules: [{ criteria: [{ selector: 'context', comparer: 'gt', values: ['1'] }] }] },
          ['rules.0.criteria.0.comparer'],
        ],
        [
          { key: 'ok', name: 'x', rules: [{ criteria: [{ selector: 'attribute', comparer: 'equal', values: ['1'] }] }] },
          ['rules.0.criteria.0.sub_selector'],
        ],
        [
          { key: 'ok', name: 'x', rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'isnull', values: [] }] }] },
          ['rules.0.criteria.0.values'],
        ],
        [
          {
            key: 'ok',
            name: 'x',
            rules: [
              { criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'equal', values: ['1'] }] },
              { criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'lte', values: ['ten'] }] },
            ],
          },
          ['rules.1.criteria.0.values.0'],
        ],
      ];
      for (const [body, fields] of cases) expectFieldErrors(await app.mgmt('POST', SEGMENTS, body), fields);
      expect(await snapshot()).toEqual(before);
      expectEnvelope(await app.mgmt('POST', '/projects/nope/segments', { key: 'x', name: 'x' }), 404);
      expectEnvelope(await app.mgmt('GET', `${SEGMENTS}/nope`), 404);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('update', () => {
    it('replaces the segment entirely; the key stays; revisions move', async () => {
      const created = await createSegment({
        key: 'replace-me',
        name: 'Replace me',
        description: 'old',
        included: ['u-1'],
        excluded: ['u-2'],
        rules: [{ criteria: [{ selector: 'context', comparer: 'equal', values: ['u-9'] }] }],
      });
      const before = await revisions();
      const res = await app.mgmt('PUT', `${SEGMENTS}/replace-me`, { name: 'Replaced' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({
        ...created,
        name: 'Replaced',
        description: null,
        included: [],
        excluded: [],
        rules: [],
        updated_at: expect.any(String),
      });
      expect((await app.mgmt('GET', `${SEGMENTS}/replace-me`)).body.data).toEqual(res.body.data);
      const after = await revisions();
      expect(after['shop/production']).toBe(before['shop/production']! + 1);
      expect(after['shop/development']).toBe(before['shop/development']! + 1);
      expect(after['other/development']).toBe(before['other/development']);
      expect(
        await app
          .knex('audit_entries')
          .where({ action: 'segment.updated', subject_ulid: created.ulid, result: 'success' })
          .count({ n: '*' }),
      ).toEqual([{ n: 1 }]);
    });

    it('refuses a key change, invalid bodies and unknown segments without changing anything', async () => {
      await createSegment({ key: 'stable', name: 'Stable' });
      const before = await snapshot();
      expectFieldErrors(await app.mgmt('PUT', `${SEGMENTS}/stable`, { key: 'renamed', name: 'Stable' }), ['key']);
      expectFieldErrors(await app.mgmt('PUT', `${SEGMENTS}/stable`, { description: 'no name' }), ['name']);
      expectFieldErrors(
        await app.mgmt('PUT', `${SEGMENTS}/stable`, {
          name: 'x',
          rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'startswith' }] }],
        }),
        ['rules.0.criteria.0.values'],
      );
      expectEnvelope(await app.mgmt('PUT', `${SEGMENTS}/missing`, { name: 'x' }), 404);
      expectEnvelope(await app.mgmt('PUT', '/projects/other/segments/stable', { name: 'x' }), 404);
      expect(await snapshot()).toEqual(before);
    });

    it('changes what published rules naming the segment serve', async () => {
      await createSegment({ key: 'served', name: 'Served', included: ['u-in'] });
      const draft = (await app.mgmt('POST', `${ENV}/targets`)).body.data.ulid;
      const created = await app.mgmt('POST', `${ENV}/targets/${draft}/rules`, {
        value_ulid: valTrue,
        description: 'segment members',
        criteria: [{ selector: 'segment', comparer: 'in', values: ['served'] }],
      });
      expect(created.status).toBe(200);
      expect((await app.mgmt('PUT', `${ENV}/targets/${draft}/publish`, {})).status).toBe(200);
      expect(await evaluate('u-in')).toBe('rule');
      expect(await evaluate('u-out')).toBe('target');
      expect((await app.mgmt('PUT', `${SEGMENTS}/served`, { name: 'Served', included: ['u-out'] })).status).toBe(200);
      expect(await evaluate('u-in')).toBe('target');
      expect(await evaluate('u-out')).toBe('rule');
      expect(
        (
          await app.mgmt('PUT', `${SEGMENTS}/served`, {
            name: 'Served',
            excluded: ['u-out'],
            rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
          })
        ).status,
      ).toBe(200);
      expect(await evaluate('u-out', [{ key: 'plan', values: [{ value: 'pro' }] }])).toBe('target');
      expect(await evaluate('u-new', [{ key: 'plan', values: [{ value: 'pro' }] }])).toBe('rule');
      expect(await evaluate('u-new', [{ key: 'plan', values: [{ value: 'free' }] }])).toBe('target');
    });
  });

  describe('delete', () => {
    it('deletes an unused segment and bumps revisions', async () => {
      const created = await createSegment({ key: 'unused', name: 'Unused' });
      const before = await revisions();
      const res = await app.mgmt('DELETE', `${SEGMENTS}/unused`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
      expectEnvelope(await app.mgmt('GET', `${SEGMENTS}/unused`), 404);
      expect((await revisions())['shop/production']).toBe(before['shop/production']! + 1);
      expect(
        await app
          .knex('audit_entries')
          .where({ action: 'segment.deleted', subject_ulid: created.ulid, result: 'success' })
          .count({ n: '*' }),
      ).toEqual([{ n: 1 }]);
      expectEnvelope(await app.mgmt('DELETE', `${SEGMENTS}/unused`), 404);
    });

    it('refuses while a draft or published rule refers to it; expired targets do not hold it', async () => {
      await createSegment({ key: 'held', name: 'Held' });
      const draft = (await app.mgmt('POST', `${ENV}/targets`)).body.data.ulid;
      const rule = (
        await app.mgmt('POST', `${ENV}/targets/${draft}/rules`, {
          value_ulid: valTrue,
          description: 'held',
          criteria: [
            { selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['x'] },
            { selector: 'segment', comparer: 'notin', values: ['held'] },
          ],
        })
      ).body.data;

      let before = await snapshot();
      const refused = await app.mgmt('DELETE', `${SEGMENTS}/held`);
      expectEnvelope(refused, 422);
      expect(refused.body.message).toContain('checkout');
      expect(await snapshot()).toEqual(before);
      const refusal = await app
        .knex('audit_entries')
        .where({ action: 'segment.deleted', result: 'invalid' })
        .orderBy('ulid', 'desc')
        .first();
      expect(refusal).toMatchObject({ subject_type: 'segment', subject_label: 'held', status_code: 422, project_ulid: shopUlid });

      // Published: still held.
      expect((await app.mgmt('PUT', `${ENV}/targets/${draft}/publish`, {})).status).toBe(200);
      before = await snapshot();
      expectEnvelope(await app.mgmt('DELETE', `${SEGMENTS}/held`), 422);
      expect(await snapshot()).toEqual(before);

      // A new draft copies the rule; removing it there and publishing expires the old target.
      const next = (await app.mgmt('POST', `${ENV}/targets`)).body.data.ulid;
      const copies = (await app.mgmt('GET', `${ENV}/targets/${next}/rules`)).body.data as { ulid: string; description: string }[];
      const copy = copies.find((r) => r.description === 'held')!;
      expect(copy.ulid).not.toBe(rule.ulid);
      expectEnvelope(await app.mgmt('DELETE', `${SEGMENTS}/held`), 422);
      expect((await app.mgmt('DELETE', `${ENV}/targets/${next}/rules/${copy.ulid}`)).status).toBe(200);
      expect((await app.mgmt('PUT', `${ENV}/targets/${next}/publish`, {})).status).toBe(200);
      expect((await app.knex('targets').where('ulid', draft).first('status')).status).toBe('expired');

      const res = await app.mgmt('DELETE', `${SEGMENTS}/held`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectEnvelope(await app.mgmt('GET', `${SEGMENTS}/held`), 404);
    });
    it('holds a segment named in a criterion even when its link row is missing', async () => {
      await createSegment({ key: 'unlinked', name: 'Unlinked' });
      const draft = (await app.mgmt('POST', `${ENV}/targets`)).body.data.ulid;
      const rule = (
        await app.mgmt('POST', `${ENV}/targets/${draft}/rules`, {
          value_ulid: valTrue,
          description: 'unlinked',
          criteria: [{ selector: 'segment', comparer: 'equal', values: ['unlinked'] }],
        })
      ).body.data;
      await app.knex('criterion_segments').where('criterion_ulid', rule.criteria.data[0].ulid).delete();
      expectEnvelope(await app.mgmt('DELETE', `${SEGMENTS}/unlinked`), 422);
      expect((await app.mgmt('DELETE', `${ENV}/targets/${draft}`)).status).toBe(200);
      expect((await app.mgmt('DELETE', `${SEGMENTS}/unlinked`)).status).toBe(200);
    });

    it('never leaves a rule naming a deleted segment when deletion races rule creation', async () => {
      const draft = (await app.mgmt('POST', `${ENV}/targets`)).body.data.ulid;
      const copied = (await app.mgmt('GET', `${ENV}/targets/${draft}/rules`)).body.data;
      for (let round = 0; round < 5; round++) {
        const key = `race-${round}`;
        await createSegment({ key, name: key });
        const [created, deleted] = await Promise.all([
          app.mgmt('POST', `${ENV}/targets/${draft}/rules`, {
            value_ulid: valTrue,
            description: key,
            criteria: [{ selector: 'segment', comparer: 'in', values: [key] }],
          }),
          app.mgmt('DELETE', `${SEGMENTS}/${key}`),
        ]);
        const exists = (await app.mgmt('GET', `${SEGMENTS}/${key}`)).status === 200;
        if (created.status === 200) {
          // The rule landed: the segment must have survived.
          expect(deleted.status, key).toBe(422);
          expect(exists, key).toBe(true);
          expect((await app.mgmt('DELETE', `${ENV}/targets/${draft}/rules/${created.body.data.ulid}`)).status).toBe(200);
        } else {
          expect(created.status, key).toBe(422);
          expect(deleted.status, key).toBe(200);
          expect(exists, key).toBe(false);
        }
      }
      expect((await app.mgmt('GET', `${ENV}/targets/${draft}/rules`)).body.data).toEqual(copied);
    });
  });

  describe('scopes and grants', () => {
    const operations = () => [
      { write: false, method: 'GET', path: SEGMENTS, body: undefined, ok: 200 },
      { write: false, method: 'GET', path: `${SEGMENTS}/scoped`, body: undefined, ok: 200 },
      { write: true, method: 'POST', path: SEGMENTS, body: { key: 'scoped-new', name: 'n' }, ok: 200 },
      { write: true, method: 'PUT', path: `${SEGMENTS}/scoped`, body: { name: 'renamed' }, ok: 200 },
      { write: true, method: 'DELETE', path: `${SEGMENTS}/scoped-missing`, body: undefined, ok: 404 },
    ];

    beforeAll(async () => {
      await createSegment({ key: 'scoped', name: 'Scoped' });
    });

    it('needs targets:read to read and targets:write to write (write implies read)', async () => {
      const read = await token(['targets:read']);
      const write = await token(['targets:write']);
      const neither = await token(['projects:read', 'flags:read', 'flags:write', 'audit:read', 'config:write']);
      for (const op of operations()) {
        const label = `${op.method} ${op.path}`;
        const asRead = await app.mgmt(op.method, op.path, op.body, { token: read });
        if (op.write) {
          expectEnvelope(asRead, 403);
          expect(asRead.body.required_scope, label).toBe('targets:write');
        } else {
          expect(asRead.status, label).toBe(200);
        }
        expect((await app.mgmt(op.method, op.path, op.body, { token: write })).status, label).toBe(op.ok);
        const asNeither = await app.mgmt(op.method, op.path, op.body, { token: neither });
        expectEnvelope(asNeither, 403);
        expect(asNeither.body.required_scope, label).toBe(op.write ? 'targets:write' : 'targets:read');
        expectEnvelope(await app.request(op.method, `/management/v1${op.path}`, { body: op.body }), 401);
      }
    });

    it('answers 404 for a project outside the token grants', async () => {
      const otherProject = await token(['targets:write'], { projects: ['other'] });
      const before = await snapshot();
      for (const op of operations()) {
        const body = op.method === 'POST' ? { key: 'grant-test', name: 'n' } : op.body;
        expectEnvelope(await app.mgmt(op.method, op.path, body, { token: otherProject }), 404);
      }
      expect(await snapshot()).toEqual(before);
      expect((await app.mgmt('GET', '/projects/other/segments', undefined, { token: otherProject })).status).toBe(200);
      // An environment grant in the project makes its segments reachable.
      const envGrant = await token(['targets:read'], { environments: [{ project: 'shop', environment: 'development' }] });
      expect((await app.mgmt('GET', `${SEGMENTS}/scoped`, undefined, { token: envGrant })).status).toBe(200);
    });
  });
});
