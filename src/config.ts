import { loadWebhookSettings, type WebhookSettings } from './features/webhooks/settings.js';
import { parseCorsOrigins, type CorsOrigins } from './http/operations/cors.js';
import { parseSecretKeyMaterial } from './auth/secret-box.js';
import { parsePublicAuditMode, type PublicAuditMode } from './audit/public-audit-mode.js';
import { digestSecret, looksLikeSecret } from './auth/secrets.js';
import type { MetricsSettings } from './observability/metrics-endpoint.js';
import { tracingSettings, type TracingSettings } from './observability/tracing-settings.js';
import { requestLogScopes, type RequestLogScope } from './http/request-log-scope.js';
import { booleanSetting, choiceSetting, integerSetting, SettingError, textSetting, urlSetting } from './settings.js';
import { defaultScryptParameters, type ScryptParameters } from './features/console-sessions/passwords.js';

/** Every setting Vexil reads from the environment, parsed once at start-up (README: Configuration). */
export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  logLevel: string;
  /** Which requests get a log line at info (VEXIL_REQUEST_LOG; docs/operating.md: Logging). */
  requestLog: RequestLogScope;
  initOwnerToken: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key Vexil writes (rate-limit counters), so deployments can share one Redis. */
  redisPrefix: string;
  /** Redis publish/subscribe channel for environment revision changes. */
  redisChannel: string;
  /** How often (ms) rate-limit counts are exchanged with Redis in the background. */
  redisSyncMs: number;
  /** Longest wait (ms) for a Redis answer before Redis counts as down (each instance then limits alone). */
  redisTimeoutMs: number;
  /** Public API requests per minute per client IP; 0 turns the limit off. */
  publicRateLimit: number;
  trustProxy: boolean;
  /** GET /v1/flags, /v1/flags/{key}, /v1/payload and OFREP bulk answered in front of Koa (src/http/fast-public-reads.ts); on unless VEXIL_FAST_PUBLIC_READS=false. */
  fastPublicReads: boolean;
  /**
   * The origin (scheme, host, port) people reach the console at when a proxy in front rewrites
   * the scheme or host (VEXIL_PUBLIC_URL); console requests from it pass the same-origin check.
   */
  publicOrigin: string | undefined;
  managementRateLimits: { standard: number; elevated: number };
  /** Reads (GET) per minute per console session: an abuse ceiling, far above a person browsing. */
  consoleReadRateLimit: number;
  /** How often (ms) each instance polls environment revisions to notice changes made elsewhere. */
  revisionPollMs: number;
  /** Automatic rollout step interval in ms. */
  rolloutStepMs: number;
  schedulerIntervalMs: number;
  auditRetentionDays: number;
  /**
   * What the public audit trail records (VEXIL_PUBLIC_AUDIT), how many entries it holds before
   * dropping (VEXIL_PUBLIC_AUDIT_BUFFER) and how long after one write the next starts
   * (VEXIL_PUBLIC_AUDIT_FLUSH_MS): what a process killed outright can lose (docs/operating.md).
   */
  publicAudit: { mode: PublicAuditMode; capacity: number; flushIntervalMs: number };
  maxBodyBytes: number;
  /** MySQL/MariaDB: longest wait for a pooled connection (opening one included) before a 503. */
  databaseAcquireTimeoutMs: number;
  /** MySQL/MariaDB: longest wait for one query's answer before a 503 (migrations are exempt). */
  databaseQueryTimeoutMs: number;
  /** Galera: the least wait for one query's answer (writes stall about 6 s while a dead node is evicted). */
  databaseGaleraQueryTimeoutMs: number;
  /** SQLite: longest wait for a write lock another process holds before a write answers 503. */
  sqliteLockWaitMs: number;
  /** Largest request head (request line and headers) Node accepts; context headers carry JSON. */
  maxHeaderBytes: number;
  webhooks: WebhookSettings;
  /**
   * Keys encrypting secrets stored for reading back (webhook signing secrets): `current` seals,
   * every key opens. Without VEXIL_SECRET_KEY a key generated once is kept in the database.
   */
  secretKeys: { current: Buffer | undefined; previous: Buffer[] };
  /** A configuration file applied on first start (flags as code), or undefined. */
  importFile: string | undefined;
  /** Origins allowed to call the public API and OFREP from a browser (VEXIL_CORS_ORIGINS). */
  corsOrigins: CorsOrigins;
  /** On SIGTERM, how long the instance keeps serving (answering 503 on /ready) before it stops. */
  drainMs: number;
  /** GET /metrics: bearer token (as a digest) and own port (VEXIL_METRICS_TOKEN, VEXIL_METRICS_PORT). */
  metrics: MetricsSettings;
  /** OpenTelemetry trace export (OTEL_EXPORTER_OTLP_ENDPOINT and the standard OTEL_* settings). */
  tracing: TracingSettings;
  /**
   * Console sessions: absolute lifetime, idle limit, failed sign-ins allowed per 15 minutes, and
   * how long a temporary password (generated, or set by an owner or admin) may be used.
   */
  sessions: {
    hours: number;
    idleMinutes: number;
    signInAttempts: number;
    temporaryPasswordDays: number;
    /** scrypt's cost for new password hashes: always the default when configured from the environment. */
    passwordHashing: ScryptParameters;
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const redisPrefix = textSetting(env, 'VEXIL_REDIS_PREFIX', 'vexil:');
  return {
    databaseUrl: databaseUrl(env),
    host: env.HOST || '0.0.0.0',
    port: integerSetting(env, 'PORT', 8080, { max: 65_535 }),
    logLevel: choiceSetting(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    requestLog: choiceSetting(env, 'VEXIL_REQUEST_LOG', requestLogScopes, 'management'),
    initOwnerToken: initOwnerToken(env),
    redisUrl: urlSetting(env, 'REDIS_URL', ['redis', 'rediss']),
    redisPrefix,
    redisChannel: textSetting(env, 'VEXIL_REDIS_CHANNEL', `${redisPrefix}environment-revisions`),
    redisSyncMs: integerSetting(env, 'VEXIL_RATE_LIMIT_SYNC_MS', 200, { min: 10, max: 60_000 }),
    redisTimeoutMs: integerSetting(env, 'VEXIL_REDIS_TIMEOUT_MS', 500, { min: 10, max: 60_000 }),
    publicRateLimit: integer(env, 'VEXIL_PUBLIC_RATE_LIMIT', 100),
    trustProxy: booleanSetting(env, 'VEXIL_TRUST_PROXY', false),
    fastPublicReads: booleanSetting(env, 'VEXIL_FAST_PUBLIC_READS', true),
    publicOrigin: publicOrigin(env),
    managementRateLimits: {
      standard: integer(env, 'VEXIL_RATE_LIMIT_STANDARD', 60),
      elevated: integer(env, 'VEXIL_RATE_LIMIT_ELEVATED', 300),
    },
    consoleReadRateLimit: integer(env, 'VEXIL_CONSOLE_READ_RATE_LIMIT', 3000),
    revisionPollMs: integerSetting(env, 'VEXIL_REVISION_POLL_MS', 250, { min: 1 }),
    rolloutStepMs: integerSetting(env, 'VEXIL_ROLLOUT_STEP_MS', 3_600_000, { min: 1 }),
    schedulerIntervalMs: integerSetting(env, 'VEXIL_SCHEDULER_INTERVAL_MS', 1000, { min: 1 }),
    auditRetentionDays: integer(env, 'VEXIL_AUDIT_RETENTION_DAYS', 90),
    publicAudit: {
      mode: parsePublicAuditMode(env.VEXIL_PUBLIC_AUDIT),
      capacity: integerSetting(env, 'VEXIL_PUBLIC_AUDIT_BUFFER', 50_000, { min: 1 }),
      flushIntervalMs: integerSetting(env, 'VEXIL_PUBLIC_AUDIT_FLUSH_MS', 1000, { min: 10, max: 60_000 }),
    },
    maxBodyBytes: integer(env, 'VEXIL_MAX_BODY_BYTES', 1_048_576),
    maxHeaderBytes: integer(env, 'VEXIL_MAX_HEADER_BYTES', 65_536),
    databaseAcquireTimeoutMs: integerSetting(env, 'VEXIL_DB_ACQUIRE_TIMEOUT_MS', 3000, { min: 100 }),
    databaseQueryTimeoutMs: integerSetting(env, 'VEXIL_DB_QUERY_TIMEOUT_MS', 5000, { min: 100 }),
    databaseGaleraQueryTimeoutMs: integerSetting(env, 'VEXIL_DB_GALERA_QUERY_TIMEOUT_MS', 15_000, { min: 100 }),
    sqliteLockWaitMs: integerSetting(env, 'VEXIL_SQLITE_LOCK_WAIT_MS', 5000, { min: 10, max: 600_000 }),
    webhooks: webhookSettings(env),
    secretKeys: secretKeys(env),
    importFile: env.VEXIL_IMPORT_FILE || undefined,
    corsOrigins: parseCorsOrigins(env.VEXIL_CORS_ORIGINS),
    drainMs: integerSetting(env, 'VEXIL_DRAIN_MS', 5000),
    metrics: metricsSettings(env),
    tracing: tracingSettings(env),
    sessions: {
      hours: integerSetting(env, 'VEXIL_SESSION_HOURS', 12, { min: 1 }),
      idleMinutes: integerSetting(env, 'VEXIL_SESSION_IDLE_MINUTES', 60, { min: 1 }),
      signInAttempts: integerSetting(env, 'VEXIL_SIGN_IN_ATTEMPTS', 10, { min: 1 }),
      temporaryPasswordDays: integerSetting(env, 'VEXIL_TEMPORARY_PASSWORD_DAYS', 7, { min: 1 }),
      passwordHashing: defaultScryptParameters,
    },
  };
}

/** The message never repeats the value: it is a secret. */
function initOwnerToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.VEXIL_INIT_OWNER_TOKEN || undefined;
  if (token !== undefined && !looksLikeSecret(token, ['pat_'])) {
    throw new SettingError('VEXIL_INIT_OWNER_TOKEN must be a personal access token: "pat_" followed by 32 to 200 letters and digits');
  }
  return token;
}

/** The token is kept as its digest only; messages never repeat it. */
function metricsSettings(env: NodeJS.ProcessEnv): MetricsSettings {
  const token = env.VEXIL_METRICS_TOKEN || undefined;
  if (token !== undefined && !/^[\x21-\x7e]{16,512}$/.test(token)) {
    throw new SettingError('VEXIL_METRICS_TOKEN must be 16 to 512 printable characters without spaces');
  }
  const port = env.VEXIL_METRICS_PORT ? integerSetting(env, 'VEXIL_METRICS_PORT', 0, { min: 1, max: 65_535 }) : undefined;
  if (port !== undefined && port === integerSetting(env, 'PORT', 8080, { max: 65_535 })) {
    throw new SettingError('VEXIL_METRICS_PORT must differ from PORT');
  }
  return { tokenDigest: token === undefined ? undefined : digestSecret(token), port };
}

/** VEXIL_PUBLIC_URL names an origin only: the console is served at its root. */
function publicOrigin(env: NodeJS.ProcessEnv): string | undefined {
  const raw = urlSetting(env, 'VEXIL_PUBLIC_URL', ['https', 'http']);
  if (raw === undefined) return undefined;
  const url = new URL(raw);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new SettingError('VEXIL_PUBLIC_URL must be an address without a path, such as https://flags.example.com');
  }
  return url.origin;
}

function databaseUrl(env: NodeJS.ProcessEnv): string {
  const url = env.DATABASE_URL || 'sqlite:./data/vexil.db';
  if (!/^(sqlite:|mysql:\/\/|mariadb:\/\/|postgres:\/\/|postgresql:\/\/)/.test(url)) {
    throw new SettingError('DATABASE_URL must start with sqlite:, mysql:// (or mariadb://) or postgres:// (or postgresql://)');
  }
  return url;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return integerSetting(env, name, fallback);
}

/** The webhook settings' own parser reports bad values as plain errors: make them setting errors. */
function webhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  try {
    return loadWebhookSettings(env);
  } catch (error) {
    throw new SettingError(error instanceof Error ? error.message : String(error));
  }
}

/** VEXIL_SECRET_KEY and VEXIL_SECRET_KEY_PREVIOUS (comma-separated); messages never repeat a key. */
function secretKeys(env: NodeJS.ProcessEnv): Config['secretKeys'] {
  const shape = 'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)';
  const parse = (name: string, raw: string): Buffer => {
    const material = parseSecretKeyMaterial(raw);
    if (!material) throw new SettingError(`${name} ${shape}`);
    return material;
  };
  const current = env.VEXIL_SECRET_KEY ? parse('VEXIL_SECRET_KEY', env.VEXIL_SECRET_KEY) : undefined;
  const previous = (env.VEXIL_SECRET_KEY_PREVIOUS ?? '')
    .split(',')
    .filter((raw) => raw.trim() !== '')
    .map((raw, i) => parse(`VEXIL_SECRET_KEY_PREVIOUS (key ${i + 1})`, raw));
  return { current, previous };
}
