#!/usr/bin/env node
// Fuzzes a started Vexil server with Schemathesis against both published documents, every check,
// every phase (stateful included). Started on a fresh SQLite database with a bootstrapped owner
// token and a server key; exits non-zero when Schemathesis finds anything.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Operations left out, each with its reason (none today: GET /v1/stream is read one event at a
 * time, see schemathesis.toml). Operations that still answer 501 belong here until they are built.
 */
const excludedOperations = {};

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const secret = (prefix) => prefix + Array.from(randomBytes(40), (b) => base62[b % 62]).join('');

const port = 20000 + Math.floor(Math.random() * 20000);
const baseUrl = `http://127.0.0.1:${port}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-st-'));
const ownerToken = secret('pat_');
const maxExamples = process.env.SCHEMATHESIS_MAX_EXAMPLES ?? '25';

const server = spawn('node', [path.join(root, 'dist/src/main.js')], {
  env: {
    ...process.env,
    DATABASE_URL: `sqlite:${dir}/vexil.db`,
    PORT: String(port),
    HOST: '127.0.0.1',
    VEXIL_INIT_OWNER_TOKEN: ownerToken,
    VEXIL_PUBLIC_RATE_LIMIT: '0',
    VEXIL_RATE_LIMIT_STANDARD: '1000000',
    VEXIL_RATE_LIMIT_ELEVATED: '1000000',
    LOG_LEVEL: 'warn',
    // Over-long generated query strings and headers should reach validation (4xx with a body)
    // rather than be cut off by the HTTP parser, which resets the connection mid-upload.
    VEXIL_MAX_HEADER_BYTES: '4194304',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

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

async function waitForServer() {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`${baseUrl}/v1/api-docs`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

function schemathesis(api, extraHeaders) {
  const args = [
    '--config-file',
    path.join(root, 'test/schemathesis/schemathesis.toml'),
    'run',
    `${baseUrl}${api === 'management' ? '/management/v1' : '/v1'}/api-docs`,
    '--url',
    api === 'management' ? `${baseUrl}/management/v1` : baseUrl,
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
    ...Object.keys(excludedOperations).flatMap((id) => ['--exclude-operation-id', id]),
    ...extraHeaders.flatMap((h) => ['-H', h]),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.env.SCHEMATHESIS_BIN ?? path.join(root, '.venv/bin/st'), args, { stdio: 'inherit', env: {
        ...process.env,
        NO_COLOR: '1',
        // Vexil's hooks (see the file): the strict positive-data check, and stateful-phase chains.
        SCHEMATHESIS_HOOKS: path.join(root, 'test/schemathesis/hooks.py'),
      },
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

let exitCode = 1;
try {
  await waitForServer();
  // A project with a flag and a server key, so public operations have something real to answer.
  await api('POST', '/management/v1/projects', { key: 'fuzz', name: 'Fuzz' });
  const key = await api('POST', '/management/v1/projects/fuzz/environments/development/keys', { kind: 'server', name: 'fuzz' });
  await api('POST', '/management/v1/projects/fuzz/flags', { key: 'fuzz-flag', name: 'Fuzz flag', type: 'boolean' }).catch(() => {});
  const managementCode = await schemathesis('management', [`Authorization: Bearer ${ownerToken}`]);
  const publicCode = await schemathesis('public', [`X-VEXIL-API-KEY: ${key.data.key}`]);
  exitCode = managementCode || publicCode;
  console.log(`schemathesis: management exit ${managementCode}, public exit ${publicCode}`);
} catch (error) {
  console.error(error);
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
