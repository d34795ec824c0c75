import { spawn, type ChildProcess } from 'node:child_process';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateMariadbUnavailable, startPrivateMariadb, type PrivateMariadb } from '../support/private-mariadb.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

const unavailable = privateMariadbUnavailable();
if (unavailable && (process.env.CI || process.env.VEXIL_REQUIRE_MARIADB === '1')) {
  throw new Error(`The hung-database test needs a MariaDB server of its own to stop, but ${unavailable}.`);
}
if (unavailable) console.warn(`\n*** ${unavailable}: the hung-database test is skipped. ***\n`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Attempt {
  key: string;
  status: number;
  retryAfter: string | null;
  started: number;
  ms: number;
}

/**
 * A hung database (issue 13 item 9): a real Vexil process on a MariaDB server of this test's own,
 * stopped with SIGSTOP while writes run and resumed with SIGCONT. Management requests get a 503
 * with Retry-After within the configured timeouts, nothing is half-written, evaluation keeps
 * serving from memory, and everything works again once the server runs.
 */
describe.runIf(!unavailable)('a database stopped with SIGSTOP', () => {
  const port = serverPort();
  const base = `http://127.0.0.1:${port}`;
  const acquireMs = 1000;
  const queryMs = 1500;
  /** Waiting for a connection plus one query at most, and slack for a machine busy with other suites. */
  const limitMs = acquireMs + queryMs + 3000;
  const environments = ['one', 'two', 'three'];
  let mariadb: PrivateMariadb | undefined;
  let child: ChildProcess | undefined;
  let stdout = '';
  let stderr = '';
  let token = '';
  let serverKey = '';

  const management = (method: string, route: string, body?: unknown) =>
    fetch(`${base}/management/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });

  /** Creates a project with three environments: one transaction of several rows and an audit entry. */
  async function createProject(key: string): Promise<Attempt> {
    const started = Date.now();
    const res = await management('POST', '/projects', { key, name: key, environments: environments.map((e) => ({ key: e, name: e })) });
    const ms = Date.now() - started;
    const body = (await res.json()) as { status?: string; message?: string };
    if (res.status === 503) {
      expect(body.status).toBe('error');
      expect(body.message).toMatch(/database is unavailable/);
    }
    return { key, status: res.status, retryAfter: res.headers.get('retry-after'), started, ms };
  }

  beforeAll(async () => {
    mariadb = await startPrivateMariadb();
    requireFreshBuild();
    child = spawn(process.execPath, [builtServer], {
      env: {
        ...process.env,
        DATABASE_URL: `${mariadb.url}/vexil`,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        REDIS_URL: '',
        VEXIL_DB_ACQUIRE_TIMEOUT_MS: String(acquireMs),
        VEXIL_DB_QUERY_TIMEOUT_MS: String(queryMs),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    for (let i = 0; i < 300 && !stdout.includes('srv_'); i++) await sleep(200);
    token = /pat_[0-9A-Za-z]{32,}/.exec(stdout)?.[0] ?? '';
    serverKey = /srv_[0-9A-Za-z]{32,}/.exec(stdout)?.[0] ?? '';
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await sleep(100);
    }
  }, 120_000);

  afterAll(async () => {
    mariadb?.thaw();
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await mariadb?.stop();
  }, 60_000);

  it('answers 503 with Retry-After within the timeouts while stopped, writes whole or nothing, and recovers after SIGCONT', async () => {
    expect(token, stdout).not.toBe('');
    expect((await management('GET', '/projects')).status).toBe(200);
    expect((await fetch(`${base}/v1/flags`, { headers: { 'x-vexil-api-key': serverKey } })).status).toBe(200);
    expect((await management('POST', '/projects/demo/flags', { key: 'outage-flag', name: 'Outage flag', type: 'boolean' })).status).toBe(
      200,
    );

    // Three clients create projects one after another; the server is stopped in the middle of it.
    const attempts: Attempt[] = [];
    let writing = true;
    // A request that fails outright (no answer) is recorded as status 0, so the checks below name
    // it instead of an unhandled rejection hiding which check failed.
    const writers = [0, 1, 2].map(async (writer) => {
      for (let n = 0; writing; n++) {
        const key = `hung-${writer}-${n}`;
        const started = Date.now();
        attempts.push(
          await createProject(key).catch((error: Error) => ({
            key,
            status: 0,
            retryAfter: `${error.message}: ${String((error.cause as Error | undefined)?.message)}`,
            started,
            ms: Date.now() - started,
          })),
        );
      }
    });
    await sleep(500);
    await mariadb!.freeze();
    const frozenAt = Date.now();
    let thawedAt = 0;
    try {
      // Requests that start while the server is stopped.
      for (const [method, route] of [
        ['GET', '/projects'],
        ['GET', '/projects/demo/flags'],
        ['GET', '/audit-logs'],
      ] as const) {
        const started = Date.now();
        const res = await management(method, route);
        expect(res.status, `${method} ${route}`).toBe(503);
        expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
        expect(res.headers.get('content-type')).toContain('application/json');
        expect(await res.json()).toMatchObject({
          status: 'error',
          message: expect.stringMatching(/database is unavailable/),
          code: 'database_unavailable',
        });
        expect(Date.now() - started, `${method} ${route}`).toBeLessThan(limitMs);
      }
      // Evaluation is served from memory meanwhile, the POST twins (inputs in the body) included;
      // readiness says the database is away.
      expect((await fetch(`${base}/v1/flags`, { headers: { 'x-vexil-api-key': serverKey } })).status).toBe(200);
      const inputs = JSON.stringify({ context: { type: 'user', identifier: 'u-1' }, default_values: [] });
      const post = (route: string) =>
        fetch(`${base}${route}`, {
          method: 'POST',
          headers: { 'x-vexil-api-key': serverKey, 'content-type': 'application/json' },
          body: inputs,
        });
      const twin = await post('/v1/flags/evaluate');
      expect(twin.status).toBe(200);
      const listed = (await twin.json()) as { data: Array<{ flag: { key: string } }> };
      expect(listed.data.map((item) => item.flag.key)).toContain('outage-flag');
      expect((await post('/v1/flags/outage-flag/evaluate')).status).toBe(200);
      expect((await post('/v1/payload')).status).toBe(200);
      expect((await fetch(`${base}/ready`)).status).toBe(503);
      await sleep(Math.max(0, frozenAt + 6000 - Date.now()));
      writing = false;
      await Promise.all(writers);
    } finally {
      writing = false;
      mariadb!.thaw();
      thawedAt = Date.now();
      await Promise.all(writers);
    }
    const serverOutput = `exit code ${child?.exitCode}, signal ${child?.signalCode}\n${stderr}\n${stdout.slice(-4000)}`;
    expect(child?.exitCode, serverOutput).toBeNull();

    // Every write that was running or started while the server was stopped ended within the limit.
    const duringOutage = attempts.filter((a) => a.started + a.ms > frozenAt && a.started < thawedAt);
    expect(duringOutage.length).toBeGreaterThan(0);
    for (const attempt of duringOutage) {
      expect(attempt.ms, attempt.key).toBeLessThan(limitMs);
      if (attempt.status !== 200) {
        expect(attempt.status, `${attempt.key} ${attempt.retryAfter}\n${serverOutput}`).toBe(503);
        expect(attempt.retryAfter).toMatch(/^[1-9][0-9]*$/);
      }
    }
    // No request failed in a way the error middleware did not recognise as the database's (a 500).
    expect(stdout, serverOutput).not.toContain('"msg":"unhandled error"');
    const startedStopped = duringOutage.filter((a) => a.started >= frozenAt);
    expect(startedStopped.length).toBeGreaterThan(0);
    expect(startedStopped.every((a) => a.status === 503)).toBe(true);

    // Once the server runs again, so does the API.
    let recovered = 0;
    for (let i = 0; i < 100 && recovered !== 200; i++) {
      recovered = (await management('GET', '/projects')).status;
      if (recovered !== 200) await sleep(200);
    }
    expect(recovered).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    expect((await createProject('after-outage')).status).toBe(200);

    // Nothing is half-written: each project is there with its three environments and its audit
    // entry, or not at all; each answered 200 is there. (A 503 whose commit reached the server
    // just before it stopped may be there too: the README says to read back before repeating.)
    const knex = knexFactory({ client: 'mysql2', connection: { uri: `${mariadb!.url}/vexil` } as never });
    try {
      const projects = (await knex('projects').where('key', 'like', 'hung-%').select('ulid', 'key')) as Array<{
        ulid: string;
        key: string;
      }>;
      const stored = new Map(projects.map((p) => [p.key, p.ulid]));
      for (const attempt of attempts) {
        if (attempt.status === 200) expect(stored.has(attempt.key), attempt.key).toBe(true);
      }
      for (const [key, ulid] of stored) {
        const envs = (await knex('environments').where('project_ulid', ulid).orderBy('key').select('key')) as Array<{ key: string }>;
        expect(
          envs.map((e) => e.key),
          key,
        ).toEqual([...environments].sort());
        expect(await knex('audit_entries').where({ action: 'project.created', subject_ulid: ulid }).first('ulid'), key).toBeDefined();
      }
      const orphans = await knex('environments').whereNotIn('project_ulid', knex('projects').select('ulid')).select('ulid');
      expect(orphans).toEqual([]);
      // The writes refused during the outage are not there.
      const refused = attempts.filter((a) => a.status === 503 && a.started >= frozenAt);
      expect(refused.length).toBeGreaterThan(0);
      for (const attempt of refused) expect(stored.has(attempt.key), attempt.key).toBe(false);
    } finally {
      await knex.destroy();
    }
  }, 120_000);
});
