import type Koa from 'koa';
import type { Logger } from 'pino';
import { requestIdOf } from './operations/request-id.js';

/** One log line per request. Only method, path (no query string, which may carry context) and outcome. */
export function requestLog(logger: Logger): Koa.Middleware {
  const logged = async (ctx: Koa.Context, next: Koa.Next, requestId: string) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
  // Every response carries X-Request-Id; below info (the usual production and benchmark level)
  // there is no line: no clock, no wrapper.
  return (ctx, next) => {
    const requestId = requestIdOf(ctx);
    return logger.isLevelEnabled('info') ? logged(ctx, next, requestId) : next();
  };
}
