/**
 * Scenario 5, beside the engine's own figure: the cost of the newer constructs, each in the
 * same process and loop as workers/engine.mjs, over the same 1,000 users.
 * - `scenario`: the scenario-1 flag as workers/engine.mjs evaluates it (the reference);
 * - `prerequisiteChain3`: the scenario-1 flag whose serving and previous targets require a flag
 *   that requires a flag that requires a fourth (a chain of 3 prerequisites), each of those
 *   deciding by one rule (`country in ...`) that every user matches, so every link is evaluated
 *   and holds, then the scenario flag's own rules and rollout run;
 * - `regex`: the scenario-1 flag with each rule's `endswith` criterion replaced by
 *   `matches ^[a-z0-9.-]+@example\.com$`, which every user matches (so the pattern runs on every
 *   rule and the `gte` criterion decides, as in the reference).
 * Usage: node engine-constructs.mjs '<json {duration}>'; prints one JSON line.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { DIST } from '../lib/util.mjs';
import { COUNTRIES, FLAG, USERS, scenarioConfig, scenarioContexts } from '../lib/scenario-flag.mjs';

const { duration = 3 } = JSON.parse(process.argv[2] ?? '{}');
const { compileSnapshot, evaluateFlag, parseContext } = await import(pathToFileURL(path.join(DIST, 'src', 'engine', 'index.js')).href);

const base = scenarioConfig.flags[0];
const gate = (key, requires) => ({
  key,
  name: key,
  type: 'boolean',
  include_in_mobile: true,
  include_in_client: true,
  default: { value: false },
  serving: {
    value: false,
    rules: [{ value: true, criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'in', values: COUNTRIES }] }],
    ...(requires ? { prerequisites: [{ flag_key: requires, values: [true] }] } : {}),
  },
  previous: null,
  rollout: null,
});
const withPrerequisite = (target) => ({ ...target, prerequisites: [{ flag_key: 'gate-1', values: [true] }] });
const chainConfig = {
  revision: 1,
  flags: [
    { ...base, serving: withPrerequisite(base.serving), previous: withPrerequisite(base.previous) },
    gate('gate-1', 'gate-2'),
    gate('gate-2', 'gate-3'),
    gate('gate-3', null),
  ],
  segments: [],
};
const regexTarget = (target) => ({
  ...target,
  rules: target.rules.map((rule) => ({
    ...rule,
    criteria: rule.criteria.map((c) =>
      c.comparer === 'endswith' ? { ...c, comparer: 'matches', values: ['^[a-z0-9.-]+@example\\.com$'] } : c,
    ),
  })),
});
const regexConfig = { ...scenarioConfig, flags: [{ ...base, serving: regexTarget(base.serving), previous: regexTarget(base.previous) }] };

const contexts = scenarioContexts.map((raw) => {
  const parsed = parseContext(raw);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.context;
});

let sink = 0;
function measure(config) {
  const snapshot = compileSnapshot(config);
  const resolved = {};
  for (const c of contexts) {
    const out = evaluateFlag(snapshot, FLAG, c);
    resolved[out.resolved_by] = (resolved[out.resolved_by] ?? 0) + 1;
  }
  const round = (ms) => {
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    let n = 0;
    let now;
    do {
      for (let i = 0; i < USERS; i++) if (evaluateFlag(snapshot, FLAG, contexts[i]).value === true) sink++;
      n += USERS;
      now = performance.now();
    } while (now < start + ms);
    const cpu = process.cpuUsage(cpu0);
    return n / ((cpu.user + cpu.system) / 1e6);
  };
  round(1000); // warm-up
  const rounds = [];
  for (let t = 0; t < duration * 1000; t += 1000) rounds.push(round(1000));
  const evalsPerCpuSecond = [...rounds].sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
  return { evalsPerCpuSecond, nsPerEval: 1e9 / evalsPerCpuSecond, resolved };
}

const scenario = measure(scenarioConfig);
const prerequisiteChain3 = measure(chainConfig);
const regex = measure(regexConfig);
process.stdout.write(JSON.stringify({ scenario, prerequisiteChain3, regex, sink }) + '\n');
