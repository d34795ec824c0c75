import type Koa from 'koa';

/**
 * Headers of every console and reference page: scripts only from this server (no inline script,
 * so injected markup cannot run), no framing, no MIME sniffing. Inline styles are allowed: the
 * API reference (Swagger UI) sets them.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function setPageSecurityHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', contentSecurityPolicy);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
}

/**
 * The outermost middleware of every application: no answer (API, error, file, page, health) may
 * be sniffed into another content type than the one it declares.
 */
export const noSniff: Koa.Middleware = (ctx, next) => {
  ctx.set('X-Content-Type-Options', 'nosniff');
  return next();
};
