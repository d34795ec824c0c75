import type Koa from 'koa';

/** Headers a browser application sends to the public API and OFREP. */
const allowedHeaders = [
  'X-VEXIL-API-KEY',
  'X-API-KEY',
  'X-VEXIL-KEY',
  'X-VEXIL-CONTEXT',
  'C',
  'X-VEXIL-DEFAULT-VALUE',
  'X-DEFAULT-VALUE',
  'D',
  'If-None-Match',
  'Content-Type',
  'Authorization',
  'X-Request-Id',
].join(', ');

export type CorsOrigins = '*' | 'none' | string[];

/** VEXIL_CORS_ORIGINS: `*` (default: client keys are public by design), `none`, or a comma list of origins. */
export function parseCorsOrigins(raw: string | undefined): CorsOrigins {
  const value = (raw ?? '*').trim();
  if (value === '' || value === '*') return '*';
  if (value === 'none') return 'none';
  return value
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

/**
 * CORS for the public API and OFREP: answers preflights (204) and marks responses readable by the
 * allowed origins, with ETag exposed for payload caching. Returns true when it answered a preflight.
 */
export function applyCors(ctx: Koa.Context, origins: CorsOrigins): boolean {
  if (origins === 'none') return false;
  const origin = ctx.get('origin');
  if (origin === '') return false;
  const allowed = origins === '*' ? '*' : origins.includes(origin) ? origin : undefined;
  if (allowed === undefined) return false;
  ctx.set('Access-Control-Allow-Origin', allowed);
  if (allowed !== '*') ctx.vary('Origin');
  if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method') !== '') {
    ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    ctx.set('Access-Control-Allow-Headers', allowedHeaders);
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
    return true;
  }
  ctx.set('Access-Control-Expose-Headers', 'ETag, X-Request-Id');
  return false;
}
