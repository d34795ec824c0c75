import Koa from 'koa';
import type { Logger } from 'pino';
import { digestSecret, digestsEqual } from '../auth/secrets.js';
import { errorMiddleware } from '../http/error-middleware.js';
import { MethodNotAllowedError, NotFoundError, UnauthorizedError } from '../http/errors.js';
import { noSniff } from '../http/web/security-headers.js';
import type { Metrics } from './metrics.js';

/** Where and for whom /metrics answers (VEXIL_METRICS_TOKEN, VEXIL_METRICS_PORT). */
export interface MetricsSettings {
  /** SHA-256 digest of the bearer token a scrape must send; undefined: open. */
  tokenDigest: string | undefined;
  /** The metrics' own port; undefined: served on the API port. */
  port: number | undefined;
}

/** With a token configured, the request's bearer token must equal it (compared as digests, in constant time). */
function checkToken(tokenDigest: string | undefined, authorization: string | undefined): void {
  if (tokenDigest === undefined) return;
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  // The error middleware answers with the Bearer challenge (challengeFor).
  if (!match) throw new UnauthorizedError('Metrics need the bearer token set in VEXIL_METRICS_TOKEN.', 'auth.missing_token');
  if (!digestsEqual(digestSecret(match[1]!), tokenDigest)) throw new UnauthorizedError('Invalid metrics token.', 'auth.invalid_token');
}

export interface MetricsAnswer {
  status: 200;
  body: string;
  headers: Record<string, string>;
}

/** GET /metrics: the exposition text, or a 401 (thrown) when a token is configured and not sent. */
export async function metricsAnswer(
  metrics: Metrics,
  settings: MetricsSettings,
  authorization: string | undefined,
): Promise<MetricsAnswer> {
  checkToken(settings.tokenDigest, authorization);
  const { text, contentType } = await metrics.exposition();
  return { status: 200, body: text, headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } };
}

/**
 * GET and HEAD /metrics, answered before any API stage (never audited or rate-limited). On the
 * API port it is a 404 when the metrics have their own port. False for any other request.
 */
export function metricsEndpoint(metrics: Metrics, settings: MetricsSettings, onMetricsPort = false) {
  return async (ctx: Koa.Context): Promise<boolean> => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
    if (settings.port !== undefined && !onMetricsPort) throw new NotFoundError('Not found: metrics are served on their own port.');
    const answer = await metricsAnswer(metrics, settings, ctx.get('authorization') || undefined);
    ctx.status = answer.status;
    ctx.set(answer.headers);
    ctx.body = answer.body;
    return true;
  };
}

/** The application on VEXIL_METRICS_PORT: /metrics and nothing else, errors in the usual envelope. */
export function metricsApp(metrics: Metrics, settings: MetricsSettings, logger: Logger): Koa {
  const app = new Koa();
  const endpoint = metricsEndpoint(metrics, settings, true);
  app.use(noSniff);
  app.use(errorMiddleware(logger));
  app.use(async (ctx) => {
    if (await endpoint(ctx)) return;
    if (ctx.path === '/metrics') throw new MethodNotAllowedError(['GET', 'HEAD']);
    throw new NotFoundError('Not found.');
  });
  return app;
}
