/**
 * Client-side mode (mobile key `mob_...` or client key `cli_...`): the service evaluates the flags
 * for one context (GET /v1/payload with the context header) and sends only the values, so no
 * rules or segment lists reach the device. The client re-fetches when the context changes,
 * follows GET /v1/stream with the same headers, and keeps the last values in storage the caller
 * supplies (localStorage, AsyncStorage, a file...), used at the next start for the same context.
 */
import { BaseClient } from './base-client.js';
import { contextFingerprint, headerJson, INVALID_CONTEXT, normalizeContext } from './context.js';
import { errorDetails, servedDetails } from './details.js';
import {
  VexilError,
  type ClientFlag,
  type ClientPayload,
  type CommonOptions,
  type Context,
  type DefaultValueDeclaration,
  type EvaluationDetails,
  type EvaluationErrorCode,
  type FlagType,
  type JsonValue,
  type SdkContext,
} from './types.js';
import { valueMatchesType } from '../../src/engine/index.js';

/** Storage the client keeps its last values in: localStorage fits, so does an async key-value store. */
export interface StorageLike {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
}

/** A StorageLike in memory (tests, or a process-lifetime cache). */
export class MemoryStorage implements StorageLike {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

export interface ClientSideOptions extends CommonOptions {
  /** The context to evaluate for (null or absent: no context). Change it with setContext(). */
  readonly context?: SdkContext | null;
  /** Where the last values are kept; read at start, written after every payload. */
  readonly storage?: StorageLike | null;
  /** The storage item's name (default `vexil.payload`). */
  readonly storageKey?: string;
  /** Sent in the default-value header: flags with nothing to serve get these (resolved_by default). */
  readonly declaredDefaults?: readonly DefaultValueDeclaration[];
  /** Served until the service answers: a client payload, e.g. from a server client's clientPayload(). */
  readonly bootstrap?: ClientPayload | { readonly status: 'success'; readonly data: ClientPayload };
  /** How long to wait for the storage at start before going to the network anyway (default 2000 ms). */
  readonly storageTimeoutMs?: number;
}

interface StoredRecord {
  readonly v: 1;
  readonly context: string;
  readonly payload: ClientPayload;
}

type Lookup = ClientFlag | EvaluationErrorCode;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readClientPayload(body: unknown): ClientPayload {
  let data: unknown = body;
  if (isObject(body) && body['status'] === 'success' && 'data' in body) data = body['data'];
  if (isObject(data) && data['kind'] === 'server') {
    throw new VexilError('WRONG_KEY_KIND', 'Got a server payload: the client-side client needs a mobile or client key.');
  }
  if (!isObject(data) || data['kind'] !== 'client' || !Array.isArray(data['flags'])) {
    throw new VexilError('INVALID_PAYLOAD', 'Not a client payload (expected `kind: client` with `flags`).');
  }
  for (const f of data['flags'] as unknown[]) {
    if (!isObject(f) || typeof f['key'] !== 'string' || typeof f['type'] !== 'string' || typeof f['resolved_by'] !== 'string') {
      throw new VexilError('INVALID_PAYLOAD', 'A flag of the client payload is malformed.');
    }
  }
  return data as unknown as ClientPayload;
}

function sameFlag(a: ClientFlag, b: ClientFlag): boolean {
  return (
    a.type === b.type &&
    a.resolved_by === b.resolved_by &&
    JSON.stringify(a.value) === JSON.stringify(b.value) &&
    JSON.stringify(a.split) === JSON.stringify(b.split)
  );
}

export class VexilClientSideClient extends BaseClient {
  private flags: Map<string, ClientFlag> | null = null;
  private payload: ClientPayload | null = null;
  private etag: string | undefined;
  private context: Context | null;
  private contextText: string;
  private readonly storage: StorageLike | null;
  private readonly storageKey: string;
  private readonly defaultsHeader: string | undefined;
  /** Fingerprint of the context the served values were evaluated for. */
  private servedFor: string | undefined;

  constructor(options: ClientSideOptions) {
    super(options, false);
    if (typeof options.apiKey === 'string' && options.apiKey.startsWith('srv_')) {
      this.lastError = new VexilError(
        'WRONG_KEY_KIND',
        'The client-side client needs a mobile or client key (mob_... or cli_...); a server key belongs to createServerClient.',
      );
    }
    const context = normalizeContext(options.context);
    if (context === INVALID_CONTEXT) throw new TypeError('Vexil: the context needs a non-empty string type and identifier.');
    this.context = context;
    this.contextText = contextFingerprint(context);
    this.storage = options.storage ?? null;
    this.storageKey = options.storageKey ?? 'vexil.payload';
    this.defaultsHeader =
      options.declaredDefaults !== undefined && options.declaredDefaults.length > 0 ? headerJson(options.declaredDefaults) : undefined;
    if (options.bootstrap !== undefined) {
      try {
        this.applyPayload(options.bootstrap, null, 'bootstrap');
      } catch (error) {
        const e = new VexilError('BOOTSTRAP', `Bootstrap was not used: ${error instanceof Error ? error.message : String(error)}`);
        queueMicrotask(() => this.reportError(e));
      }
    }
    if (this.storage === null) {
      this.startSync();
    } else {
      void this.loadStored(Math.max(options.storageTimeoutMs ?? 2000, 0)).finally(() => this.startSync());
    }
  }

  private async loadStored(timeoutMs: number): Promise<void> {
    const storage = this.storage;
    if (storage === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const text = await Promise.race([
        Promise.resolve().then(() => storage.getItem(this.storageKey)),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), timeoutMs);
        }),
      ]);
      if (typeof text !== 'string' || text === '') return;
      const record = JSON.parse(text) as StoredRecord;
      // only values evaluated for this very context are served; the service's payload wins if it came first
      if (record.v !== 1 || record.context !== this.contextText || this.payload !== null) return;
      this.applyPayload(record.payload, null, 'storage');
    } catch (error) {
      this.reportError(
        new VexilError('STORAGE', `Stored values could not be read: ${error instanceof Error ? error.message : String(error)}`),
      );
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  protected applyPayload(body: unknown, etagHeader: string | null, source: 'service' | 'bootstrap' | 'storage'): void {
    const payload = readClientPayload(body);
    const flags = new Map<string, ClientFlag>();
    for (const f of payload.flags) if (!flags.has(f.key)) flags.set(f.key, f);
    const previous = this.flags;
    this.flags = flags;
    this.payload = payload;
    this.etag = etagHeader ?? (payload.etag === '' ? undefined : payload.etag);
    this.servedFor = this.contextText;
    if (source !== 'service' && this.statusValue === 'not_ready') this.statusValue = 'stale';
    if (source === 'service') this.store(payload);
    if (previous !== null) {
      const keys: string[] = [];
      for (const [key, f] of flags) {
        const old = previous.get(key);
        if (old === undefined || !sameFlag(old, f)) keys.push(key);
      }
      for (const key of previous.keys()) if (!flags.has(key)) keys.push(key);
      if (keys.length > 0) this.emit('change', { keys, revision: payload.revision, etag: this.etag ?? null });
    }
  }

  private store(payload: ClientPayload): void {
    const storage = this.storage;
    if (storage === null) return;
    const record: StoredRecord = { v: 1, context: this.contextText, payload: { ...payload, etag: this.etag ?? payload.etag } };
    try {
      void Promise.resolve(storage.setItem(this.storageKey, JSON.stringify(record))).catch((error: unknown) =>
        this.reportError(
          new VexilError('STORAGE', `Values could not be stored: ${error instanceof Error ? error.message : String(error)}`),
        ),
      );
    } catch (error) {
      this.reportError(new VexilError('STORAGE', `Values could not be stored: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  protected hasPayload(): boolean {
    return this.flags !== null;
  }

  protected currentEtag(): string | undefined {
    // an ETag of another context's values would never match: do not send it
    return this.servedFor === this.contextText ? this.etag : undefined;
  }

  protected requestHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.context !== null) headers['x-vexil-context'] = headerJson(this.context);
    if (this.defaultsHeader !== undefined) headers['x-vexil-default-value'] = this.defaultsHeader;
    return headers;
  }

  /** The context the values are evaluated for. */
  getContext(): Context | null {
    return this.context;
  }

  /** Revision of the payload served; null without one. */
  get revision(): number | null {
    return this.payload === null ? null : this.payload.revision;
  }

  /**
   * Switches to another context: fetches its values and re-opens the stream with it. Until they
   * arrive the previous values are served. Resolves true once the new values are served, false
   * when the service could not be reached (the client keeps retrying). Rejects (TypeError) only
   * for an invalid context.
   */
  async setContext(input: SdkContext | null | undefined): Promise<boolean> {
    const context = normalizeContext(input);
    if (context === INVALID_CONTEXT) throw new TypeError('Vexil: the context needs a non-empty string type and identifier.');
    const text = contextFingerprint(context);
    if (text === this.contextText) return this.statusValue === 'ready' || (await this.refresh());
    this.context = context;
    this.contextText = text;
    if (this.statusValue === 'closed' || this.sync === undefined) return false;
    // still reading the storage: the first request will use the new context
    if (!this.sync.isRunning) return this.ready();
    return this.sync.restart();
  }

  private lookup(key: string, type: FlagType): Lookup {
    const flags = this.flags;
    if (flags === null) return 'PROVIDER_NOT_READY';
    const flag = flags.get(key);
    if (flag === undefined) return 'FLAG_NOT_FOUND';
    this.countUse(key, this.context);
    if (flag.type !== type || !valueMatchesType(type, flag.value)) return 'TYPE_MISMATCH';
    return flag;
  }

  boolean(key: string, defaultValue: boolean): boolean {
    const f = this.lookup(key, 'boolean');
    return typeof f === 'object' ? (f.value as boolean) : defaultValue;
  }

  number(key: string, defaultValue: number): number {
    const f = this.lookup(key, 'number');
    return typeof f === 'object' ? (f.value as number) : defaultValue;
  }

  string(key: string, defaultValue: string): string {
    const f = this.lookup(key, 'string');
    return typeof f === 'object' ? (f.value as string) : defaultValue;
  }

  json<T extends JsonValue = JsonValue>(key: string, defaultValue: T): T {
    const f = this.lookup(key, 'json');
    return typeof f === 'object' ? (f.value as T) : defaultValue;
  }

  booleanDetails(key: string, defaultValue: boolean): EvaluationDetails<boolean> {
    return this.details(key, 'boolean', defaultValue);
  }

  numberDetails(key: string, defaultValue: number): EvaluationDetails<number> {
    return this.details(key, 'number', defaultValue);
  }

  stringDetails(key: string, defaultValue: string): EvaluationDetails<string> {
    return this.details(key, 'string', defaultValue);
  }

  jsonDetails<T extends JsonValue = JsonValue>(key: string, defaultValue: T): EvaluationDetails<T> {
    return this.details(key, 'json', defaultValue);
  }

  private details<T>(key: string, type: FlagType, defaultValue: T): EvaluationDetails<T> {
    const f = this.lookup(key, type);
    const revision = this.revision;
    if (typeof f === 'string')
      return errorDetails(key, defaultValue, f, type, revision, this.flags?.get(key)?.type, this.lastError?.message);
    return servedDetails<T>(key, f, revision);
  }

  /** Every served value by flag key (no usage counting). */
  all(): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    if (this.flags !== null) for (const [key, f] of this.flags) out[key] = f.value;
    return out;
  }

  /** The flags served, as the payload lists them. */
  allFlags(): ClientFlag[] {
    return this.flags === null ? [] : [...this.flags.values()];
  }
}

/** Creates and starts a client-side client (mobile or client key). */
export function createClientSideClient(options: ClientSideOptions): VexilClientSideClient {
  return new VexilClientSideClient(options);
}
