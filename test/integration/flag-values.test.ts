import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  auditEntryAfter,
  bumped,
  createProject,
  insertRule,
  insertTarget,
  lastAuditUlid,
  revisions,
  snapshot,
  uniqueKey,
  type SeededProject,
} from './flags-fixtures.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describeEachDatabase('flag values', (db) => {
  let app: TestApp;
  let project: SeededProject;
  beforeAll(async () => {
    app = await startTestApp(db);
    project = await createProject(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A new flag of the type in the shared project; returns its key and ulid. */
  async function newFlag(type: 'boolean' | 'number' | 'string' | 'json'): Promise<{ key: string; ulid: string }> {
    const key = uniqueKey(type);
    const res = await app.mgmt('POST', `/projects/${project.key}/flags`, { key, name: key, type });
    expect(res.status).toBe(200);
    return { key, ulid: res.body.data.ulid };
  }

  const valuesPath = (flagKey: string) => `/projects/${project.key}/flags/${flagKey}/values`;
  const envValuesPath = (flagKey: string, env = 'production') => `/projects/${project.key}/flags/${flagKey}/environments/${env}/values`;
  const create = (flagKey: string, display: unknown) => app.mgmt('POST', valuesPath(flagKey), { display });
  const list = async (flagKey: string) => (await app.mgmt('GET', valuesPath(flagKey))).body.data as any[];

  async function expectDisplayRefusal(send: () => Promise<{ status: number; body: any }>) {
    const before = await snapshot(app);
    const res = await send();
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(422);
    expect(res.body.errors, JSON.stringify(res.body).slice(0, 300)).toHaveProperty('display');
    expect(await snapshot(app)).toEqual(before);
    return res;
  }

  async function expectStateRefusal(send: () => Promise<{ status: number; body: any }>, message: RegExp) {
    const before = await snapshot(app);
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toEqual({ status: 'error', message: expect.stringMatching(message), code: expect.any(String) });
    expect(await snapshot(app)).toEqual(before);
    return res;
  }

  describe('createFlagValueForFlag and createFlagValue', () => {
    it('makes the first value the default (bumping every environment) and later ones not', async () => {
      const flag = await newFlag('string');
      const before = await revisions(app, project);
      const since = await lastAuditUlid(app);
      const first = await create(flag.key, 'blue');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        status: 'success',
        data: {
          ulid: expect.stringMatching(/^val_[0-9A-Z]{26}$/),
          display: 'blue',
          value: 'blue',
          default: true,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
      expect(await revisions(app, project)).toEqual(bumped(before));
      expect(await auditEntryAfter(app, since)).toMatchObject({
        action: 'flag_value.created',
        subject_type: 'flag_value',
        subject_ulid: first.body.data.ulid,
        project_ulid: project.ulid,
        result: 'success',
      });

      const second = await app.mgmt('POST', envValuesPath(flag.key), { display: 'green' });
      expect(second.status).toBe(200);
      expect(second.body.data).toMatchObject({ display: 'green', default: false });
      // A value nobody serves changes nothing an environment serves.
      expect(await revisions(app, project)).toEqual(bumped(before));
      expect((await list(flag.key)).map((v) => [v.display, v.default])).toEqual([
        ['blue', true],
        ['green', false],
      ]);
    });

    it('needs an existing environment on the environment path, but the value belongs to the flag', async () => {
      const flag = await newFlag('number');
      const res = await app.mgmt('POST', envValuesPath(flag.key, 'development'), { display: '1' });
      expect(res.status).toBe(200);
      const before = await snapshot(app);
      const missing = await app.mgmt('POST', envValuesPath(flag.key, 'staging'), { display: '2' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ status: 'error', message: expect.any(String), code: expect.any(String) });
      expect(await snapshot(app)).toEqual(before);
      expect((await list(flag.key)).map((v) => v.display)).toEqual(['1']);
    });

    it('answers 404 for an unknown flag or project', async () => {
      expect((await create('no-such-flag', 'x')).status).toBe(404);
      expect((await app.mgmt('POST', '/projects/nope/flags/x/values', { display: 'x' })).status).toBe(404);
    });

    it.each([
      ['1.50', '1.5', 1.5],
      ['1e3', '1000', 1000],
      ['-0', '0', 0],
      ['-12.250e-1', '-1.225', -1.225],
      ['0', '0', 0],
    ])('stores the number %j as %j', async (input, display, value) => {
      const flag = await newFlag('number');
      const res = await create(flag.key, input);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ display, value });
      expect((await list(flag.key))[0]).toMatchObject({ display, value });
    });

    it.each(['NaN', 'Infinity', '-Infinity', '+1', '0x1A', 'abc', '', ' 1', '01', '1e999', '1,5'])(
      'refuses the number %j (422 on display)',
      async (input) => {
        const flag = await newFlag('number');
        await expectDisplayRefusal(() => create(flag.key, input));
      },
    );

    it.each([
      ['12345678901234567890', /12345678901234567890 would be stored as 12345678901234567000/],
      ['9007199254740993', /would be stored as 9007199254740992/],
      ['1e-400', /1e-400 would be stored as 0/],
      ['1e400', /within/],
    ])('refuses the number %j, which a 64-bit float cannot hold as written (422 on display)', async (input, message) => {
      const flag = await newFlag('number');
      const res = await expectDisplayRefusal(() => create(flag.key, input));
      expect(res.body.errors.display[0]).toMatch(message);
    });

    it('refuses json holding a number a 64-bit float cannot hold, or a member named twice with different values', async () => {
      const flag = await newFlag('json');
      const big = await expectDisplayRefusal(() => create(flag.key, '{"n": 12345678901234567890}'));
      expect(big.body.errors.display[0]).toMatch(/12345678901234567890 would be stored as 12345678901234567000/);
      await expectDisplayRefusal(() => create(flag.key, '[1e400]'));
      await expectDisplayRefusal(() => create(flag.key, '{"a": 1, "a": 2}'));
    });

    it('stores numbers a 64-bit float holds exactly, and evaluation serves exactly the stored value', async () => {
      const flag = await newFlag('json');
      const display = '{"big":9007199254740992,"tiny":5e-324,"tenth":0.1,"huge":1.7976931348623157e+308}';
      const res = await create(flag.key, display.replace(/,/g, ', '));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.display).toBe(display);
      const environments = await app.mgmt('GET', `/projects/${project.key}/environments`);
      const envKey = environments.body.data[0].key as string;
      const evaluated = await app.mgmt('GET', `/projects/${project.key}/flags/${flag.key}/environments/${envKey}/evaluate`);
      expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200);
      expect(JSON.stringify(evaluated.body.data.value)).toBe(display);
      const number = await newFlag('number');
      const max = await create(number.key, '9007199254740992');
      expect(max.body.data).toMatchObject({ display: '9007199254740992', value: 9007199254740992 });
    });

    it('refuses numbers equal after normalisation', async () => {
      const flag = await newFlag('number');
      await create(flag.key, '1.5');
      await expectDisplayRefusal(() => create(flag.key, '1.50'));
      await expectDisplayRefusal(() => create(flag.key, '15e-1'));
      await create(flag.key, '0');
      await expectDisplayRefusal(() => create(flag.key, '-0'));
    });

    it('accepts only true and false on a boolean flag, once each', async () => {
      const flag = await newFlag('boolean');
      for (const display of ['TRUE', 'yes', '1', '']) await expectDisplayRefusal(() => create(flag.key, display));
      await expectDisplayRefusal(() => create(flag.key, 'true'));
      await expectDisplayRefusal(() => create(flag.key, 'false'));
    });

    it('refuses a display that is not a string or is missing', async () => {
      const flag = await newFlag('string');
      await expectDisplayRefusal(() => create(flag.key, 12));
      await expectDisplayRefusal(() => create(flag.key, null));
      await expectDisplayRefusal(() => app.mgmt('POST', valuesPath(flag.key), {}));
      const extra = await app.mgmt('POST', valuesPath(flag.key), { display: 'x', default: true });
      expect(extra.status).toBe(422);
      expect(extra.body.errors).toHaveProperty('default');
    });

    it('stores strings as given, the empty string included, up to exactly 64 KB', async () => {
      const flag = await newFlag('string');
      for (const display of ['', ' spaced ', '{"a": 1}', 'ünïcödé ✓']) {
        const res = await create(flag.key, display);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ display, value: display });
      }
      expect((await create(flag.key, 'a'.repeat(65_536))).status).toBe(200);
      await expectDisplayRefusal(() => create(flag.key, 'b'.repeat(65_537)));
      // 64 KB counts UTF-8 bytes: 32768 two-byte characters fit, one more byte does not.
      expect((await create(flag.key, 'é'.repeat(32_768))).status).toBe(200);
      await expectDisplayRefusal(() => create(flag.key, 'é'.repeat(32_768) + 'x'));
    });

    it('stores json compactly, parses it into value, and treats whitespace-only differences as the same value', async () => {
      const flag = await newFlag('json');
      const res = await create(flag.key, '{ "currency" : "EUR",\n  "tiers": [ 1, 2.50, {"x": null} ] }');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        display: '{"currency":"EUR","tiers":[1,2.5,{"x":null}]}',
        value: { currency: 'EUR', tiers: [1, 2.5, { x: null }] },
      });
      await expectDisplayRefusal(() => create(flag.key, '{"currency":"EUR","tiers":[1,2.5,{"x":null}]}'));
      for (const [display, value] of [
        ['null', null],
        ['"text"', 'text'],
        ['[]', []],
        ['42', 42],
        ['false', false],
      ] as const) {
        const scalar = await create(flag.key, display);
        expect(scalar.status).toBe(200);
        expect(scalar.body.data.value).toEqual(value);
      }
    });

    it.each(['{', '{"a":}', "{'a': 1}", 'undefined', '[1,]', '{"a":1} x', ''])('refuses the json %j', async (input) => {
      const flag = await newFlag('json');
      await expectDisplayRefusal(() => create(flag.key, input));
    });

    it('accepts json nested exactly 10 levels deep and refuses 11', async () => {
      const flag = await newFlag('json');
      const ok = await create(flag.key, nested(10));
      expect(ok.status).toBe(200);
      expect(ok.body.data.display).toBe(nested(10));
      const res = await expectDisplayRefusal(() => create(flag.key, nested(11)));
      expect(res.body.errors.display[0]).toMatch(/10 levels/);
      await expectDisplayRefusal(() => create(flag.key, `{"a":${nested(10)}}`));
    });

    it('accepts json of exactly 64 KB once compact and refuses one byte more', async () => {
      const flag = await newFlag('json');
      const exact = JSON.stringify({ k: 'a'.repeat(65_536 - 8) });
      expect(Buffer.byteLength(exact)).toBe(65_536);
      const ok = await create(flag.key, exact);
      expect(ok.status).toBe(200);
      expect(ok.body.data.display).toBe(exact);
      const over = JSON.stringify({ k: 'b'.repeat(65_536 - 7) });
      const res = await expectDisplayRefusal(() => create(flag.key, over));
      expect(res.body.errors.display[0]).toMatch(/65536|64 KB/);
      // Under 65536 characters but over 64 KB of UTF-8: the byte limit applies.
      const wide = JSON.stringify({ k: 'é'.repeat(32_765) });
      expect(wide.length).toBeLessThan(65_536);
      expect(Buffer.byteLength(wide)).toBe(65_538);
      const multibyte = await expectDisplayRefusal(() => create(flag.key, wide));
      expect(multibyte.body.errors.display[0]).toMatch(/64 KB/);
      const wideExact = JSON.stringify({ k: 'é'.repeat(32_764) });
      expect(Buffer.byteLength(wideExact)).toBe(65_536);
      expect((await create(flag.key, wideExact)).status).toBe(200);
      // Whitespace is not stored, so it does not count towards the 64 KB.
      const spaced = `{ "k" :${' '.repeat(2000)}"${'é'.repeat(32_000)}"\n}`;
      expect(Buffer.byteLength(spaced)).toBeGreaterThan(65_536);
      expect((await create(flag.key, spaced)).status).toBe(200);
    });

    it('gives exactly one default when the first values of a flag are created concurrently', async () => {
      const flag = await newFlag('string');
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create(flag.key, `v${i}`)));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      const values = await list(flag.key);
      expect(values).toHaveLength(10);
      expect(values.filter((v) => v.default)).toHaveLength(1);
    });
  });

  describe('listFlagValues', () => {
    it('returns every value in creation order, unpaginated', async () => {
      const flag = await newFlag('number');
      for (let i = 30; i > 0; i--) await create(flag.key, String(i));
      const since = await lastAuditUlid(app);
      const res = await app.mgmt('GET', valuesPath(flag.key));
      expect(res.status).toBe(200);
      expect(res.body.meta).toBeUndefined();
      expect(res.body.data.map((v: any) => v.value)).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
      expect(await auditEntryAfter(app, since)).toMatchObject({
        action: 'flag_value.listed',
        subject_type: 'flag',
        subject_ulid: flag.ulid,
      });
      expect((await app.mgmt('GET', valuesPath('missing-flag'))).status).toBe(404);
    });
  });

  describe('updateFlagValue', () => {
    it('replaces the display with its normalised form', async () => {
      const flag = await newFlag('json');
      const value = (await create(flag.key, '{"a":1}')).body.data;
      app.clock.advance(1000);
      const since = await lastAuditUlid(app);
      const res = await app.mgmt('PUT', `${valuesPath(flag.key)}/${value.ulid}`, { display: '{ "a" : [1, 2] }' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        ulid: value.ulid,
        display: '{"a":[1,2]}',
        value: { a: [1, 2] },
        default: true,
        created_at: value.created_at,
      });
      expect(res.body.data.updated_at > value.updated_at).toBe(true);
      expect(await auditEntryAfter(app, since)).toMatchObject({ action: 'flag_value.updated', subject_ulid: value.ulid });
      expect((await list(flag.key))[0]).toEqual(res.body.data);
      // The same display again is no conflict with itself.
      expect((await app.mgmt('PUT', `${valuesPath(flag.key)}/${value.ulid}`, { display: '{"a":[1,2]}' })).status).toBe(200);
    });

    it('refuses a display that does not fit the type or equals another value', async () => {
      const flag = await newFlag('number');
      await create(flag.key, '1');
      const two = (await create(flag.key, '2')).body.data;
      await expectDisplayRefusal(() => app.mgmt('PUT', `${valuesPath(flag.key)}/${two.ulid}`, { display: 'two' }));
      await expectDisplayRefusal(() => app.mgmt('PUT', `${valuesPath(flag.key)}/${two.ulid}`, { display: '1.0' }));
    });

    it('bumps every environment when the value is served (default or published), and not otherwise', async () => {
      const flag = await newFlag('string');
      const def = (await create(flag.key, 'a')).body.data;
      const other = (await create(flag.key, 'b')).body.data;
      let before = await revisions(app, project);
      await app.mgmt('PUT', `${valuesPath(flag.key)}/${other.ulid}`, { display: 'b2' });
      expect(await revisions(app, project)).toEqual(before);
      await app.mgmt('PUT', `${valuesPath(flag.key)}/${def.ulid}`, { display: 'a2' });
      expect(await revisions(app, project)).toEqual(bumped(before));
      await insertTarget(app, flag.ulid, project.environments.production as string, other.ulid, 'published');
      before = await revisions(app, project);
      await app.mgmt('PUT', `${valuesPath(flag.key)}/${other.ulid}`, { display: 'b3' });
      expect(await revisions(app, project)).toEqual(bumped(before));
    });

    it('answers 404 for an unknown value or a value of another flag', async () => {
      const flag = await newFlag('string');
      const otherFlag = await newFlag('string');
      const foreign = (await create(otherFlag.key, 'x')).body.data;
      const before = await snapshot(app);
      for (const ulid of ['val_01HZZZZZZZZZZZZZZZZZZZZZZZ', foreign.ulid]) {
        const res = await app.mgmt('PUT', `${valuesPath(flag.key)}/${ulid}`, { display: 'y' });
        expect(res.status).toBe(404);
        expect(res.body.status).toBe('error');
      }
      expect(await snapshot(app)).toEqual(before);
    });
  });

  describe('deleteFlagValue', () => {
    it('deletes an unused value', async () => {
      const flag = await newFlag('string');
      await create(flag.key, 'a');
      const b = (await create(flag.key, 'b')).body.data;
      const before = await revisions(app, project);
      const since = await lastAuditUlid(app);
      const res = await app.mgmt('DELETE', `${valuesPath(flag.key)}/${b.ulid}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
      expect(await auditEntryAfter(app, since)).toMatchObject({ action: 'flag_value.deleted', subject_ulid: b.ulid, result: 'success' });
      expect((await list(flag.key)).map((v) => v.display)).toEqual(['a']);
      expect(await revisions(app, project)).toEqual(before);
      expect((await app.mgmt('DELETE', `${valuesPath(flag.key)}/${b.ulid}`)).status).toBe(404);
    });

    it('refuses the default value, naming why', async () => {
      const flag = await newFlag('boolean');
      const values = await list(flag.key);
      const def = values.find((v) => v.default);
      await expectStateRefusal(() => app.mgmt('DELETE', `${valuesPath(flag.key)}/${def.ulid}`), /default/);
      // The other value of a boolean flag is unused and can go.
      const other = values.find((v) => !v.default);
      expect((await app.mgmt('DELETE', `${valuesPath(flag.key)}/${other.ulid}`)).status).toBe(200);
    });

    it.each(['published', 'scheduled', 'draft', 'expired'] as const)(
      'refuses a value a %s target points at, naming the target',
      async (status) => {
        const flag = await newFlag('string');
        await create(flag.key, 'a');
        const b = (await create(flag.key, 'b')).body.data;
        await insertTarget(app, flag.ulid, project.environments.production as string, b.ulid, status);
        const since = await lastAuditUlid(app);
        await expectStateRefusal(
          () => app.mgmt('DELETE', `${valuesPath(flag.key)}/${b.ulid}`),
          new RegExp(`in use.*1 target \\(${status} in production\\)`),
        );
        expect(await auditEntryAfter(app, since)).toMatchObject({ action: 'flag_value.deleted', result: 'invalid', status_code: 422 });
      },
    );

    it('refuses a value a targeting rule serves, naming the rule', async () => {
      const flag = await newFlag('string');
      const a = (await create(flag.key, 'a')).body.data;
      const b = (await create(flag.key, 'b')).body.data;
      const target = await insertTarget(app, flag.ulid, project.environments.development as string, a.ulid, 'draft');
      await insertRule(app, target, b.ulid);
      await expectStateRefusal(
        () => app.mgmt('DELETE', `${valuesPath(flag.key)}/${b.ulid}`),
        /1 targeting rule \(draft target in development\)/,
      );
    });

    it('answers 404 for an unknown value', async () => {
      const flag = await newFlag('string');
      const res = await app.mgmt('DELETE', `${valuesPath(flag.key)}/val_nope`);
      expect(res.status).toBe(404);
      expect(res.body.status).toBe('error');
    });
  });

  describe('setDefaultFlagValue and setDefaultFlagValueForFlag', () => {
    it('makes the value the default and clears the others, on both paths', async () => {
      const flag = await newFlag('string');
      const a = (await create(flag.key, 'a')).body.data;
      const b = (await create(flag.key, 'b')).body.data;
      const c = (await create(flag.key, 'c')).body.data;
      const before = await revisions(app, project);
      const since = await lastAuditUlid(app);
      const res = await app.mgmt('PATCH', `${valuesPath(flag.key)}/${b.ulid}/default`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ ulid: b.ulid, display: 'b', default: true });
      expect(await auditEntryAfter(app, since)).toMatchObject({
        action: 'flag_value.default_set',
        subject_type: 'flag_value',
        subject_ulid: b.ulid,
      });
      expect((await list(flag.key)).map((v) => v.default)).toEqual([false, true, false]);
      expect(await revisions(app, project)).toEqual(bumped(before));

      const env = await app.mgmt('PATCH', `${envValuesPath(flag.key, 'development')}/${c.ulid}/default`);
      expect(env.status).toBe(200);
      expect(env.body.data).toMatchObject({ ulid: c.ulid, default: true });
      expect((await list(flag.key)).map((v) => v.default)).toEqual([false, false, true]);
      expect(await revisions(app, project)).toEqual(bumped(before, 2));

      // Setting the current default again changes nothing.
      const again = await app.mgmt('PATCH', `${valuesPath(flag.key)}/${c.ulid}/default`);
      expect(again.body.data).toMatchObject({ ulid: c.ulid, default: true });
      expect(await revisions(app, project)).toEqual(bumped(before, 2));
      // Now `a` is no longer the default and may go.
      expect((await app.mgmt('DELETE', `${valuesPath(flag.key)}/${a.ulid}`)).status).toBe(200);
    });

    it('answers 404 for an unknown environment, an unknown value or a value of another flag', async () => {
      const flag = await newFlag('string');
      const otherFlag = await newFlag('string');
      const a = (await create(flag.key, 'a')).body.data;
      await create(flag.key, 'b');
      const foreign = (await create(otherFlag.key, 'x')).body.data;
      const before = await snapshot(app);
      for (const path of [
        `${envValuesPath(flag.key, 'staging')}/${a.ulid}/default`,
        `${valuesPath(flag.key)}/val_nope/default`,
        `${valuesPath(flag.key)}/${foreign.ulid}/default`,
        `${envValuesPath(flag.key)}/${foreign.ulid}/default`,
      ]) {
        const res = await app.mgmt('PATCH', path);
        expect(res.status, path).toBe(404);
        expect(res.body.status).toBe('error');
      }
      expect(await snapshot(app)).toEqual(before);
    });

    it('leaves exactly one default when 10 default changes race', async () => {
      const flag = await newFlag('string');
      const values = [];
      for (let i = 0; i < 10; i++) values.push((await create(flag.key, `v${i}`)).body.data);
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          values.map((v, i) =>
            app.mgmt('PATCH', i % 2 === 0 ? `${valuesPath(flag.key)}/${v.ulid}/default` : `${envValuesPath(flag.key)}/${v.ulid}/default`),
          ),
        );
        expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
        const rows = await app.knex('flag_values').where('flag_ulid', flag.ulid).select('ulid', 'is_default');
        expect(
          rows.filter((r: any) => Boolean(r.is_default)),
          `round ${round}`,
        ).toHaveLength(1);
        expect((await list(flag.key)).filter((v) => v.default)).toHaveLength(1);
      }
    });
  });
});
