import type { AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import type { Knex } from 'knex';
import pino from 'pino';
import { createApp } from '../../src/app.js';
import { digestSecret, generateSecret } from '../../src/auth/secrets.js';
import type { Clock } from '../../src/clock.js';
import { compose, type Composition } from '../../src/composition-root.js';
import { loadConfig, type Config } from '../../src/config.js';
import { newId } from '../../src/ids.js';
import { assertMatchesContract } from './contract.js';
import type { TestDatabase } from './databases.js';

/** Real time plus an offset tests can move forward. */
export class TestClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface RequestOptions {
  token?: string;
  apiKey?: string;
  body?: unknown;
  /** Sent as is, with the given content type (malformed input tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** For tests that deliberately break the contract's preconditions. */
  skipContract?: boolean;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  baseUrl: string;
  composition: Composition;
  knex: Knex;
  clock: TestClock;
  /** Personal access token of the owner account seeded into the empty database. */
  ownerToken: string;
  ownerUlid: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Shorthand for management calls with the owner token: mgmt('GET', '/projects'). */
  mgmt<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export const testConfig: Partial<Config> = {
  logLevel: 'silent',
  publicRateLimit: 0,
  managementRateLimits: { standard: 100_000, elevated: 100_000 },
  consoleReadRateLimit: 100_000,
  revisionPollMs: 50,
  schedulerIntervalMs: 100,
  // Test files run side by side: each process keeps its own rate-limit counters and change channel on Redis.
  redisPrefix: `vexil-test-${process.pid}:`,
  redisChannel: `vexil-test-${process.pid}:environment-revisions`,
};

/** Seeds an owner account and personal access token directly (what first start does). */
export async function seedOwner(knex: Knex, clock: Clock): Promise<{ token: string; ulid: string }> {
  const now = clock.now().toISOString();
  const ulid = newId('account');
  const token = generateSecret('pat_');
  await knex('accounts').insert({
    ulid,
    name: 'Test Owner',
    email: `owner-${ulid.toLowerCase()}@example.test`,
    role: 'owner',
    created_at: now,
    updated_at: now,
  });
  await knex('personal_access_tokens').insert({
    ulid: newId('personalAccessToken'),
    account_ulid: ulid,
    name: 'test',
    digest: digestSecret(token),
    created_at: now,
    updated_at: now,
  });
  return { token, ulid };
}

export async function startTestApp(
  db: TestDatabase,
  options: {
    config?: Partial<Omit<Config, 'sessions'>> & { sessions?: Partial<Config['sessions']> };
    databaseUrl?: string;
    keepDatabase?: boolean;
    logger?: pino.Logger;
  } = {},
): Promise<TestApp> {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => {} } : await db.createMigrated();
  const clock = new TestClock();
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    ...testConfig,
    ...options.config,
    // Passwords set in tests are hashed with a small scrypt cost (about 1 ms of CPU instead of
    // 100 ms each): the suites check sign-in behaviour, test/unit/console-sessions/passwords.test.ts
    // the default cost. A test may set its own.
    sessions: { ...defaults.sessions, passwordHashing: { N: 1024, r: 8, p: 1 }, ...options.config?.sessions },
    databaseUrl: database.url,
  };
  const composition = await compose(config, { clock, logger: options.logger ?? pino({ level: 'silent' }) });
  const knex = composition.core.knex;
  const owner = await seedOwner(knex, clock);
  const app = createApp(composition);
  for (const task of composition.tasks) task.start();
  // As src/main.ts serves: headers up to the configured size, not Node's 16 KB default.
  const server: Server = http.createServer({ maxHeaderSize: config.maxHeaderBytes }, app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
    if (o.apiKey !== undefined) headers['x-vexil-api-key'] = o.apiKey;
    let body: string | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    let parsed: unknown = text;
    if (contentType.includes('json') && text !== '') parsed = JSON.parse(text);
    if (!o.skipContract) assertMatchesContract(method, path.split('?')[0] as string, res.status, parsed, contentType);
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  return {
    baseUrl,
    composition,
    knex,
    clock,
    ownerToken: owner.token,
    ownerUlid: owner.ulid,
    request,
    mgmt: (method, path, body, o = {}) => request(method, `/management/v1${path}`, { token: owner.token, ...o, body: body ?? o.body }),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await composition.close();
      if (!options.keepDatabase) await database.drop();
    },
  };
}
