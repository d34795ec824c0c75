import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/databases.js';
import { assertMatchesContract } from '../support/contract.js';
import { type GaleraCluster, galeraUnavailable, startGaleraCluster } from '../support/galera-cluster.js';
import { type ApiResponse, startTestApp, type TestApp } from '../support/test-app.js';

const unavailable = galeraUnavailable();
if (unavailable && process.env.CI) throw new Error(`The Galera fault test needs a cluster of its own, but ${unavailable}.`);
if (unavailable) console.warn(`\n*** ${unavailable}: the Galera fault test is skipped. ***\n`);

/** Rounds of kill, rejoin and check (issue 37 targets 5: GALERA_ROUNDS=5; make test runs 1, about 2 minutes). */
const rounds = Math.max(1, Number(process.env.GALERA_ROUNDS ?? 1));
const writers = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  code?: string;
  ms: number;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * A three-node Galera cluster (issue 37 item 2): two Vexil instances on different nodes, ten
 * clients writing through them, and in each round one node killed with SIGKILL and started again.
 * Every acknowledged write is on the surviving nodes and, once the node has rejoined (by IST), on
 * all three; no client gets a 5xx other than the documented 503; evaluations keep answering from
 * memory; the instance whose node died is on a live node within 5 s.
 */
describe.runIf(!unavailable)('a Galera cluster losing a node under ten writers', () => {
  let cluster: GaleraCluster | undefined;
  const apps: TestApp[] = [];
  const project = 'galera';
  let serverKey = '';

  const database = (index: number) => `${cluster!.nodes[index]!.url}/vexil`;
  const urlFor = (first: number) => `mysql://root@${cluster!.hostList(first)}/vexil`;

  beforeAll(async () => {
    cluster = await startGaleraCluster();
    // Instance A starts on node 1, instance B on node 2; each lists every node.
    const config = { revisionPollMs: 250, logLevel: 'silent' as const };
    apps.push(await startTestApp({} as TestDatabase, { databaseUrl: urlFor(0), keepDatabase: true, config }));
    apps.push(await startTestApp({} as TestDatabase, { databaseUrl: urlFor(1), keepDatabase: true, config }));
    const created = await apps[0]!.mgmt('POST', '/projects', {
      key: project,
      name: 'Galera',
      environments: [{ key: 'production', name: 'Production' }],
    });
    expect(created.status).toBe(200);
    const key = await apps[0]!.mgmt('POST', `/projects/${project}/environments/production/keys`, { kind: 'server' });
    expect(key.status).toBe(200);
    serverKey = key.body.data.key;
    expect((await apps[0]!.mgmt('POST', `/projects/${project}/flags`, { key: 'served', name: 'Served', type: 'boolean' })).status).toBe(
      200,
    );
    for (const app of apps) {
      for (let i = 0; i < 100 && (await app.request('GET', '/v1/flags/served', { apiKey: serverKey })).status !== 200; i++)
        await sleep(100);
    }
  }, 240_000);

  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await cluster?.stop();
  }, 120_000);

  /** What each node holds of the acknowledged writes. */
  async function missingOn(node: number, flags: string[], published: string[]): Promise<string[]> {
    const conn = await mysql.createConnection({ uri: database(node) });
    try {
      await conn.query('SET SESSION wsrep_sync_wait = 1');
      const [flagRows] = await conn.query('SELECT f.`key` FROM flags f JOIN projects p ON p.ulid = f.project_ulid WHERE p.`key` = ?', [
        project,
      ]);
      const [targetRows] = await conn.query("SELECT ulid FROM targets WHERE status <> 'draft'");
      const haveFlags = new Set((flagRows as { key: string }[]).map((r) => r.key));
      const haveTargets = new Set((targetRows as { ulid: string }[]).map((r) => r.ulid));
      return [
        ...flags.filter((k) => !haveFlags.has(k)).map((k) => `flag ${k}`),
        ...published.filter((u) => !haveTargets.has(u)).map((u) => `target ${u}`),
      ];
    } finally {
      await conn.end();
    }
  }

  it(`keeps every acknowledged write over ${rounds} round(s) of a node killed and rejoined`, async () => {
    const acknowledgedFlags: string[] = [];
    const acknowledgedPublishes: string[] = [];
    const answers: Answer[] = [];
    const unexpected: string[] = [];
    const evaluations: { phase: 'steady' | 'fault'; ms: number; status: number }[] = [];
    let phase: 'steady' | 'fault' = 'steady';
    const figures: string[] = [];
    const unavailableReasons: string[] = [];

    /** One management call; a 503 must be the documented one. */
    async function call(app: TestApp, method: string, path: string, body?: unknown): Promise<Pick<ApiResponse, 'status' | 'body'>> {
      const started = performance.now();
      try {
        // The 503 is documented once for every operation (the management document's error table),
        // not on each: the contract is checked on every other answer.
        const res = await app.mgmt(method, path, body, { skipContract: true });
        if (res.status !== 503) {
          assertMatchesContract(method, `/management/v1${path}`, res.status, res.body, res.headers.get('content-type') ?? '');
        } else unavailableReasons.push(String(res.body?.message));
        const answer = { status: res.status, code: res.body?.code, ms: performance.now() - started };
        answers.push(answer);
        if (res.status === 503 && res.body?.code !== 'database_unavailable')
          unexpected.push(`${method} ${path}: 503 ${JSON.stringify(res.body)}`);
        if (res.status >= 500 && res.status !== 503) unexpected.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        if (res.status !== 200 && res.status !== 503) unexpected.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        return res;
      } catch (error) {
        unexpected.push(`${method} ${path}: ${(error as Error).message}`);
        answers.push({ status: 0, ms: performance.now() - started });
        return { status: 0, body: undefined };
      }
    }

    let writing = true;
    let sequence = 0;
    /** A writer creates flags, and publishes a value of one of its flags every third write. */
    const writerLoops = Array.from({ length: writers }, async (_, writer) => {
      const app = apps[writer % apps.length]!;
      const mine: string[] = [];
      for (let n = 0; writing; n++) {
        if (n % 3 === 2 && mine.length > 0) {
          const flag = mine[n % mine.length]!;
          const envPath = `/projects/${project}/flags/${flag}/environments/production`;
          const draft = await call(app, 'POST', `${envPath}/targets`);
          if (draft.status !== 200) continue;
          const values = await call(app, 'GET', `/projects/${project}/flags/${flag}/values`);
          if (values.status !== 200) continue;
          const on = values.body.data.find((v: { value: unknown }) => v.value === true);
          const update = await call(app, 'PUT', `${envPath}/targets/${draft.body.data.ulid}`, { value_ulid: on.ulid });
          if (update.status !== 200) continue;
          const published = await call(app, 'PUT', `${envPath}/targets/${draft.body.data.ulid}/publish`, { comment: `writer ${writer}` });
          if (published.status === 200) acknowledgedPublishes.push(draft.body.data.ulid);
        } else {
          const key = `w${writer}-${sequence++}`;
          const created = await call(app, 'POST', `/projects/${project}/flags`, { key, name: key, type: 'boolean' });
          if (created.status === 200) {
            acknowledgedFlags.push(key);
            mine.push(key);
          }
        }
      }
    });
    /** Each instance evaluates a flag from memory, one request after another. */
    const evaluationLoops = apps.map(async (app) => {
      while (writing) {
        const started = performance.now();
        const res = await app.request('GET', '/v1/flags/served', { apiKey: serverKey }).catch(() => ({ status: 0 }));
        evaluations.push({ phase, ms: performance.now() - started, status: res.status });
        await sleep(5);
      }
    });

    /** Polls /ready until the instance's database host is a live node; returns when (ms after `since`). */
    async function backOnLiveNode(app: TestApp, deadHost: string, since: number): Promise<number> {
      for (;;) {
        const ready = await app.request('GET', '/ready');
        const host = ready.body.database_host;
        if (host && host.host !== deadHost && host.state === 'connected') return Date.now() - since;
        if (Date.now() - since > 30_000) throw new Error(`still on ${JSON.stringify(host)} 30 s after the kill`);
        await sleep(50);
      }
    }

    try {
      // Evaluations without a fault, to compare with those during one.
      await sleep(3000);
      for (let round = 0; round < rounds; round++) {
        const victim = round % 3;
        const deadHost = `127.0.0.1:${cluster!.nodes[victim]!.port}`;
        const onVictim = [];
        for (const app of apps) {
          if ((await app.request('GET', '/ready')).body.database_host.host === deadHost) onVictim.push(app);
        }
        const answersBefore = answers.length;
        const ackBefore = acknowledgedFlags.length + acknowledgedPublishes.length;
        phase = 'fault';
        const killedAt = Date.now();
        await cluster!.kill(victim);
        const reconnectMs = await Promise.all(onVictim.map((app) => backOnLiveNode(app, deadHost, killedAt)));
        // Writes go on through the eviction of the dead node (about 6 s) and after it.
        await sleep(9000);
        const survivors = [0, 1, 2].filter((i) => i !== victim);
        const snapshotFlags = [...acknowledgedFlags];
        const snapshotPublishes = [...acknowledgedPublishes];
        for (const node of survivors)
          expect(await missingOn(node, snapshotFlags, snapshotPublishes), `missing on node ${node + 1}`).toEqual([]);
        const restartStarted = Date.now();
        const transfer = await cluster!.restart(victim);
        await cluster!.waitUntilWhole(3);
        const rejoinMs = Date.now() - restartStarted;
        phase = 'steady';
        await sleep(2000);
        const roundAnswers = answers.slice(answersBefore);
        const unavailableAnswers = roundAnswers.filter((a) => a.status === 503).length;
        const slowest = Math.max(...roundAnswers.map((a) => a.ms));
        figures.push(
          `round ${round + 1}: killed node${victim + 1}; ${acknowledgedFlags.length + acknowledgedPublishes.length - ackBefore} writes acknowledged, ` +
            `${unavailableAnswers} answered 503 of ${roundAnswers.length}; slowest answer ${slowest.toFixed(0)} ms; ` +
            `instance back on a live node in ${reconnectMs.map((ms) => `${ms} ms`).join(', ') || '(no instance on it)'}; ` +
            `node rejoined by ${transfer} in ${rejoinMs} ms`,
        );
        for (const ms of reconnectMs) expect(ms, 'instance back on a live node').toBeLessThan(5000);
        expect(transfer, 'the node rejoins by incremental state transfer').toBe('IST');
      }
    } finally {
      writing = false;
      await Promise.all([...writerLoops, ...evaluationLoops]);
    }

    // Writes acknowledged up to the end (after the last rejoin too), on every node.
    for (const node of [0, 1, 2]) {
      expect(await missingOn(node, acknowledgedFlags, acknowledgedPublishes), `missing on node ${node + 1}`).toEqual([]);
    }
    const steady = evaluations.filter((e) => e.phase === 'steady').map((e) => e.ms);
    const fault = evaluations.filter((e) => e.phase === 'fault').map((e) => e.ms);
    const statuses: Record<number, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    figures.push(
      `total: ${acknowledgedFlags.length} flags and ${acknowledgedPublishes.length} publishes acknowledged, 0 lost; answers by status ${JSON.stringify(statuses)}`,
      `evaluations: ${steady.length} steady p50 ${percentile(steady, 50).toFixed(1)} ms p99 ${percentile(steady, 99).toFixed(1)} ms; ` +
        `${fault.length} during faults p50 ${percentile(fault, 50).toFixed(1)} ms p99 ${percentile(fault, 99).toFixed(1)} ms; ` +
        `non-200: ${evaluations.filter((e) => e.status !== 200).length}`,
      `503 answers: ${unavailableReasons.length} (${[...new Set(unavailableReasons)].join('; ') || 'none'})`,
    );
    console.log(`\nGalera fault test, ${rounds} round(s), ${writers} writers, 2 instances:\n  ${figures.join('\n  ')}\n`);

    expect(unexpected, 'answers other than 200 and the documented 503').toEqual([]);
    expect(acknowledgedFlags.length).toBeGreaterThan(rounds * 20);
    expect(acknowledgedPublishes.length).toBeGreaterThan(rounds);
    expect(evaluations.filter((e) => e.status !== 200)).toEqual([]);
    // Evaluations answer from memory: a dying node does not slow them (a loose bound: the machine is shared).
    expect(percentile(fault, 99)).toBeLessThan(Math.max(5 * percentile(steady, 99), 50));
  }, 600_000);
});
