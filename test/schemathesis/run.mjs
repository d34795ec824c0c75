#!/usr/bin/env node
// Fuzzes a started Vexil server with Schemathesis against both published documents and OpenFeature's
// OFREP document (test/ofrep), every check, every phase (stateful included). Started on a fresh
// SQLite database with a bootstrapped owner token and a server key; exits non-zero when
// Schemathesis finds anything.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startFreshServer } from '../support/fresh-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Operations left out, each with its reason (none today: GET /v1/stream is read one event at a
 * time, see schemathesis.toml). Operations that still answer 501 belong here until they are built.
 */
const excludedOperations = {};

const maxExamples = process.env.SCHEMATHESIS_MAX_EXAMPLES ?? '25';

const server = await startFreshServer({
  root,
  tmpPrefix: 'vexil-st-',
  // Over-long generated query strings and headers should reach validation (4xx with a body)
  // rather than be cut off by the HTTP parser, which resets the connection mid-upload.
  env: { VEXIL_MAX_HEADER_BYTES: '4194304' },
});
const { baseUrl, ownerToken, dir } = server;

async function api(method, url, body, headers = {}) {
  const res = await fetch(baseUrl + url, {
    method,
    headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
  return JSON.parse(text);
}

/**
 * The runs: both published documents, fetched from the server (with this directory's settings and
 * hooks), and OpenFeature's own OFREP document (test/ofrep, with the settings there), pointed at
 * the same server.
 */
const runs = {
  management: {
    location: () => `${baseUrl}/management/v1/api-docs`,
    url: () => `${baseUrl}/management/v1`,
    config: 'test/schemathesis/schemathesis.toml',
    hooks: 'test/schemathesis/hooks.py',
  },
  public: {
    location: () => `${baseUrl}/v1/api-docs`,
    url: () => baseUrl,
    config: 'test/schemathesis/schemathesis.toml',
    hooks: 'test/schemathesis/hooks.py',
  },
  ofrep: {
    location: () => protocolDocument(),
    url: () => baseUrl,
    config: 'test/ofrep/schemathesis.toml',
    hooks: undefined,
    // Vexil accepts more than the protocol requires (test/ofrep/schemathesis.toml says why).
    excludeChecks: ['negative_data_rejection'],
  },
};

/**
 * The protocol's document (test/ofrep/openapi.yaml, as published) with the one correction
 * test/ofrep/README.md explains: the value branches of `evaluationSuccess` are `anyOf`, not
 * `oneOf` (`codeDefaultFlag` matches every object, and an integer is a float too, so as published
 * no evaluation with a value can be valid).
 */
function protocolDocument() {
  const document = parse(fs.readFileSync(path.join(root, 'test/ofrep/openapi.yaml'), 'utf8'));
  const branches = document.components.schemas.evaluationSuccess.allOf[1];
  if (!Array.isArray(branches.oneOf)) throw new Error('test/ofrep/openapi.yaml changed: review the correction in test/ofrep/README.md');
  branches.anyOf = branches.oneOf;
  delete branches.oneOf;
  const file = path.join(dir, 'ofrep-openapi.json');
  fs.writeFileSync(file, JSON.stringify(document));
  return file;
}

function schemathesis(name, extraHeaders) {
  const run = runs[name];
  const args = [
    '--config-file',
    path.join(root, run.config),
    'run',
    run.location(),
    '--url',
    run.url(),
    '--checks',
    'all',
    '--max-examples',
    maxExamples,
    '--seed',
    process.env.SCHEMATHESIS_SEED ?? '1',
    '--request-timeout',
    '10',
    '--workers',
    '2',
    '--suppress-health-check',
    'too_slow,filter_too_much',
    '--warnings',
    'off',
    ...(run.excludeChecks ? ['--exclude-checks', run.excludeChecks.join(',')] : []),
    ...Object.keys(excludedOperations).flatMap((id) => ['--exclude-operation-id', id]),
    ...extraHeaders.flatMap((h) => ['-H', h]),
  ];
  const env = { ...process.env, NO_COLOR: '1' };
  // Vexil's hooks (see the file): the strict positive-data check, and stateful-phase chains.
  if (run.hooks) env.SCHEMATHESIS_HOOKS = path.join(root, run.hooks);
  else delete env.SCHEMATHESIS_HOOKS;
  return new Promise((resolve) => {
    const child = spawn(process.env.SCHEMATHESIS_BIN ?? path.join(root, '.venv/bin/st'), args, { stdio: 'inherit', env });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

let exitCode = 1;
try {
  // A project with a flag and a server key, so public operations have something real to answer.
  await api('POST', '/management/v1/projects', { key: 'fuzz', name: 'Fuzz' });
  const key = await api('POST', '/management/v1/projects/fuzz/environments/development/keys', { kind: 'server', name: 'fuzz' });
  await api('POST', '/management/v1/projects/fuzz/flags', { key: 'fuzz-flag', name: 'Fuzz flag', type: 'boolean' }).catch(() => {});
  const headers = {
    management: [`Authorization: Bearer ${ownerToken}`],
    public: [`X-VEXIL-API-KEY: ${key.data.key}`],
    // OFREP providers send the key in the protocol's own header.
    ofrep: [`X-API-Key: ${key.data.key}`],
  };
  // SCHEMATHESIS_RUNS=ofrep (a comma list) runs only some of them, for a quicker look.
  const selected = process.env.SCHEMATHESIS_RUNS?.split(',').map((r) => r.trim()) ?? Object.keys(runs);
  const codes = {};
  for (const name of selected) {
    if (!runs[name]) throw new Error(`unknown run ${name}; known: ${Object.keys(runs).join(', ')}`);
    codes[name] = await schemathesis(name, headers[name]);
  }
  exitCode = Object.values(codes).find((code) => code !== 0) ?? 0;
  console.log(
    `schemathesis: ${Object.entries(codes)
      .map(([name, code]) => `${name} exit ${code}`)
      .join(', ')}`,
  );
} catch (error) {
  console.error(error);
} finally {
  await server.stop();
}
process.exit(exitCode);
