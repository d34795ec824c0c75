/**
 * Scenario 5: the evaluation engine alone, in one process on one core (the main thread).
 * Compiles a snapshot holding the scenario-1 flag (5 rules x 3 criteria, 50 % rollout with a
 * previous target carrying the same rules) and evaluates it for 1,000 different users whose
 * attributes fail every rule on its third criterion (all 15 criteria evaluated, then the
 * rollout decides). Usage: node engine.mjs '<json {duration}>'; prints one JSON line.
 *
 * Beside it, the cost of a weighted split: the same flag as a string flag whose serving and
 * previous targets both end in a 34/33/33 base split, so every evaluation also runs the split
 * (three hashes of the identifier and three logarithms) after the same 15 criteria.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { DIST } from '../lib/util.mjs';
import { FLAG, USERS, scenarioConfig, scenarioContexts } from '../lib/scenario-flag.mjs';

const { duration = 5 } = JSON.parse(process.argv[2] ?? '{}');
const engine = await import(pathToFileURL(path.join(DIST, 'src', 'engine', 'index.js')).href);
const { compileSnapshot, evaluateFlag, parseContext } = engine;

const snapshot = compileSnapshot(scenarioConfig);
const split = {
  attribute: null,
  shares: [
    { variant: 'a', value: 'a', weight: 34000 },
    { variant: 'b', value: 'b', weight: 33000 },
    { variant: 'c', value: 'c', weight: 33000 },
  ],
};
const asString = (target) => ({
  value: 'base',
  rules: target.rules.map((r) => ({ ...r, value: String(r.value) })),
  split,
});
const scenarioFlag = scenarioConfig.flags[0];
const splitSnapshot = compileSnapshot({
  ...scenarioConfig,
  flags: [
    {
      ...scenarioFlag,
      type: 'string',
      default: { value: 'base' },
      serving: asString(scenarioFlag.serving),
      previous: asString(scenarioFlag.previous),
    },
  ],
});
const contexts = scenarioContexts.map((raw) => {
  const parsed = parseContext(raw);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.context;
});

// Sanity: every rule fails, the rollout splits the users.
const resolved = {};
const splitServed = {};
for (const c of contexts) {
  const out = evaluateFlag(snapshot, FLAG, c);
  resolved[out.resolved_by] = (resolved[out.resolved_by] ?? 0) + 1;
  const bySplit = evaluateFlag(splitSnapshot, FLAG, c);
  if (bySplit.split === undefined) throw new Error('the split scenario must end in the split');
  splitServed[bySplit.value] = (splitServed[bySplit.value] ?? 0) + 1;
}

let sink = 0;
/**
 * One round of about `ms` of wall time. Returns evaluations per second of wall time and per
 * second of this process's CPU time (user + system): on a busy machine the CPU-time figure is
 * what one core does, the wall figure is what this process happened to get.
 */
function round(ms, snap = snapshot) {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  let n = 0;
  let now;
  do {
    for (let i = 0; i < USERS; i++) {
      const out = evaluateFlag(snap, FLAG, contexts[i]);
      if (out.value === true || out.value === 'a') sink++;
    }
    n += USERS;
    now = performance.now();
  } while (now < end);
  const cpu = process.cpuUsage(cpu0);
  return { wall: n / ((now - start) / 1000), cpu: n / ((cpu.user + cpu.system) / 1e6) };
}

round(1000); // warm-up: let the JIT settle
round(1000, splitSnapshot);
const rounds = [];
const splitRounds = [];
const roundMs = 1000;
for (let t = 0; t < duration * 1000; t += roundMs) {
  rounds.push(round(roundMs));
  splitRounds.push(round(roundMs, splitSnapshot));
}
const mid = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
process.stdout.write(
  JSON.stringify({
    evalsPerCpuSecond: mid(rounds.map((r) => r.cpu)),
    evalsPerWallSecond: mid(rounds.map((r) => r.wall)),
    rounds: rounds.length,
    resolved,
    splitEvalsPerCpuSecond: mid(splitRounds.map((r) => r.cpu)),
    splitServed,
    sink,
  }) + '\n',
);
