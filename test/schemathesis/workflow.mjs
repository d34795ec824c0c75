#!/usr/bin/env node
// Runs the PyPI job of docs/workflows/vexil-contract-tests.yml as GitHub Actions would, on this
// checkout: each `run` step in order with the job's environment, the `uses` steps (checkout,
// Node, Python) standing for this repository, the running Node and the Schemathesis of .venv.
// What the steps write to $GITHUB_ENV is read before the next step, as Actions does. Kept short
// for `make test`: one example per operation from the examples phase (test/schemathesis/run.mjs fuzzes in full).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const workflow = parse(fs.readFileSync(path.join(root, 'docs/workflows/vexil-contract-tests.yml'), 'utf8'));
const job = workflow.jobs['schemathesis-pip'];
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-workflow-'));
const githubEnv = path.join(temp, 'github-env');
fs.writeFileSync(githubEnv, '');
// Below Linux's ephemeral range, as test/support/ports.ts explains.
const port = String(20000 + Math.floor(Math.random() * 12000));
const env = {
  ...process.env,
  ...Object.fromEntries(Object.entries(workflow.env).map(([k, v]) => [k, String(v)])),
  PORT: port,
  VEXIL_URL: `http://127.0.0.1:${port}`,
  MAX_EXAMPLES: process.env.WORKFLOW_MAX_EXAMPLES ?? '1',
  PHASES: process.env.WORKFLOW_PHASES ?? 'examples',
  RUNNER_TEMP: temp,
  GITHUB_ENV: githubEnv,
  PATH: `${path.join(root, '.venv/bin')}:${process.env.PATH}`,
  NO_COLOR: '1',
};
delete env.SCHEMATHESIS_HOOKS;

/** KEY=VALUE lines a step appended to $GITHUB_ENV. */
const fromGithubEnv = () =>
  Object.fromEntries(
    fs
      .readFileSync(githubEnv, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

let failed;
for (const step of job.steps) {
  if (!step.run) continue;
  if (failed && step.if !== 'always()') continue;
  console.log(`workflow step: ${step.name}`);
  const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', step.run], {
    cwd: root,
    env: { ...env, ...fromGithubEnv(), ...(step.env ?? {}) },
    stdio: 'inherit',
  });
  if (run.status !== 0 && !failed) failed = `${step.name} exited ${run.status}`;
}
fs.rmSync(temp, { recursive: true, force: true });
if (failed) {
  console.error(`docs/workflows/vexil-contract-tests.yml: ${failed}`);
  process.exit(1);
}
console.log('docs/workflows/vexil-contract-tests.yml: every step of the PyPI job passed');
