import { randomUUID } from 'node:crypto';
import type Koa from 'koa';

/** A client's id is kept when it is short and plain; anything else (huge, control characters) is replaced. */
const saneId = /^[A-Za-z0-9._-]{1,128}$/;

/** The id of a request whose X-Request-Id header is `given`: the client's when sane, else a new one (both request paths). */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && saneId.test(given) ? given : randomUUID();
}

/** The request's id (requestIdFor), answered on every response and kept in the state for the error log. */
export function requestIdOf(ctx: Koa.Context): string {
  const id = requestIdFor(ctx.req.headers['x-request-id']);
  ctx.set('X-Request-Id', id);
  (ctx.state as { requestId?: string }).requestId = id;
  return id;
}
