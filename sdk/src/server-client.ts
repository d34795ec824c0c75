/**
 * Server-side mode (server key, `srv_...`): fetches the environment's compiled configuration
 * once (GET /v1/payload), evaluates every flag locally with the server's own engine
 * (src/engine, imported), and stays current through GET /v1/stream, falling back to ETag polling.
 *
 * Evaluation is synchronous, never throws and never waits on the network: without a payload it
 * returns the caller's default (error PROVIDER_NOT_READY).
 */
import {
  compileSnapshot,
  evaluateAll,
  evaluateFlag,
  type EvaluationOutcome,
  type Platform,
  type Snapshot,
} from '../../src/engine/index.js';
import { BaseClient, type BaseOptions } from './base-client.js';
import { INVALID_CONTEXT, isValidContext, normalizeContext } from './context.js';
import { errorDetails, servedDetails } from './details.js';
import {
  VexilError,
  type ClientPayload,
  type EnvironmentConfig,
  type EvaluationDetails,
  type EvaluationErrorCode,
  type FlagType,
  type JsonValue,
  type PayloadEnvironment,
  type SdkContext,
  type ServerPayload,
} from './types.js';

/** Bootstrap sources: a payload (or the whole GET /v1/payload response body), a bare configuration, or a JSON file holding one of those. */
export type ServerBootstrap =
  | ServerPayload
  | { readonly status: 'success'; readonly data: ServerPayload }
  | EnvironmentConfig
  | { readonly file: string };

export interface ServerClientOptions extends BaseOptions {
  /**
   * Served until the service answers (and instead of it when `offline`). An object is used at
   * once; a file is read at start (Node; elsewhere pass `readFile`).
   */
  readonly bootstrap?: ServerBootstrap;
  /** Never contact the service: serve the bootstrap only (tests, benchmarks, air-gapped runs). */
  readonly offline?: boolean;
  /** Reads a bootstrap file (default: node:fs/promises readFile). */
  readonly readFile?: (path: string) => Promise<string>;
}

/** An evaluation that found the flag but nothing to serve: the caller's default is served as a declared default. */
const DECLARED: unique symbol = Symbol('declared default');

type RunResult = EvaluationOutcome | EvaluationErrorCode | typeof DECLARED;

async function readFileWithNode(path: string): Promise<string> {
  // a computed specifier keeps bundlers from pulling a Node module into browser builds
  const specifier = ['node:fs', 'promises'].join('/');
  const fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as {
    readFile(path: string, encoding: 'utf8'): Promise<string>;
  };
  return fs.readFile(path, 'utf8');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isConfig(v: unknown): v is EnvironmentConfig {
  return isObject(v) && typeof v['revision'] === 'number' && Array.isArray(v['flags']) && Array.isArray(v['segments']);
}

/** Reads a server payload from a response body, a payload, or (bootstrap only) a bare configuration. */
function readServerPayload(body: unknown, allowBareConfig: boolean): ServerPayload {
  let data: unknown = body;
  if (isObject(body) && body['status'] === 'success' && 'data' in body) data = body['data'];
  if (isObject(data) && data['kind'] === 'client') {
    throw new VexilError('WRONG_KEY_KIND', 'Got a client payload: the server client needs a server key (srv_...).');
  }
  if (isObject(data) && data['kind'] === 'server') {
    const config = data['config'];
    if (!isConfig(config)) throw new VexilError('INVALID_PAYLOAD', 'The payload has no valid `config`.');
    return data as unknown as ServerPayload;
  }
  if (allowBareConfig && isConfig(data)) {
    return { kind: 'server', etag: '', revision: data.revision, environment: { ulid: '', key: '' }, config: data };
  }
  throw new VexilError('INVALID_PAYLOAD', 'Not a server payload (expected `kind: server` with a `config`).');
}

/** Keys of flags whose configuration differs (all of them when segments changed). */
function changedKeys(before: EnvironmentConfig, after: EnvironmentConfig): string[] {
  const segmentsChanged = JSON.stringify(before.segments) !== JSON.stringify(after.segments);
  const old = new Map<string, string>();
  for (const f of before.flags) if (!old.has(f.key)) old.set(f.key, JSON.stringify(f));
  const keys = new Set<string>();
  for (const f of after.flags) {
    const previous = old.get(f.key);
    if (segmentsChanged || previous === undefined || previous !== JSON.stringify(f)) keys.add(f.key);
    old.delete(f.key);
  }
  for (const key of old.keys()) keys.add(key);
  return [...keys];
}

export class VexilServerClient extends BaseClient {
  private snapshot: Snapshot | null = null;
  private payload: ServerPayload | null = null;
  private etag: string | undefined;
  private readonly offline: boolean;

  constructor(options: ServerClientOptions) {
    super(options, options.offline === true);
    this.offline = options.offline === true;
    if (!this.offline && typeof options.apiKey === 'string' && !options.apiKey.startsWith('srv_')) {
      this.lastError = new VexilError(
        'WRONG_KEY_KIND',
        'The server client needs a server key (srv_...); mobile and client keys work with createClientSideClient.',
      );
    }
    const bootstrap = options.bootstrap;
    if (bootstrap !== undefined && 'file' in bootstrap && typeof bootstrap.file === 'string') {
      const path = bootstrap.file;
      const read = options.readFile ?? readFileWithNode;
      void read(path)
        .then((text) => this.useBootstrap(JSON.parse(text) as unknown, `file ${path}`))
        .catch((cause: unknown) =>
          this.reportError(
            new VexilError(
              'BOOTSTRAP',
              `Bootstrap file ${path} could not be read: ${cause instanceof Error ? cause.message : String(cause)}`,
              undefined,
              { cause },
            ),
          ),
        )
        .finally(() => this.startSync());
      return;
    }
    if (bootstrap !== undefined) this.useBootstrap(bootstrap, 'object');
    this.startSync();
  }

  private useBootstrap(value: unknown, what: string): void {
    try {
      this.applyPayload(value, null, 'bootstrap');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const vexilError = new VexilError('BOOTSTRAP', `Bootstrap ${what} was not used: ${message}`, undefined, { cause: error });
      // listeners are usually attached right after construction
      queueMicrotask(() => this.reportError(vexilError));
    }
  }

  protected applyPayload(body: unknown, etagHeader: string | null, source: 'service' | 'bootstrap' | 'storage'): void {
    const payload = readServerPayload(body, source !== 'service');
    let snapshot: Snapshot;
    try {
      snapshot = compileSnapshot(payload.config);
    } catch (cause) {
      throw new VexilError('INVALID_PAYLOAD', 'The payload configuration could not be compiled.', undefined, { cause });
    }
    const previous = this.payload;
    this.snapshot = snapshot;
    this.payload = payload;
    const etag = etagHeader ?? (payload.etag === '' ? undefined : payload.etag);
    this.etag = etag;
    if (source !== 'service' && this.statusValue === 'not_ready') {
      if (this.offline) {
        this.statusValue = 'ready';
        queueMicrotask(() => this.emit('ready'));
      } else {
        this.statusValue = 'stale';
      }
    }
    if (previous !== null) {
      const keys = changedKeys(previous.config, payload.config);
      if (keys.length > 0) this.emit('change', { keys, revision: payload.config.revision, etag: etag ?? null });
    }
  }

  protected hasPayload(): boolean {
    return this.snapshot !== null;
  }

  protected currentEtag(): string | undefined {
    return this.etag;
  }

  protected requestHeaders(): Record<string, string> {
    return {};
  }

  /** Revision of the configuration served; null without one. */
  get revision(): number | null {
    return this.snapshot === null ? null : this.snapshot.revision;
  }

  /** The environment the key belongs to (from the service's payload). */
  get environment(): PayloadEnvironment | null {
    return this.payload === null ? null : this.payload.environment;
  }

  /** The payload served (write it to a file to bootstrap from it later). */
  getPayload(): ServerPayload | null {
    return this.payload;
  }

  /** Keys of the flags in the payload. */
  keys(): string[] {
    return this.snapshot === null ? [] : this.snapshot.keys();
  }

  private run(key: string, input: SdkContext | null | undefined, type: FlagType): RunResult {
    const snapshot = this.snapshot;
    if (snapshot === null) return 'PROVIDER_NOT_READY';
    let context: ReturnType<typeof normalizeContext> = null;
    try {
      const flag = snapshot.flagMap.get(key);
      if (flag === undefined) return 'FLAG_NOT_FOUND';
      context = normalizeContext(input);
      if (context === INVALID_CONTEXT) {
        this.countUse(key, null);
        return 'INVALID_CONTEXT';
      }
      this.countUse(key, context);
      if (flag.type !== type) return 'TYPE_MISMATCH';
      const outcome = evaluateFlag(snapshot, key, context);
      if (outcome?.split !== undefined && context !== null) this.countExposure(key, context);
      return outcome === undefined ? DECLARED : outcome;
    } catch {
      // a context the engine could not read (malformed attributes, throwing getters...)
      try {
        return context !== null && context !== INVALID_CONTEXT && !isValidContext(context) ? 'INVALID_CONTEXT' : 'GENERAL';
      } catch {
        return 'INVALID_CONTEXT';
      }
    }
  }

  /** The value of a boolean flag for the context, or `defaultValue`. Never throws. */
  boolean(key: string, context: SdkContext | null | undefined, defaultValue: boolean): boolean {
    const r = this.run(key, context, 'boolean');
    return typeof r === 'object' && typeof r.value === 'boolean' ? r.value : defaultValue;
  }

  /** The value of a number flag for the context, or `defaultValue`. Never throws. */
  number(key: string, context: SdkContext | null | undefined, defaultValue: number): number {
    const r = this.run(key, context, 'number');
    return typeof r === 'object' && typeof r.value === 'number' ? r.value : defaultValue;
  }

  /** The value of a string flag for the context, or `defaultValue`. Never throws. */
  string(key: string, context: SdkContext | null | undefined, defaultValue: string): string {
    const r = this.run(key, context, 'string');
    return typeof r === 'object' && typeof r.value === 'string' ? r.value : defaultValue;
  }

  /** The value of a json flag for the context, or `defaultValue`. Never throws. */
  json<T extends JsonValue = JsonValue>(key: string, context: SdkContext | null | undefined, defaultValue: T): T {
    const r = this.run(key, context, 'json');
    return typeof r === 'object' ? (r.value as T) : defaultValue;
  }

  booleanDetails(key: string, context: SdkContext | null | undefined, defaultValue: boolean): EvaluationDetails<boolean> {
    return this.details(key, context, 'boolean', defaultValue);
  }

  numberDetails(key: string, context: SdkContext | null | undefined, defaultValue: number): EvaluationDetails<number> {
    return this.details(key, context, 'number', defaultValue);
  }

  stringDetails(key: string, context: SdkContext | null | undefined, defaultValue: string): EvaluationDetails<string> {
    return this.details(key, context, 'string', defaultValue);
  }

  jsonDetails<T extends JsonValue = JsonValue>(key: string, context: SdkContext | null | undefined, defaultValue: T): EvaluationDetails<T> {
    return this.details(key, context, 'json', defaultValue);
  }

  private details<T>(key: string, context: SdkContext | null | undefined, type: FlagType, defaultValue: T): EvaluationDetails<T> {
    const r = this.run(key, context, type);
    const revision = this.revision;
    if (r === DECLARED) {
      // the flag exists and has nothing to serve: the caller's default is served as a declared default
      return { key, value: defaultValue, resolvedBy: 'default', reason: 'DEFAULT', flagType: type, revision };
    }
    if (typeof r === 'string') {
      return errorDetails(key, defaultValue, r, type, revision, this.snapshot?.flagMap.get(key)?.type, this.lastError?.message);
    }
    return servedDetails<T>(key, r, revision);
  }

  /**
   * Every flag evaluated for a context (unavailable flags left out), without usage counting;
   * `platform` keeps only the flags included on mobile or client.
   */
  allFlags(context: SdkContext | null | undefined, platform: Platform = 'server'): EvaluationOutcome[] {
    const snapshot = this.snapshot;
    if (snapshot === null) return [];
    const normalized = normalizeContext(context);
    if (normalized === INVALID_CONTEXT) return [];
    try {
      return evaluateAll(snapshot, normalized, [], { platform });
    } catch {
      return [];
    }
  }

  /**
   * A client payload for one context, evaluated here: hand it to a browser's client-side client
   * as `bootstrap` (server-side rendering) so the page has values before its first request.
   */
  clientPayload(context: SdkContext | null | undefined, platform: 'mobile' | 'client' = 'client'): ClientPayload | null {
    const payload = this.payload;
    if (payload === null) return null;
    const flags = this.allFlags(context, platform).map((o) =>
      o.split === undefined
        ? { key: o.key, name: o.name, type: o.type, value: o.value, resolved_by: o.resolved_by }
        : { key: o.key, name: o.name, type: o.type, value: o.value, resolved_by: o.resolved_by, split: o.split },
    );
    return { kind: 'client', etag: '', revision: payload.revision, environment: payload.environment, flags };
  }
}

/** Creates and starts a server-side client. */
export function createServerClient(options: ServerClientOptions): VexilServerClient {
  return new VexilServerClient(options);
}
