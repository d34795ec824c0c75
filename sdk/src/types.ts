/**
 * Public types of the Vexil SDK. The payload shapes follow specs/public.yaml (GET /v1/payload);
 * the evaluation types come from the server's own engine module (src/engine), imported, not copied.
 */
import type { Context, EnvironmentConfig, EvaluationSplit, FlagType, JsonValue, ResolvedBy } from '../../src/engine/index.js';

export type {
  Context,
  ContextAttribute,
  ContextAttributeValue,
  DefaultValueDeclaration,
  EnvironmentConfig,
  EvaluationSplit,
  CompiledFlag,
  CompiledSegment,
  FlagType,
  JsonValue,
  ResolvedBy,
} from '../../src/engine/index.js';

/** An attribute value in the record form of a context; converted to strings before evaluation. */
export type AttributeInput = string | number | boolean;

/**
 * The evaluation context the SDK accepts: the Vexil Context (attributes as
 * `[{key, values: [{value}]}]`, the wire form and the fastest), or the same with `attributes` as a
 * record (`{plan: 'gold', roles: ['admin', 'billing'], seats: 25}`), which is converted.
 */
export type SdkContext =
  | Context
  | {
      readonly type: string;
      readonly identifier: string;
      readonly name?: string;
      readonly attributes?: Readonly<Record<string, AttributeInput | readonly AttributeInput[] | null | undefined>>;
    };

/** `environment` of a payload. */
export interface PayloadEnvironment {
  readonly ulid: string;
  readonly key: string;
}

/** GET /v1/payload for a server key: the compiled configuration for local evaluation. */
export interface ServerPayload {
  readonly kind: 'server';
  readonly etag: string;
  readonly revision: number;
  readonly environment: PayloadEnvironment;
  readonly config: EnvironmentConfig;
}

/** One flag of a client payload: already evaluated for the context the request sent. */
export interface ClientFlag {
  readonly key: string;
  readonly name: string;
  readonly type: FlagType;
  readonly value: JsonValue;
  readonly resolved_by: ResolvedBy;
  /** Set when a weighted split chose the value. */
  readonly split?: EvaluationSplit;
}

/** GET /v1/payload for a mobile or client key: values evaluated for one context. */
export interface ClientPayload {
  readonly kind: 'client';
  readonly etag: string;
  readonly revision: number;
  readonly environment: PayloadEnvironment;
  readonly flags: readonly ClientFlag[];
}

export type Payload = ServerPayload | ClientPayload;

/** Why a value was served (OpenFeature's standard reasons). */
export type Reason = 'TARGETING_MATCH' | 'SPLIT' | 'STATIC' | 'DEFAULT' | 'PREREQUISITE_FAILED' | 'ERROR';

/** Why the caller's default was returned instead of a flag value (OpenFeature's error codes). */
export type EvaluationErrorCode =
  | 'PROVIDER_NOT_READY'
  | 'FLAG_NOT_FOUND'
  | 'TYPE_MISMATCH'
  | 'INVALID_CONTEXT'
  | 'TARGETING_KEY_MISSING'
  | 'GENERAL';

/** The result of a `...Details` evaluation. */
export interface EvaluationDetails<T> {
  readonly key: string;
  /** The served value, or the caller's default when `errorCode` is set. */
  readonly value: T;
  /** Vexil's resolution (`rule`, `rollout`, `target`, `default`, `prerequisite`); null with an error. */
  readonly resolvedBy: ResolvedBy | null;
  /**
   * `resolvedBy` as an OpenFeature reason: rule TARGETING_MATCH, rollout SPLIT, target STATIC,
   * default DEFAULT, prerequisite PREREQUISITE_FAILED; SPLIT whenever a weighted split chose the value.
   */
  readonly reason: Reason;
  /** Set when a weighted split chose the value: which split, the value's variant and weight (thousandths of a percent). */
  readonly split?: EvaluationSplit;
  readonly errorCode?: EvaluationErrorCode;
  readonly errorMessage?: string;
  /** The flag's type, when the flag is known. */
  readonly flagType?: FlagType;
  /** Revision of the payload the value came from; null without a payload. */
  readonly revision: number | null;
}

/**
 * `not_ready`: nothing to serve yet (every evaluation returns the caller's default).
 * `ready`: serving a payload the service confirmed (stream connected or last request succeeded).
 * `stale`: serving a payload the service has not confirmed: the bootstrap, the stored cache, or
 * the last good payload while the service is unreachable.
 * `closed`: close() was called; the last payload is still served.
 */
export type ClientStatus = 'not_ready' | 'ready' | 'stale' | 'closed';

export type VexilErrorCode =
  /** The key was refused (401): wrong, revoked, or of the wrong kind. */
  | 'UNAUTHORIZED'
  /** The service could not be reached, or the request timed out. */
  | 'NETWORK'
  /** The service answered with an unexpected status. */
  | 'HTTP'
  /** 429: the rate limit was exceeded. */
  | 'RATE_LIMITED'
  /** The payload could not be read (not JSON, or not the documented shape). */
  | 'INVALID_PAYLOAD'
  /** A server client got a client payload or the reverse (wrong key kind). */
  | 'WRONG_KEY_KIND'
  /** The bootstrap object or file could not be used. */
  | 'BOOTSTRAP'
  /** The caller's storage failed. */
  | 'STORAGE'
  /** Usage reports could not be sent. */
  | 'USAGE';

export class VexilError extends Error {
  constructor(
    readonly code: VexilErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'VexilError';
  }
}

/** Emitted with `change`: which flags may serve something else now. */
export interface ChangeEvent {
  readonly keys: readonly string[];
  readonly revision: number;
  readonly etag: string | null;
}

export interface ClientEvents {
  /** The service confirmed the payload (first time, or again after `stale` / `not_ready`). */
  ready: [];
  /** A new payload was applied and it changes what the listed flags may serve. */
  change: [ChangeEvent];
  /** Something failed; the client keeps serving what it has and retries. */
  error: [VexilError];
  /** The service became unreachable: the last good payload is served. */
  stale: [VexilError];
}

export interface Logger {
  warn(message: string, ...args: unknown[]): void;
}

/** Options shared by both clients. */
export interface CommonOptions {
  /** An environment key: `srv_...` (server client) or `mob_...` / `cli_...` (client-side client). */
  readonly apiKey: string;
  /** Where Vexil is served, e.g. `https://flags.example.com` (paths /v1/... are appended). */
  readonly baseUrl: string;
  /** Follow GET /v1/stream for changes (default true); without it, poll. */
  readonly stream?: boolean;
  /** Polling interval while the stream is disabled or disconnected (default 30 000 ms; min 1000). */
  readonly pollIntervalMs?: number;
  /** Timeout of one payload or usage request (default 10 000 ms). */
  readonly requestTimeoutMs?: number;
  /** Reconnect when the stream sends nothing for this long (default 45 000 ms: 3 heartbeats). */
  readonly streamIdleTimeoutMs?: number;
  /** Stream reconnection: exponential backoff with jitter between these bounds. */
  readonly reconnect?: { readonly initialDelayMs?: number; readonly maxDelayMs?: number };
  /** "Flag used" reporting (POST /v1/flags/{key}/usage), on by default; false turns it off. */
  readonly usage?: false | UsageOptions;
  /** fetch implementation (default globalThis.fetch). */
  readonly fetch?: typeof fetch;
  /** Source of randomness for the jitter (tests). */
  readonly random?: () => number;
  /** Where errors go when nobody listens to `error` (default console; null: nowhere). */
  readonly logger?: Logger | null;
}

export interface UsageOptions {
  /** How often pending counts are sent (default 30 000 ms). */
  readonly intervalMs?: number;
  /** At most this many flags are counted between two sends; more are dropped (default 10 000). */
  readonly maxPendingFlags?: number;
  /** At most this many requests per send; the rest waits for the next send (default 500). */
  readonly maxRequestsPerFlush?: number;
  /** Attach the context of the latest use to each report, for the rule editor's suggestions (default true). */
  readonly sendContext?: boolean;
}
