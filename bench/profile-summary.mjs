#!/usr/bin/env node
/**
 * Summarises V8 CPU profiles (node --cpu-prof): the functions with the most self time, with
 * file:line, and the total time under the functions matching an optional filter.
 * Usage: node bench/profile-summary.mjs FILE.cpuprofile [top=25] [filter-regexp]
 */
import fs from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
const top = Number(process.argv[3] ?? 25);
const filter = process.argv[4] ? new RegExp(process.argv[4]) : undefined;
if (!file) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [top] [filter]');
  process.exit(2);
}

export function summarise(profile, { top = 25, root } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const label = (n) => {
    const cf = n.callFrame;
    const url = cf.url ? cf.url.replace(/^file:\/\//, '') : '';
    const short = url ? path.relative(root ?? process.cwd(), url) : '(native)';
    return `${cf.functionName || '(anonymous)'}  ${short}${url ? `:${cf.lineNumber + 1}` : ''}`;
  };
  const byFunction = new Map();
  for (const [id, t] of self) {
    const key = label(nodes.get(id));
    byFunction.set(key, (byFunction.get(key) ?? 0) + t);
  }
  // Inclusive time per function (a function counted once per stack).
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map();
  for (const [id, t] of self) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const key = label(nodes.get(cur));
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    }
  }
  const byFile = new Map();
  for (const [id, t] of self) {
    const url = nodes.get(id).callFrame.url.replace(/^file:\/\//, '');
    let key = url ? path.relative(root ?? process.cwd(), url) : `(native) ${nodes.get(id).callFrame.functionName}`;
    const pkg = key.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
    if (pkg) key = `node_modules/${pkg[1]}`;
    else if (key.startsWith('node:')) key = 'node: internals';
    byFile.set(key, (byFile.get(key) ?? 0) + t);
  }
  const sorted = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top);
  const incl = [...inclusive]
    .sort((a, b) => b[1] - a[1])
    .filter(([k]) => !k.startsWith('(root)'))
    .slice(0, top);
  const files = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { total, self: sorted, inclusive: incl, files };
}

const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const s = summarise(profile, { top: 1000 });
const pct = (t) => ((100 * t) / s.total).toFixed(1).padStart(5) + ' %';
console.log(`total sampled ${(s.total / 1000).toFixed(0)} ms`);
console.log('\nself time:');
for (const [k, t] of s.self.filter(([k]) => !filter || filter.test(k)).slice(0, top)) console.log(`${pct(t)}  ${k}`);
console.log('\nself time by file or package:');
for (const [k, t] of s.files.filter(([k]) => !filter || filter.test(k)).slice(0, top)) console.log(`${pct(t)}  ${k}`);
console.log('\ninclusive time:');
for (const [k, t] of s.inclusive.filter(([k]) => !filter || filter.test(k)).slice(0, top)) console.log(`${pct(t)}  ${k}`);
