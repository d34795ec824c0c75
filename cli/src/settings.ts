import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from './errors.js';

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
}

function readStored(file: string): StoredConfig {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredConfig;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Options beat VEXIL_URL / VEXIL_TOKEN, which beat the login file. */
export function resolveConnection(options: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): Connection {
  const stored = readStored(configPath(env));
  const url = options.url ?? env.VEXIL_URL ?? stored.url;
  const token = options.token ?? env.VEXIL_TOKEN ?? stored.token;
  if (!url) throw new CliError('No Vexil URL: run `vexil login`, or set VEXIL_URL or --url.');
  if (!token) throw new CliError('No token: run `vexil login`, or set VEXIL_TOKEN or --token.');
  return { url: url.replace(/\/+$/, ''), token };
}

/** Writes the login file with mode 0600 (its folder 0700), replacing any earlier one. */
export function saveConnection(connection: Connection, env: NodeJS.ProcessEnv = process.env): string {
  const file = configPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(connection, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(temporary, file);
  fs.chmodSync(file, 0o600);
  return file;
}
