import type Koa from 'koa';
import type { Logger } from 'pino';
import { requestIdOf } from './operations/request-id.js';
import { logsRequestTo, type RequestLogScope } from './request-log-scope.js';

/** One log line per request in `scope`. Only method, path (no query string, which may carry context) and outcome. */
export function requestLog(logger: Logger, scope: RequestLogScope): Koa.Middleware {
  const logged = async (ctx: Koa.Context, next: Koa.Next, requestId: string) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
  // Every response carries X-Request-Id; outside the scope or below info there is no line: no
  // clock, no wrapper.
  return (ctx, next) => {
    const requestId = requestIdOf(ctx);
    return logger.isLevelEnabled('info') && logsRequestTo(scope, ctx.path) ? logged(ctx, next, requestId) : next();
  };
}
