import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, type TestDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The same operations on every database give the same answers, byte for byte once the ids and
 * times each run makes are masked: time stamps' form, JSON values (numbers, nesting, member
 * order), booleans, exact (case- and accent-sensitive) keys and lookups, and the order of lists
 * sorted by text (keys differing in case, accents and punctuation, which a locale's collation
 * orders differently from a byte order).
 */

/** Ids (`prefix_` and 26 Crockford characters), times and secrets: what differs between runs. */
function masked(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(body)
      .replace(/\b([a-z]{2,4}_)?[0-9A-HJKMNP-TV-Z]{26}\b/g, '$1<ulid>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>')
      .replace(/\b(srv|cli|mob|pat|mgt)_[0-9A-Za-z]{20,}\b/g, '$1_<secret>'),
  );
}

/** The operations, each answer kept (status and masked body). */
async function answersOf(app: TestApp): Promise<Array<[string, number, unknown]>> {
  const answers: Array<[string, number, unknown]> = [];
  const call = async (label: string, method: string, path: string, body?: unknown) => {
    const res = await app.mgmt(method, path, body);
    answers.push([label, res.status, masked(res.body)]);
    return res;
  };
  const p = '/projects/answers';
  await call('create project', 'POST', '/projects', {
    key: 'answers',
    name: 'Ünïcode ✓ B',
    environments: [{ key: 'production', name: 'Production' }],
  });
  // Keys in an order no collation but a byte order keeps: `-` (0x2D) < `0` < `_` (0x5F) < `b`.
  for (const key of ['ab', 'a_b', 'a-b', 'a0', 'a']) {
    await call(`create flag ${key}`, 'POST', `${p}/flags`, { key, name: `Name ${key.toUpperCase()}`, type: 'json' });
  }
  for (const display of ['"B"', '"a"', '"b"', '"ä"', '{"b":[1.5,-0.25,1e21,true,null],"B":{"ä":"x"},"a":false}', '12345678901234']) {
    await call(`value ${display}`, 'POST', `${p}/flags/ab/values`, { display });
  }
  await call('values', 'GET', `${p}/flags/ab/values`);
  await call('update flag', 'PUT', `${p}/flags/a`, { name: 'Permanent ä', permanent: true });
  await call('flag', 'GET', `${p}/flags/a`);
  await call('flags', 'GET', `${p}/flags`);
  await call('search folds case, accents count', 'GET', `${p}/flags?search=NAME%20A`);
  await call('lookup is exact', 'GET', '/projects/ANSWERS');
  await call('flag lookup is exact', 'GET', `${p}/flags/AB`);
  await call('environment', 'GET', `${p}/environments/production`);
  await call('export sorted by key', 'GET', `${p}/configuration`);
  return answers;
}

const answers = new Map<TestDatabase['name'], Array<[string, number, unknown]>>();

describe.runIf(testDatabases.length > 1)('answers across databases', () => {
  const apps: TestApp[] = [];
  beforeAll(async () => {
    for (const db of testDatabases) {
      const app = await startTestApp(db);
      apps.push(app);
      answers.set(db.name, await answersOf(app));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('succeed where they should, on the first database', () => {
    const first = answers.get(testDatabases[0]!.name)!;
    const statuses = Object.fromEntries(first.map(([label, status]) => [label, status]));
    expect(statuses['lookup is exact']).toBe(404);
    expect(statuses['flag lookup is exact']).toBe(404);
    for (const [label, status, body] of first) if (!label.includes('exact')) expect(status, `${label}: ${JSON.stringify(body)}`).toBe(200);
    const exported = first.find(([label]) => label === 'export sorted by key')![2] as { flags: Array<{ key: string }> };
    expect(exported.flags.map((f) => f.key)).toEqual(['a', 'a-b', 'a0', 'a_b', 'ab']);
  });

  for (const db of testDatabases.slice(1)) {
    it(`are the same on ${db.name} as on ${testDatabases[0]!.name}`, () => {
      const first = answers.get(testDatabases[0]!.name)!;
      const other = answers.get(db.name)!;
      // Answer by answer, so a difference names its operation.
      for (let i = 0; i < first.length; i++) expect(other[i], first[i]![0]).toEqual(first[i]);
      expect(JSON.stringify(other)).toBe(JSON.stringify(first));
    });
  }
});
