// Built Vexil (dist/src/main.js, `make build`) as a process on a fresh SQLite file, for the suites
// that drive it from outside (Schemathesis, the generated clients). Plain JavaScript, typed by
// fresh-server.d.mts: test/schemathesis/run.mjs runs under plain node.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const secret = (prefix) => prefix + Array.from(randomBytes(40), (b) => base62[b % 62]).join('');

/**
 * Starts the server on a random port with a bootstrapped owner token and rate limits off, plus
 * `env`, and resolves once /ready answers 200. Its database lives in `dir`, removed by `stop`.
 */
export async function startFreshServer({ root, tmpPrefix, env = {} }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  // Below Linux's ephemeral range (32768 and up), where client sockets take their local ports (test/support/ports.ts).
  const port = 20000 + Math.floor(Math.random() * 12000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const ownerToken = secret('pat_');
  const child = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
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
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('the server stopped during start-up');
    const ready = await fetch(`${baseUrl}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) {
      await stop();
      throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, ownerToken, dir, stop };
}
