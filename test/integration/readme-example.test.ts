import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The YAML block of the "Flags as code" section of docs/cli.md, as a reader copies it. */
function readmeExample(): string {
  const page = fs.readFileSync('docs/cli.md', 'utf8');
  const section = /^## Flags as code\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(page)?.[1];
  if (!section) throw new Error('docs/cli.md has no "Flags as code" section');
  const block = /^```yaml\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!block) throw new Error('the "Flags as code" section of docs/cli.md has no ```yaml block');
  return block;
}

// The example configuration file of docs/cli.md cannot rot: it fits the schema, applies to an empty
// instance, and is what that instance then exports.
describeEachDatabase('the flags-as-code example of docs/cli.md', (db) => {
  let app: TestApp;
  const text = readmeExample();
  const file = YAML.parse(text) as { project: { key: string } };
  const p = `/projects/${file.project.key}`;

  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('fits specs/project-configuration.schema.json', () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
      JSON.parse(fs.readFileSync('specs/project-configuration.schema.json', 'utf8')),
    );
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  });

  it('plans and applies to an empty instance, which then exports the same bytes and serves what it says', async () => {
    const plan = await app.mgmt('POST', `${p}/configuration/plan`, file);
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const planned = plan.body.data.changes.map((c: { action: string; kind: string; key: string; environment?: string }) => [
      c.action,
      c.kind,
      c.key,
      c.environment ?? null,
    ]);
    expect(planned).toContainEqual(['create', 'project', 'shop', null]);
    expect(planned).toContainEqual(['create', 'segment', 'beta-testers', null]);
    expect(planned.filter(([action]: string[]) => action === 'publish')).toHaveLength(3);

    // As the page's step 3 applies it: production requires a publish comment.
    const applied = await app.mgmt('POST', `${p}/configuration/apply?comment=${encodeURIComponent('Release 42')}`, file);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.changes).toEqual(plan.body.data.changes);
    expect((await app.mgmt('POST', `${p}/configuration/plan`, file)).body.data.changes).toEqual([]);
    const exported = await fetch(`${app.baseUrl}/management/v1${p}/configuration?format=yaml`, {
      headers: { authorization: `Bearer ${app.ownerToken}` },
    });
    expect(await exported.text()).toBe(text);

    // Production serves the rule to beta testers (by list and by email) and the rollout to half.
    const key = (await app.mgmt('POST', `${p}/environments/production/keys`, { kind: 'server' })).body.data.key as string;
    const evaluate = async (flag: string, context: object) => {
      const res = await app.request('GET', `/v1/flags/${flag}`, { apiKey: key, headers: { 'x-vexil-context': JSON.stringify(context) } });
      expect(res.status).toBe(200);
      return res.body.data.flag.value as Record<string, unknown>;
    };
    expect(await evaluate('new-checkout', { type: 'user', identifier: 'user-42' })).toEqual({ boolean: true });
    expect(
      await evaluate('new-checkout', {
        type: 'user',
        identifier: 'u-1',
        attributes: [{ key: 'email', values: [{ value: 'ada@shop.example' }] }],
      }),
    ).toEqual({ boolean: true });
    expect(await evaluate('new-checkout', { type: 'user', identifier: 'user-8' })).toEqual({ boolean: false });
    const banners = new Set<unknown>();
    for (let i = 0; i < 40; i++) banners.add((await evaluate('banner-text', { type: 'user', identifier: `visitor-${i}` })).string);
    expect([...banners].sort()).toEqual(['Summer sale', 'Welcome']);
  });
});
