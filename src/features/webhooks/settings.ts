/** Webhook delivery settings (README: Webhooks). */
export interface WebhookSettings {
  /** Allow http:// URLs (https only otherwise). */
  allowHttp: boolean;
  /** Allow hosts that resolve to loopback, link-local or private addresses (tests, internal receivers). */
  allowPrivate: boolean;
  /** How often each instance looks for due deliveries. */
  pollMs: number;
  /** Time allowed for one delivery attempt, response included. */
  timeoutMs: number;
  /** First retry delay; doubles with each attempt (with jitter), capped at one hour. */
  retryBaseMs: number;
  /** How long an event is retried before it is given up as failed. */
  maxAgeMs: number;
  /** Consecutive failed attempts after which a subscription is disabled. */
  disableAfter: number;
  /** Subscriptions an instance delivers to at the same time (each one's events stay in order). */
  concurrency: number;
  /** Days delivered and failed events stay in the delivery log; 0 keeps them. */
  retentionDays: number;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function count(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer of at least ${minimum}, got "${raw}"`);
  return value;
}

export function loadWebhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  return {
    allowHttp: flag(env, 'VEXIL_WEBHOOK_ALLOW_HTTP', false),
    allowPrivate: flag(env, 'VEXIL_WEBHOOK_ALLOW_PRIVATE', false),
    pollMs: count(env, 'VEXIL_WEBHOOK_POLL_MS', 1000, 10),
    timeoutMs: count(env, 'VEXIL_WEBHOOK_TIMEOUT_MS', 10_000, 100),
    retryBaseMs: count(env, 'VEXIL_WEBHOOK_RETRY_BASE_MS', 5_000, 1),
    maxAgeMs: count(env, 'VEXIL_WEBHOOK_MAX_AGE_MS', 24 * 3_600_000, 1000),
    disableAfter: count(env, 'VEXIL_WEBHOOK_DISABLE_AFTER', 50, 1),
    concurrency: count(env, 'VEXIL_WEBHOOK_CONCURRENCY', 8, 1),
    retentionDays: count(env, 'VEXIL_WEBHOOK_RETENTION_DAYS', 30, 0),
  };
}
