import { loadWebhookSettings, type WebhookSettings } from './features/webhooks/settings.js';

/** Every setting Vexil reads from the environment, parsed once at start-up (README: Configuration). */
export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  logLevel: string;
  initOwnerToken: string | undefined;
  redisUrl: string | undefined;
  /** Public API requests per minute per client IP; 0 turns the limit off. */
  publicRateLimit: number;
  trustProxy: boolean;
  managementRateLimits: { standard: number; elevated: number };
  /** How often (ms) each instance polls environment revisions to notice changes made elsewhere. */
  revisionPollMs: number;
  /** Automatic rollout step interval in ms. */
  rolloutStepMs: number;
  schedulerIntervalMs: number;
  auditRetentionDays: number;
  maxBodyBytes: number;
  /** Largest request head (request line and headers) Node accepts; context headers carry JSON. */
  maxHeaderBytes: number;
  webhooks: WebhookSettings;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/vexil.db',
    host: env.HOST || '0.0.0.0',
    port: integer(env, 'PORT', 8080),
    logLevel: env.LOG_LEVEL || 'info',
    initOwnerToken: env.VEXIL_INIT_OWNER_TOKEN || undefined,
    redisUrl: env.REDIS_URL || undefined,
    publicRateLimit: integer(env, 'VEXIL_PUBLIC_RATE_LIMIT', 100),
    trustProxy: env.VEXIL_TRUST_PROXY === 'true' || env.VEXIL_TRUST_PROXY === '1',
    managementRateLimits: {
      standard: integer(env, 'VEXIL_RATE_LIMIT_STANDARD', 60),
      elevated: integer(env, 'VEXIL_RATE_LIMIT_ELEVATED', 300),
    },
    revisionPollMs: integer(env, 'VEXIL_REVISION_POLL_MS', 250),
    rolloutStepMs: integer(env, 'VEXIL_ROLLOUT_STEP_MS', 3_600_000),
    schedulerIntervalMs: integer(env, 'VEXIL_SCHEDULER_INTERVAL_MS', 1000),
    auditRetentionDays: integer(env, 'VEXIL_AUDIT_RETENTION_DAYS', 90),
    maxBodyBytes: integer(env, 'VEXIL_MAX_BODY_BYTES', 1_048_576),
    maxHeaderBytes: integer(env, 'VEXIL_MAX_HEADER_BYTES', 65_536),
    webhooks: loadWebhookSettings(env),
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}
