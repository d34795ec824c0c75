/** First start (src/features/accounts/bootstrap.ts), on a database nobody has seeded. */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { generateSecret } from '../../src/auth/secrets.js';
import { compose, type Composition } from '../../src/composition-root.js';
import { loadConfig, type Config } from '../../src/config.js';
import { bootstrapFirstStart } from '../../src/features/accounts/bootstrap.js';
import { UnauthorizedError } from '../../src/http/errors.js';
import { assertMatchesContract } from '../support/contract.js';
import { describeEachDatabase, type TestDatabase } from '../support/databases.js';
import { testConfig } from '../support/test-app.js';

describeEachDatabase('admin: first start', (db: TestDatabase) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  /** A composition on `url` whose log lines are collected in `log`. */
  async function open(url: string, log: string[] = []): Promise<Composition> {
    const config: Config = { ...loadConfig({}), ...testConfig, databaseUrl: url };
    const sink = new Writable({
      write(chunk, _enc, done) {
        log.push(String(chunk));
        done();
      },
    });
    const composition = await compose(config, { logger: pino({ level: 'info' }, sink) });
    cleanups.push(() => composition.close());
    return composition;
  }

  async function fresh(): Promise<string> {
    const database = await db.create();
    cleanups.unshift(() => database.drop());
    return database.url;
  }

  it('gives an empty database an owner and a demo project, printing the secrets once to stdout', async () => {
    const log: string[] = [];
    const c = await open(await fresh(), log);
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    let result;
    try {
      result = await bootstrapFirstStart(c.core, undefined);
    } finally {
      spy.mockRestore();
    }
    expect(result.outcome).toBe('demo');
    const text = printed.join('');
    const pat = /pat_[0-9A-Za-z]{40}/.exec(text)?.[0];
    expect(pat).toBeDefined();
    const keys = text.match(/(srv|cli)_[0-9A-Za-z]{40}/g) ?? [];
    expect(keys).toHaveLength(4);
    expect(keys.filter((k) => k.startsWith('srv_'))).toHaveLength(2);
    // Never in the log.
    const logText = log.join('');
    expect(logText).not.toContain(pat);
    for (const key of keys) expect(logText).not.toContain(key);

    const knex = c.core.knex;
    expect(await knex('accounts').select('role', 'email')).toEqual([{ role: 'owner', email: 'owner@vexil.local' }]);
    const principal = await c.authenticator.authenticate(`Bearer ${pat}`);
    expect(principal.account.role).toBe('owner');
    const project = await knex('projects').where('key', 'demo').first();
    expect(project).toBeDefined();
    const envs = await knex('environments').where('project_ulid', project.ulid).orderBy('ulid').select('key', 'ulid');
    expect(envs.map((e) => e.key)).toEqual(['development', 'production']);
    const rows = await knex('environment_keys')
      .whereIn(
        'environment_ulid',
        envs.map((e) => e.ulid),
      )
      .select('kind', 'environment_ulid');
    for (const env of envs) {
      expect(
        rows
          .filter((r) => r.environment_ulid === env.ulid)
          .map((r) => r.kind)
          .sort(),
      ).toEqual(['client', 'server']);
    }
    await c.keyCache.refreshIfChanged();
    for (const key of keys) expect(c.keyCache.resolve(key)?.projectUlid).toBe(project.ulid);
    expect(JSON.stringify(await knex('personal_access_tokens').select())).not.toContain(pat);

    // A second start prints nothing and creates nothing.
    const again: string[] = [];
    expect((await bootstrapFirstStart(c.core, undefined, (t) => again.push(t))).outcome).toBe('existing');
    expect(again).toEqual([]);
    expect(Number((await knex('accounts').count({ n: '*' }).first())?.n)).toBe(1);
    expect(Number((await knex('projects').count({ n: '*' }).first())?.n)).toBe(1);
  });

  it('serves the printed owner token and server key over HTTP', async () => {
    const c = await open(await fresh());
    const printed: string[] = [];
    await bootstrapFirstStart(c.core, undefined, (t) => printed.push(t));
    const text = printed.join('');
    const pat = /pat_[0-9A-Za-z]{40}/.exec(text)![0];
    const serverKey = /srv_[0-9A-Za-z]{40}/.exec(text)![0];
    const app = createApp(c);
    await c.keyCache.refreshIfChanged();
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const projects = await fetch(`${base}/management/v1/projects`, { headers: { authorization: `Bearer ${pat}` } });
    expect(projects.status).toBe(200);
    expect(((await projects.json()) as { data: Array<{ key: string }> }).data.map((p) => p.key)).toEqual(['demo']);
    const accountsPath = '/management/v1/accounts';
    const accounts = await fetch(`${base}${accountsPath}`, { headers: { authorization: `Bearer ${pat}` } });
    const accountsBody = await accounts.json();
    assertMatchesContract('GET', accountsPath, accounts.status, accountsBody, accounts.headers.get('content-type') ?? '');
    expect((accountsBody as { data: Array<{ email: string; role: string }> }).data).toMatchObject([
      { email: 'owner@vexil.local', role: 'owner' },
    ]);
    const flags = await fetch(`${base}/v1/flags`, { headers: { 'x-vexil-api-key': serverKey } });
    expect(flags.status).toBe(200);
  });

  it('creates the owner with VEXIL_INIT_OWNER_TOKEN, without a demo project, and prints no secret', async () => {
    const log: string[] = [];
    const c = await open(await fresh(), log);
    const token = generateSecret('pat_');
    const printed: string[] = [];
    const result = await bootstrapFirstStart(c.core, token, (t) => printed.push(t));
    expect(result.outcome).toBe('init-token');
    expect(printed).toEqual([]);
    expect(log.join('')).not.toContain(token);
    expect((await c.authenticator.authenticate(`Bearer ${token}`)).account.ulid).toBe(result.ownerUlid);
    expect(await c.core.knex('projects').first()).toBeUndefined();
    // Once an account exists the variable changes nothing.
    const other = generateSecret('pat_');
    expect((await bootstrapFirstStart(c.core, other)).outcome).toBe('existing');
    await expect(c.authenticator.authenticate(`Bearer ${other}`)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('refuses to start with a VEXIL_INIT_OWNER_TOKEN that is no personal access token', async () => {
    const c = await open(await fresh());
    for (const bad of ['secret', '', 'pat_short', generateSecret('mgt_'), `pat_${'-'.repeat(40)}`, ` ${generateSecret('pat_')}`]) {
      await expect(bootstrapFirstStart(c.core, bad, () => {})).rejects.toThrow(/VEXIL_INIT_OWNER_TOKEN must be a personal access token/);
    }
    expect(await c.core.knex('accounts').first()).toBeUndefined();
  });

  it('creates exactly one owner when several instances start at once', async () => {
    const url = await fresh();
    // better-sqlite3 waits for a lock synchronously, so same-process SQLite instances wait out the
    // busy timeout before retrying: two of them show the race, MariaDB gets three.
    const count = db.name === 'sqlite' ? 2 : 3;
    const instances: Composition[] = [];
    for (let i = 0; i < count; i++) instances.push(await open(url));
    const printed: string[][] = instances.map(() => []);
    const results = await Promise.all(instances.map((c, i) => bootstrapFirstStart(c.core, undefined, (t) => printed[i]!.push(t))));
    expect(results.map((r) => r.outcome).sort()).toEqual(['demo', ...Array(count - 1).fill('existing')]);
    expect(printed.filter((p) => p.length > 0)).toHaveLength(1);
    const knex = instances[0]!.core.knex;
    expect(Number((await knex('accounts').count({ n: '*' }).first())?.n)).toBe(1);
    expect(Number((await knex('projects').count({ n: '*' }).first())?.n)).toBe(1);
    expect(Number((await knex('personal_access_tokens').count({ n: '*' }).first())?.n)).toBe(1);
  });
});
