import type Koa from 'koa';
import type { Knex } from 'knex';
import type { components } from '../../../generated/public.js';
import type { DatabaseHostStatus } from '../../storage/mysql-hosts.js';
import { ping } from '../../storage/ping.js';

/** What /ready reports; each false names a reason the instance should not get traffic. */
export interface ReadinessState {
  /** Set on SIGTERM: the instance drains and a load balancer should stop sending to it. */
  shuttingDown: boolean;
  /** Set while the process starts (first start, VEXIL_IMPORT_FILE) after it took its port. */
  starting?: boolean;
  /**
   * Whether every environment's snapshot has been loaded once (set by the evaluation feature).
   * The first load runs when the background tasks start, at the end of the start: until then
   * the instance cannot serve evaluations from memory.
   */
  snapshotsLoaded: () => boolean;
  /** Whether Redis answers (set by the rate-limit feature when REDIS_URL is set): detail, not a condition. */
  redis?: () => 'up' | 'down';
  /** MySQL/MariaDB: which host new connections go to (storage/mysql-hosts.ts): detail, not a condition. */
  databaseHost?: () => DatabaseHostStatus;
}

/** The database check's budget: short enough that the probe's answer comes within a second. */
const readinessTimeoutMs = 800;

/** Whether the database answers a trivial query within the budget (never hangs a probe). */
async function databaseAnswers(knex: Knex): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      ping(knex).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), readinessTimeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

type Schemas = components['schemas'];

export interface HealthAnswer<Body = Schemas['Health'] | Schemas['Readiness']> {
  status: number;
  body: Body;
}

export function liveness(): HealthAnswer<Schemas['Health']> {
  return { status: 200, body: { status: 'ok' } };
}

/**
 * Ready when the database answers, the instance has started, its snapshots are loaded and it is
 * not shutting down; 503 naming what is not.
 */
export async function readiness(knex: Knex, state: ReadinessState): Promise<HealthAnswer<Schemas['Readiness']>> {
  const checks = {
    database: await databaseAnswers(knex),
    snapshots: state.snapshotsLoaded(),
    accepting_traffic: !state.shuttingDown && !state.starting,
  };
  const ready = checks.database && checks.snapshots && checks.accepting_traffic;
  const host = state.databaseHost?.();
  const reasons = [
    ...(checks.database ? [] : [host?.state === 'reconnecting' ? `database reconnecting (to ${host.host})` : 'database unreachable']),
    ...(state.starting ? ['starting'] : []),
    ...(checks.snapshots || state.starting ? [] : ['snapshots loading']),
    ...(state.shuttingDown ? ['shutting down'] : []),
  ];
  const redis = state.redis?.() ?? 'not_configured';
  const databaseHost = host && {
    host: host.host,
    state: host.state,
    hosts: host.hosts,
    galera: host.galera,
    ...(host.lastFailure === undefined ? {} : { last_failure: host.lastFailure }),
  };
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? 'ready' : 'not_ready',
      checks,
      redis,
      ...(databaseHost ? { database_host: databaseHost } : {}),
      ...(ready ? {} : { reasons }),
    },
  };
}

/**
 * GET /health and GET /ready, answered before any API stage: unauthenticated, never audited or
 * rate-limited. False when the request is not one of them.
 */
export function healthEndpoints(knex: Knex, state: ReadinessState) {
  return async (ctx: Koa.Context): Promise<boolean> => {
    if (ctx.path !== '/health' && ctx.path !== '/ready') return false;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    const answer = ctx.path === '/health' ? liveness() : await readiness(knex, state);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = answer.status;
    ctx.body = answer.body;
    return true;
  };
}
