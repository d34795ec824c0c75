import type Koa from 'koa';
import type { Logger } from 'pino';

/** One log line per request. Only method, path (no query string, which may carry context) and outcome. */
export function requestLog(logger: Logger): Koa.Middleware {
  const logged: Koa.Middleware = async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
  // Below info (the usual production and benchmark level) there is no line: no clock, no wrapper.
  return (ctx, next) => (logger.isLevelEnabled('info') ? logged(ctx, next) : next());
}
