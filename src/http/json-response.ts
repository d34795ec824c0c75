import type Koa from 'koa';

/** What Koa answers for a JSON body (its `type = 'json'`), written out so no MIME lookup runs. */
export const jsonContentType = 'application/json; charset=utf-8';

/**
 * Sets the JSON Content-Type for a plain object or array body that has none yet, before the
 * body is assigned: Koa then keeps it instead of resolving `json` through mime-types on every
 * response. Other bodies (strings, buffers, streams) are left to Koa.
 */
export function setJsonContentType(ctx: Koa.Context, body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  if (body.constructor !== Object && !Array.isArray(body)) return;
  const res = ctx.res;
  if (!res.headersSent && !res.hasHeader('Content-Type')) res.setHeader('Content-Type', jsonContentType);
}
