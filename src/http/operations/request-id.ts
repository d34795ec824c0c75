import { randomUUID } from 'node:crypto';
import type Koa from 'koa';

/** A client's id is kept when it is short and plain; anything else (huge, control characters) is replaced. */
const saneId = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id: the client's X-Request-Id when sane, else a new one; answered on every response. */
export function requestIdOf(ctx: Koa.Context): string {
  const given = ctx.get('x-request-id');
  const id = saneId.test(given) ? given : randomUUID();
  ctx.set('X-Request-Id', id);
  (ctx.state as { requestId?: string }).requestId = id;
  return id;
}
