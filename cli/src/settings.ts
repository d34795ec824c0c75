import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError, UsageError } from './errors.js';

/** Where `vexil login` keeps the base URL and token: readable by the user only. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VEXIL_CONFIG) return env.VEXIL_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'vexil', 'config.json');
}

export interface Connection {
  url: string;
  token: string;
}

interface StoredConfig {
  url?: string;
  token?: string;
  /** The project commands use when neither --project nor VEXIL_PROJECT names one (`vexil login --project`). */
  project?: string;
}

function readStored(file: string): StoredConfig {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredConfig;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

/** A base URL must say its scheme: `127.0.0.1:8080` would otherwise be read as scheme "127.0.0.1". */
export function checkUrl(url: string, source: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new UsageError(`${source} must be an http:// or https:// URL, e.g. http://${url.replace(/^[a-z]+:\/\//i, '')}, not "${url}".`);
  }
  return url.replace(/\/+$/, '');
}

/** The default project kept by `vexil login --project`, if any. */
export function storedProject(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return readStored(configPath(env)).project || undefined;
}

/** Options beat VEXIL_URL / VEXIL_TOKEN, which beat the login file. */
export function resolveConnection(options: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): Connection {
  const stored = readStored(configPath(env));
  const url = options.url ?? env.VEXIL_URL ?? stored.url;
  const token = options.token ?? env.VEXIL_TOKEN ?? stored.token;
  if (!url) throw new CliError('No Vexil URL: run `vexil login`, or set VEXIL_URL or --url.');
  if (!token) throw new CliError('No token: run `vexil login`, or set VEXIL_TOKEN or --token.');
  return {
    url: checkUrl(url, options.url !== undefined ? '--url' : env.VEXIL_URL !== undefined ? 'VEXIL_URL' : `The URL in ${configPath(env)}`),
    token,
  };
}

/** Writes the login file with mode 0600 (its folder 0700), replacing any earlier one. */
export function saveConnection(connection: Connection & { project?: string }, env: NodeJS.ProcessEnv = process.env): string {
  const file = configPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  const stored: StoredConfig = {
    url: connection.url,
    token: connection.token,
    ...(connection.project ? { project: connection.project } : {}),
  };
  fs.writeFileSync(temporary, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(temporary, file);
  fs.chmodSync(file, 0o600);
  return file;
}
