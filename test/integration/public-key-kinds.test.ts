/**
 * The public document's error table for environment keys, on every operation that takes a key,
 * for the three key kinds: a missing key, an unknown key and a key of a kind the operation does
 * not accept all get 401 "Invalid API key provided." with the key header's challenge; the `code`
 * says which (`missing_api_key`, `invalid_api_key`, `key_kind_not_allowed` with `accepted_kinds`).
 * Which kinds an operation accepts is read from the document (its "Needs a server key").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { seedEnvironmentKey, seedProject } from './audit-fixtures.js';

type Kind = 'server' | 'mobile' | 'client';
const kinds: Kind[] = ['server', 'mobile', 'client'];

interface KeyedOperation {
  id: string;
  method: string;
  path: string;
  body: unknown;
  accepts: Kind[];
}

const bodies: Record<string, unknown> = {
  recordFlagUsage: { count: 1 },
  ofrepEvaluateFlag: { context: { targetingKey: 'u1' } },
  ofrepEvaluateFlags: { context: { targetingKey: 'u1' } },
};

function keyedOperations(app: TestApp): KeyedOperation[] {
  const doc = app.composition.documents.public.original as { paths: Record<string, Record<string, any>> };
  const out: KeyedOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      const schemes = ((op?.security ?? []) as Array<Record<string, unknown>>).flatMap((s) => Object.keys(s));
      if (!op || !schemes.includes('apiKey')) continue;
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path: template.replace('{flagKey}', 'checkout').replace('{key}', 'checkout'),
        body: op.requestBody ? (bodies[op.operationId] ?? {}) : undefined,
        accepts: /Needs a\s+server key/.test(String(op.description)) ? ['server'] : kinds,
      });
    }
  }
  return out;
}

describeEachDatabase('public API: the error table for every key kind on every operation', (db) => {
  let app: TestApp;
  let operations: KeyedOperation[];
  const keys = {} as Record<Kind, string>;

  beforeAll(async () => {
    app = await startTestApp(db);
    operations = keyedOperations(app);
    const project = await seedProject(app);
    for (const kind of kinds) keys[kind] = (await seedEnvironmentKey(app, project.environments.production as string, kind)).key;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Status, headers and body; a stream is cut once its headers arrived. */
  async function send(op: KeyedOperation, key: string | undefined) {
    const controller = new AbortController();
    const res = await fetch(app.baseUrl + op.path, {
      method: op.method,
      headers: {
        ...(key === undefined ? {} : { 'x-vexil-api-key': key, 'x-api-key': key }),
        ...(op.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(op.body === undefined ? {} : { body: JSON.stringify(op.body) }),
      signal: controller.signal,
    });
    const streaming = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const text = streaming ? '' : await res.text();
    controller.abort();
    return { status: res.status, challenge: res.headers.get('www-authenticate'), body: text ? JSON.parse(text) : undefined };
  }

  it('reads the operations and the kinds they accept from the document', () => {
    expect(operations.map((op) => op.id).sort()).toEqual(
      [
        'evaluateFlag',
        'evaluateFlags',
        'getEvaluatedFlag',
        'getPayload',
        'getPayloadForContext',
        'listEvaluatedFlags',
        'ofrepEvaluateFlag',
        'ofrepEvaluateFlags',
        'recordFlagUsage',
        'streamPayloadChanges',
      ].sort(),
    );
    expect(
      operations
        .filter((op) => op.accepts.length === 1)
        .map((op) => op.id)
        .sort(),
    ).toEqual(['evaluateFlag', 'evaluateFlags', 'getEvaluatedFlag', 'listEvaluatedFlags'].sort());
  });

  it('answers 401 "Invalid API key provided." to a missing, an unknown and a wrong-kind key, and lets every accepted kind through', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const ofrep = op.path.startsWith('/ofrep/');
      const cases: Array<{ name: string; key: string | undefined; code: string | null }> = [
        { name: 'no key', key: undefined, code: 'missing_api_key' },
        { name: 'unknown key', key: `srv_${'z'.repeat(40)}`, code: 'invalid_api_key' },
        ...kinds.map((kind) => ({ name: `${kind} key`, key: keys[kind], code: op.accepts.includes(kind) ? null : 'key_kind_not_allowed' })),
      ];
      for (const c of cases) {
        const res = await send(op, c.key);
        const where = `${op.id} with ${c.name}: ${res.status} ${JSON.stringify(res.body)}`;
        if (res.status >= 500) wrong.push(where);
        else if (c.code === null) {
          if (res.status === 401 || res.status === 403) wrong.push(`${where} (expected to pass)`);
        } else {
          const message = ofrep ? res.body?.errorDetails : res.body?.message;
          if (res.status !== 401 || message !== 'Invalid API key provided.' || !res.challenge) wrong.push(`${where} (expected 401)`);
          else if (!ofrep && res.body.code !== c.code) wrong.push(`${where} (expected code ${c.code})`);
          else if (c.code === 'key_kind_not_allowed' && JSON.stringify(res.body.accepted_kinds) !== JSON.stringify(op.accepts))
            wrong.push(`${where} (expected accepted_kinds ${op.accepts})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
