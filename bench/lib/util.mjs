/** Small helpers shared by the benchmark harness (no dependencies). */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const BENCH_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ROOT = path.dirname(BENCH_DIR);
/** The build the servers run (BENCH_DIST: another build, e.g. of an earlier commit, for a before and after). */
export const DIST = process.env.BENCH_DIST || path.join(ROOT, 'dist');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function numberFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

/** Run settings: BENCH_DURATION (s, measured), BENCH_WARMUP (s), BENCH_CONNECTIONS, BENCH_ROUNDS. */
export const settings = {
  duration: numberFromEnv('BENCH_DURATION', 10),
  warmup: numberFromEnv('BENCH_WARMUP', 3),
  connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  /** Turns Vexil and the baselines take in each HTTP scenario (lib/measure.mjs). */
  rounds: numberFromEnv('BENCH_ROUNDS', 3),
  /** Audit entries seeded before the deep page (scenario 7). */
  auditEntries: numberFromEnv('BENCH_AUDIT_ENTRIES', 100_000),
  /** Flags per environment of the scale scenario (8). */
  scaleFlags: numberFromEnv('BENCH_SCALE_FLAGS', 10_000),
  profile: process.env.BENCH_PROFILE === '1',
};

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `prefix` + 40 random base62 characters (the shape of every Vexil secret). */
export function secret(prefix, length = 40) {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    if (bytes[i] < 248) out += BASE62[bytes[i] % 62];
  }
  return prefix + out;
}

/** Percentile (0..100) of an already sorted array of numbers. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return percentile(sorted, 50);
}

/** Runs `fn` over `items` with at most `concurrency` calls in flight; results in item order. */
export async function pool(items, concurrency, fn) {
  const results = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}

/** A scenario step that could not run because a feature is missing or failing. */
export class NotAvailable extends Error {
  constructor(reason) {
    super(reason);
    this.name = 'NotAvailable';
  }
}

export function fmtInt(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return '–';
  return Math.round(n).toLocaleString('en-US');
}

export function fmtMs(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return '–';
  return n < 10 ? n.toFixed(2).replace(/\.?0+$/, '') || '0' : n.toFixed(1).replace(/\.0$/, '');
}
