/**
 * The public audit trail at scale: for each database (SQLite, and MariaDB/MySQL when reachable)
 * and each mode of VEXIL_PUBLIC_AUDIT, a fresh server serves scenario 1 (GET /v1/flags/{key} with
 * a context) at full speed from autocannon (50 connections); then the server is stopped (which
 * writes what its buffer still holds) and the audit table is measured. Reported: req/s, rows and
 * bytes (table and indexes) per million requests, rows written per second while serving, entries
 * dropped, and what was still buffered when the load ended.
 *
 * node bench/public-audit.mjs    (BENCH_AUDIT_DURATION s per run, default 15; BENCH_AUDIT_MODES)
 * Results: bench/results/public-audit.md
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Api } from './lib/api.mjs';
import { runLoad } from './lib/load.mjs';
import { mysqlReachable, removeTempFiles, serverNodeVersion, startVexil } from './lib/server.mjs';
import { waitForPublic } from './lib/setup.mjs';
import { BENCH_DIR, fmtInt, sleep } from './lib/util.mjs';
import { contextHeaders, SCENARIO_FLAG, setupScenarioOne } from './scenarios/evaluation.mjs';

const duration = Number(process.env.BENCH_AUDIT_DURATION || 15);
const modes = (process.env.BENCH_AUDIT_MODES || 'every,errors,aggregate,sample:0.01').split(',');
const flagPath = `/v1/flags/${SCENARIO_FLAG}`;

/**
 * Rows of the scenario path (through the view public_audit_entries) and bytes of the two tables
 * behind it with their indexes (public_audit_requests, public_audit_parts), read from the
 * database itself.
 */
async function tableStats(database) {
  if (database.dialect === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(database.file, { readonly: true });
    try {
      const rows = db
        .prepare('SELECT COUNT(*) AS n, COALESCE(SUM(count), 0) AS requests FROM public_audit_entries WHERE http_path = ?')
        .get(flagPath);
      // dbstat: the pages each b-tree (table, primary key, indexes) occupies.
      const bytes = db
        .prepare(
          "SELECT COALESCE(SUM(pgsize), 0) AS b FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name IN ('public_audit_requests', 'public_audit_parts'))",
        )
        .get().b;
      return { rows: rows.n, requests: rows.requests, bytes };
    } finally {
      db.close();
    }
  }
  const { default: mysql } = await import('mysql2/promise');
  const conn = await mysql.createConnection(database.url);
  try {
    const [[rows]] = await conn.query(
      'SELECT COUNT(*) AS n, COALESCE(SUM(`count`), 0) AS requests FROM public_audit_entries WHERE http_path = ?',
      [flagPath],
    );
    await conn.query('ANALYZE TABLE public_audit_requests, public_audit_parts');
    // InnoDB's own figures: pages of the clustered index (the rows) and of the secondary indexes.
    const [[size]] = await conn.query(
      "SELECT SUM(data_length + index_length) AS b FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_name IN ('public_audit_requests', 'public_audit_parts')",
    );
    return { rows: Number(rows.n), requests: Number(rows.requests), bytes: Number(size.b) };
  } finally {
    await conn.end();
  }
}

/** The public audit buffer's figures from GET /metrics. */
async function bufferMetrics(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const read = (name) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{buffer="public_audit"}`));
    return line ? Number(line.split(' ').pop()) : NaN;
  };
  // Requests the server answered (autocannon leaves out those still in flight when it stops).
  const served = text
    .split('\n')
    .filter((l) => l.startsWith('vexil_http_request_duration_seconds_count{') && l.includes('operation="getEvaluatedFlag"'))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  return {
    depth: read('vexil_buffer_entries'),
    written: read('vexil_buffer_rows_written_total'),
    dropped: read('vexil_buffer_rows_dropped_total'),
    served,
  };
}

async function runMode(dialect, mode, log) {
  const vexil = await startVexil({
    label: `public-audit-${dialect}-${mode.replace(/[^a-z0-9]/g, '-')}`,
    dialect,
    env: { VEXIL_PUBLIC_AUDIT: mode },
    keepDatabase: true,
  });
  try {
    const api = new Api(vexil.baseUrl, vexil.ownerToken);
    const { apiKey } = await setupScenarioOne(api);
    // Settled through the payload, so the scenario path's entries come from the load alone.
    await waitForPublic(api, apiKey, '/v1/payload', (r) => r.status === 200 && JSON.stringify(r.body).includes(SCENARIO_FLAG), 30_000);
    await sleep(1500);
    const before = await tableStats(vexil.database);
    const m0 = await bufferMetrics(vexil.baseUrl);
    const load = await runLoad({
      serverPid: vexil.pid,
      url: vexil.baseUrl + flagPath,
      headers: { 'x-vexil-api-key': apiKey, ...contextHeaders },
      duration,
      warmup: 0,
    });
    const m1 = await bufferMetrics(vexil.baseUrl);
    await sleep(200);
    const served = (await bufferMetrics(vexil.baseUrl)).served - m0.served;
    const drainStart = Date.now();
    while ((await bufferMetrics(vexil.baseUrl)).depth > 0 && Date.now() - drainStart < 30_000 && mode !== 'aggregate') await sleep(100);
    const drainMs = Date.now() - drainStart;
    await vexil.stop();
    const after = await tableStats(vexil.database);
    const rows = after.rows - before.rows;
    const bytes = after.bytes - before.bytes;
    const result = {
      dialect,
      mode,
      rps: load.rps,
      p99: load.p99,
      requests: served,
      statuses: load.statusCodes,
      rows,
      requestsCounted: after.requests - before.requests,
      bytes,
      rowsPerMillion: (rows / served) * 1e6,
      bytesPerRow: rows >= 1000 ? bytes / rows : NaN,
      bytesPerMillion: (bytes / served) * 1e6,
      writtenPerSecond: (m1.written - m0.written) / load.duration,
      dropped: m1.dropped - m0.dropped,
      bufferedAtEnd: m1.depth,
      drainMs,
      serverCpuUsPerReq: load.serverCpuUsPerReq,
    };
    log(
      `${dialect} ${mode}: ${fmtInt(result.rps)} req/s, ${fmtInt(rows)} rows, ${fmtInt(bytes)} bytes, ${fmtInt(result.writtenPerSecond)} rows/s written while serving, dropped ${result.dropped}`,
    );
    return result;
  } finally {
    await vexil.stop();
    await vexil.database.drop().catch(() => {});
  }
}

const log = (line) => process.stderr.write(`${line}\n`);
const results = [];
const dialects = ['sqlite'];
if (await mysqlReachable()) dialects.push('mysql');
else log('MariaDB/MySQL not reachable: SQLite only');
const started = new Date();
const load0 = os.loadavg();
try {
  for (const dialect of dialects) for (const mode of modes) results.push(await runMode(dialect, mode, log));
} finally {
  removeTempFiles();
}
const load1 = os.loadavg();

// Too few rows to fill pages: their bytes are estimated from the same database's row size in `every`.
for (const r of results) {
  if (!Number.isNaN(r.bytesPerRow)) continue;
  const every = results.find((o) => o.dialect === r.dialect && !Number.isNaN(o.bytesPerRow));
  r.bytesPerMillion = every ? r.rowsPerMillion * every.bytesPerRow : NaN;
  r.estimated = true;
}
const name = { sqlite: 'SQLite', mysql: 'MariaDB' };
const mb = (b) => (b / 1e6).toFixed(b >= 1e7 ? 0 : 1);
const lines = [
  '# Public audit trail at scale',
  '',
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; Node ${serverNodeVersion}. Date: ${started.toISOString()}. Load average (1 min) at start ${load0[0].toFixed(2)}, at end ${load1[0].toFixed(2)}.`,
  `Method: \`node bench/public-audit.mjs\`. Per database and mode, a fresh server (\`VEXIL_PUBLIC_AUDIT=<mode>\`, rate limit off) serves scenario 1 (GET ${flagPath} with a context, 5 rules x 3 criteria + 50 % rollout, one server key) to autocannon, 50 connections, ${duration} s; the server is then stopped (writing what its buffer holds) and the tables measured: rows of that path (the view public_audit_entries), and the bytes of public_audit_requests and public_audit_parts with their indexes (SQLite: dbstat pages; MariaDB: data_length + index_length after ANALYZE TABLE, InnoDB's page-level figures). "Written/s" is rows written by the background task during the load (from /metrics), i.e. the insert rate the database held while the server answered at full speed; "dropped" are entries refused by a full buffer.`,
  '',
  '| DB | Mode | req/s | p99 ms | rows per 1 M requests | bytes per row | MB per 1 M requests | rows written/s while serving | dropped | buffered at end of load |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${name[r.dialect]} | \`${r.mode}\` | ${fmtInt(r.rps)} | ${r.p99} | ${fmtInt(r.rowsPerMillion)} | ${Number.isNaN(r.bytesPerRow) ? '–' : fmtInt(r.bytesPerRow)} | ${Number.isNaN(r.bytesPerMillion) ? '–' : mb(r.bytesPerMillion)}${r.estimated ? ' (est.)' : ''} | ${fmtInt(r.writtenPerSecond)} | ${fmtInt(r.dropped)} | ${fmtInt(r.bufferedAtEnd)} |`,
  ),
  '',
  '"est.": too few rows to measure pages; rows per million times the row size measured with `every` on the same database. In `aggregate` the rows depend on time, not on requests: one row per key, flag, status and minute, so a million requests served in 17 minutes (1,000 req/s) to one flag make 17 rows, and the run above (its rate, one flag) is one such case.',
  '',
  "Details (requests answered, by the server's own count; statuses seen by autocannon; rows; requests counted by the rows; server CPU per request):",
  '',
  ...results.map(
    (r) =>
      `- ${name[r.dialect]} \`${r.mode}\`: ${fmtInt(r.requests)} requests ${JSON.stringify(r.statuses)}, ${fmtInt(r.rows)} rows standing for ${fmtInt(r.requestsCounted)} requests, ${fmtInt(r.bytes)} bytes, ${r.serverCpuUsPerReq.toFixed(0)} µs CPU/request, buffer drained ${r.drainMs} ms after the load`,
  ),
  '',
];
const out = path.join(BENCH_DIR, 'results', 'public-audit.md');
fs.writeFileSync(out, lines.join('\n'));
fs.writeFileSync(path.join(BENCH_DIR, 'results', 'public-audit.json'), JSON.stringify(results, null, 2));
process.stdout.write(lines.join('\n'));
log(`written to ${path.relative(process.cwd(), out)}`);
