/**
 * A small in-test Vexil public API on node:http, serving exactly the shapes of
 * specs/public.yaml: GET /v1/payload (server payload for srv_ keys, client payload evaluated with
 * the engine for mob_/cli_ keys and the context header; ETag, If-None-Match -> 304), GET /v1/stream
 * (SSE `etag` events, heartbeat comments) and POST /v1/flags/{key}/usage. Failure switches let
 * tests break it in every way the SDK must survive.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHash } from 'node:crypto';
import {
  compileSnapshot,
  evaluateAll,
  parseContext,
  parseDefaultValues,
  type Context,
  type DefaultValueDeclaration,
  type EnvironmentConfig,
} from '../../../src/engine/index.js';

export const SERVER_KEY = 'srv_' + 'a'.repeat(40);
export const CLIENT_KEY = 'cli_' + 'b'.repeat(40);
export const MOBILE_KEY = 'mob_' + 'c'.repeat(40);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  status: number;
  at: number;
}

export interface UsageRecord {
  key: string;
  body: { count?: number; context?: Context };
  apiKey: string | undefined;
}

type Override = (req: IncomingMessage, res: ServerResponse) => boolean | void;

export class FakeVexil {
  config: EnvironmentConfig;
  readonly requests: RecordedRequest[] = [];
  readonly usage: UsageRecord[] = [];
  readonly streams = new Set<ServerResponse>();
  /** Status to answer GET /v1/payload with instead of the payload (e.g. 500). */
  payloadStatus: number | undefined;
  /** Body to send instead of the payload JSON (e.g. 'not json'). */
  payloadBody: string | undefined;
  /** Never answer GET /v1/payload. */
  hangPayload = false;
  /** Status for GET /v1/stream instead of the stream (e.g. 404 when the stream is unavailable). */
  streamStatus: number | undefined;
  /** Open the stream but never write to it. */
  silentStream = false;
  /** Status for POST usage (e.g. 500, 404). */
  usageStatus: number | undefined;
  /** Any request: return true from it to say it answered. */
  override: Override | undefined;
  private server: Server | undefined;
  private sockets = new Set<Socket>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  port = 0;

  constructor(
    config: EnvironmentConfig,
    private readonly options: { heartbeatMs?: number; environment?: { ulid: string; key: string } } = {},
  ) {
    this.config = config;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get revision(): number {
    return this.config.revision;
  }

  /** Starts listening (again on the same port after stop(), when it had one). */
  async start(port = this.port): Promise<this> {
    const server = createServer((req, res) => this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    this.heartbeat = setInterval(() => {
      for (const s of this.streams) if (!this.silentStream) s.write(': heartbeat\n\n');
    }, this.options.heartbeatMs ?? 15_000);
    return this;
  }

  /** Stops listening and drops every connection (a crashed or stopped server). */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    const server = this.server;
    this.server = undefined;
    for (const s of this.streams) s.destroy();
    this.streams.clear();
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Replaces the configuration (revision + 1 unless given) and announces the new ETag on every stream. */
  publish(change: (config: EnvironmentConfig) => EnvironmentConfig): void {
    const next = change(structuredClone(this.config) as EnvironmentConfig);
    this.config = next.revision === this.config.revision ? { ...next, revision: this.config.revision + 1 } : next;
    for (const s of this.streams) {
      const ctx = (s as ServerResponse & { vexil?: { etag: () => string } }).vexil;
      if (ctx) s.write(`event: etag\ndata: ${JSON.stringify({ etag: ctx.etag() })}\n\n`);
    }
  }

  /** Ends every open stream (a server-side disconnect, not a crash). */
  endStreams(): void {
    for (const s of this.streams) s.end();
    this.streams.clear();
  }

  count(path: string, method = 'GET'): number {
    return this.requests.filter((r) => r.path === path && r.method === method).length;
  }

  private kindOf(key: string | undefined): 'server' | 'mobile' | 'client' | undefined {
    if (key === SERVER_KEY) return 'server';
    if (key === CLIENT_KEY) return 'client';
    if (key === MOBILE_KEY) return 'mobile';
    return undefined;
  }

  private etagFor(kind: 'server' | 'mobile' | 'client', contextHeader: string | undefined, defaultsHeader: string | undefined): string {
    if (kind === 'server') return `"srv-${this.config.revision}-${digest(JSON.stringify(this.config))}"`;
    return `"${kind.slice(0, 3)}-${this.config.revision}-${digest(JSON.stringify(this.config) + '|' + (contextHeader ?? '') + '|' + (defaultsHeader ?? ''))}"`;
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const record: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, status: 0, at: Date.now() };
    this.requests.push(record);
    res.on('finish', () => {
      record.status = res.statusCode;
    });
    if (this.override?.(req, res) === true) return;
    const apiKey = headerValue(req, 'x-vexil-api-key');
    const kind = this.kindOf(apiKey);
    if (kind === undefined) {
      this.json(res, 401, { status: 'error', message: 'Invalid API key provided.' });
      return;
    }
    const contextHeader = headerValue(req, 'x-vexil-context') ?? headerValue(req, 'c');
    const defaultsHeader = headerValue(req, 'x-vexil-default-value') ?? headerValue(req, 'x-default-value') ?? headerValue(req, 'd');
    let context: Context | null = null;
    let defaults: DefaultValueDeclaration[] = [];
    if (kind !== 'server') {
      if (contextHeader !== undefined) {
        const parsed = safeParse(contextHeader, parseContext);
        if (!parsed.ok) {
          this.json(res, 400, { status: 'error', message: 'Context was supplied but is invalid.' });
          return;
        }
        context = parsed.context;
      }
      if (defaultsHeader !== undefined) {
        const parsed = safeParse(defaultsHeader, parseDefaultValues);
        if (!parsed.ok) {
          this.json(res, 400, { status: 'error', message: 'Default values were supplied but are invalid.' });
          return;
        }
        defaults = parsed.declarations;
      }
    }
    const environment = this.options.environment ?? { ulid: 'env_01HZY3V4J7N9Q2R5T8W1X4Z6B3', key: 'production' };

    if (req.method === 'GET' && url.pathname === '/v1/payload') {
      if (this.hangPayload) return;
      if (this.payloadStatus !== undefined) {
        this.json(res, this.payloadStatus, { status: 'error', message: 'Broken on purpose.' });
        return;
      }
      const etag = this.etagFor(kind, contextHeader, defaultsHeader);
      const inm = headerValue(req, 'if-none-match');
      if (
        inm !== undefined &&
        inm
          .split(',')
          .map((t) => t.trim().replace(/^W\//, ''))
          .includes(etag)
      ) {
        res.writeHead(304, { etag });
        res.end();
        return;
      }
      if (this.payloadBody !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', etag });
        res.end(this.payloadBody);
        return;
      }
      const data =
        kind === 'server'
          ? { kind: 'server', etag, revision: this.config.revision, environment, config: this.config }
          : {
              kind: 'client',
              etag,
              revision: this.config.revision,
              environment,
              flags: evaluateAll(compileSnapshot(this.config), context, defaults, { platform: kind })
                .slice()
                .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
                .map((o) => ({ key: o.key, name: o.name, type: o.type, value: o.value, resolved_by: o.resolved_by })),
            };
      this.json(res, 200, { status: 'success', data }, { etag });
      return;
    }

    if (req.method === 'GET' && url.pathname === '/v1/stream') {
      if (this.streamStatus !== undefined) {
        this.json(res, this.streamStatus, { status: 'error', message: 'No stream here.' });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.flushHeaders();
      const etag = (): string => this.etagFor(kind, contextHeader, defaultsHeader);
      (res as ServerResponse & { vexil?: { etag: () => string } }).vexil = { etag };
      this.streams.add(res);
      req.on('close', () => this.streams.delete(res));
      if (!this.silentStream) res.write(`event: etag\ndata: ${JSON.stringify({ etag: etag() })}\n\n`);
      return;
    }

    const usage = /^\/v1\/flags\/([^/]+)\/usage$/.exec(url.pathname);
    if (req.method === 'POST' && usage) {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (text += c));
      req.on('end', () => {
        const key = decodeURIComponent(usage[1]!);
        if (this.usageStatus !== undefined) {
          this.json(res, this.usageStatus, { status: 'error', message: 'Broken on purpose.' });
          return;
        }
        if (!this.config.flags.some((f) => f.key === key)) {
          this.json(res, 404, { status: 'error', message: 'Feature flag not found.' });
          return;
        }
        let body: UsageRecord['body'];
        try {
          body = text === '' ? {} : (JSON.parse(text) as UsageRecord['body']);
        } catch {
          this.json(res, 400, { status: 'error', message: 'Request body is not valid JSON.' });
          return;
        }
        const count = body.count ?? 1;
        if (!Number.isInteger(count) || count < 1 || count > 10_000) {
          this.json(res, 400, { status: 'error', message: 'Request body is invalid.' });
          return;
        }
        if (body.context !== undefined && !parseContext(body.context).ok) {
          this.json(res, 400, { status: 'error', message: 'Context was supplied but is invalid.' });
          return;
        }
        this.usage.push({ key, body, apiKey });
        this.json(res, 200, { status: 'success' });
      });
      return;
    }

    this.json(res, 404, { status: 'error', message: 'Not found.' });
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

function safeParse<T extends { ok: boolean }>(text: string, parse: (v: unknown) => T): T | { ok: false } {
  try {
    return parse(JSON.parse(text));
  } catch {
    return { ok: false };
  }
}

/** Resolves when `check` returns true (polled), or rejects after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on (bound then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
