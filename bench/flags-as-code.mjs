#!/usr/bin/env node
/**
 * Flags as code at scale: apply, export and plan of a project of BENCH_CONFIG_FLAGS flags
 * (default 10,000) x 2 environments, each served in production (every other one with a rule),
 * against the same work done the way a script would without them, measured in the same run on
 * the same server: one POST per flag plus one serve call per flag (a sample of
 * BENCH_CONFIG_SAMPLE flags, scaled up), and reading the flags through the paginated list.
 * Writes bench/results/flags-as-code.md. Needs `make build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Api } from './lib/api.mjs';
import { generatedConfiguration } from './lib/configuration-file.mjs';
import { mainDialect, removeTempFiles, startVexil } from './lib/server.mjs';
import { BENCH_DIR, fmtInt } from './lib/util.mjs';

const flags = Number(process.env.BENCH_CONFIG_FLAGS ?? 10_000);
const sample = Number(process.env.BENCH_CONFIG_SAMPLE ?? 300);
const log = (line) => process.stderr.write(`${line}\n`);
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function timed(work) {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

const dialect = mainDialect();
const vexil = await startVexil({ label: 'flags-as-code', dialect, env: { VEXIL_MAX_BODY_BYTES: String(256 * 1024 * 1024) } });
try {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  const file = generatedConfiguration('bench-config', flags, { serving: true });
  log(`flags as code: applying ${fmtInt(flags)} flags (${(JSON.stringify(file).length / 1e6).toFixed(1)} MB of JSON)`);
  const apply = await timed(() => api.mgmt('POST', '/projects/bench-config/configuration/apply', file));
  const exports = [];
  for (let i = 0; i < 3; i++)
    exports.push(
      await timed(() =>
        api.request('GET', '/management/v1/projects/bench-config/configuration?format=yaml', {
          headers: { authorization: `Bearer ${vexil.ownerToken}` },
        }),
      ),
    );
  const identical = exports.every((e) => e.result.text === exports[0].result.text);
  const exportMs = exports.map((e) => e.ms).sort((a, b) => a - b)[1];
  const plan = await timed(() => api.mgmt('POST', '/projects/bench-config/configuration/plan', file));
  const reapply = await timed(() => api.mgmt('POST', '/projects/bench-config/configuration/apply', file));

  // Baselines on the same server: the same flags one call at a time, and reading them by list.
  await api.mgmt('POST', '/projects', {
    key: 'bench-single',
    name: 'Single',
    environments: [
      { key: 'staging', name: 'staging' },
      { key: 'production', name: 'production' },
    ],
  });
  const single = await timed(async () => {
    for (const flag of file.flags.slice(0, sample)) {
      await api.mgmt('POST', '/projects/bench-single/flags', { key: flag.key, name: flag.name, type: 'boolean' });
      await api.mgmt('POST', `/projects/bench-single/flags/${flag.key}/environments/production/serve`, { value: 'false' });
    }
  });
  const singleMs = (single.ms / sample) * flags;
  const list = await timed(async () => {
    let cursor;
    do {
      const page = await api.mgmt(
        'GET',
        `/projects/bench-config/flags?per_page=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      cursor = page.meta.next_cursor;
    } while (cursor);
  });

  const rows = [
    [
      'Apply into an empty project',
      seconds(apply.ms),
      `one call per flag and serve: ${seconds(singleMs)} (${(singleMs / apply.ms).toFixed(1)}x slower)`,
    ],
    [
      'Export (YAML), median of 3',
      seconds(exportMs),
      `listing the flags alone, 100 a page: ${seconds(list.ms)} (${(exportMs / list.ms).toFixed(2)}x of it); identical bytes: ${identical ? 'yes' : 'NO'}`,
    ],
    ['Plan of the same file (no changes)', seconds(plan.ms), `${plan.result.data.changes.length} changes`],
    ['Apply again (nothing to do)', seconds(reapply.ms), `${reapply.result.data.changes.length} changes`],
  ];
  const table = [
    `Flags as code, ${fmtInt(flags)} flags x 2 environments, ${dialect === 'mysql' ? 'MariaDB' : 'SQLite'}, Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}`,
    '',
    '| Operation | Time | Baseline in the same run |',
    '|---|---:|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `Baseline "one call per flag" timed ${sample} flags (create + serve) and scaled to ${fmtInt(flags)}. Peak RSS of the server: ${Math.round(vexil.memory().peakRss / 1e6)} MB.`,
    '',
  ].join('\n');
  process.stdout.write(table);
  fs.writeFileSync(path.join(BENCH_DIR, 'results', 'flags-as-code.md'), table);
} finally {
  await vexil.stop();
  removeTempFiles();
}
