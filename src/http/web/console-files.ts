import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { repoRoot } from '../openapi/document.js';
import { setPageSecurityHeaders } from './security-headers.js';
import { fileBelow, isPrecompressedCopy, sendFile } from './static-files.js';

/** Paths the console never answers: the APIs own them (their 404s stay JSON). */
const apiPrefixes = ['/v1/', '/management/v1', '/ofrep/', '/health', '/ready', '/metrics'];

const notBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vexil</title></head>
<body><main><h1>The Vexil console has not been built</h1>
<p>Run <code>make build</code> (or <code>make start</code>) and reload this page. The APIs work without it.</p></main></body></html>
`;

/** The console's icon (web/public/favicon.svg); /favicon.ico, which browsers ask for unprompted, answers it too. */
const iconPaths = new Set(['/favicon.svg', '/favicon.ico']);

/** Cached a day, as the API reference's files: the icon's name carries no hash. */
const iconCacheControl = 'public, max-age=86400';

/**
 * The web console: files built by Vite into web/dist, served by Vexil itself. Hashed assets
 * (/assets/...) are cached for a year; the icon for a day; index.html is revalidated every time,
 * and answers every other browser navigation to a path outside the APIs, so the console's own
 * routes load on refresh.
 */
export function consoleFiles(root = path.join(repoRoot(), 'web', 'dist')) {
  return (ctx: Koa.Context): boolean => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    if (apiPrefixes.some((prefix) => ctx.path === prefix.replace(/\/$/, '') || ctx.path.startsWith(prefix))) return false;
    if (iconPaths.has(ctx.path)) {
      const icon = fileBelow(root, '/favicon.svg');
      if (!icon) return false;
      setPageSecurityHeaders(ctx);
      sendFile(ctx, icon, iconCacheControl);
      return true;
    }
    const file = ctx.path === '/' || isPrecompressedCopy(ctx.path) ? undefined : fileBelow(root, ctx.path);
    if (file) {
      setPageSecurityHeaders(ctx);
      sendFile(ctx, file, ctx.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      return true;
    }
    // A missing asset is a 404, not the page: a stale bundle must not be answered with HTML;
    // nor is any request but a browser's navigation (a JSON client gets the API's 404).
    if (ctx.path.startsWith('/assets/') || !(ctx.path === '/' || isHtmlNavigation(ctx))) return false;
    setPageSecurityHeaders(ctx);
    const index = path.join(root, 'index.html');
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = notBuilt; // Koa sends no body to a HEAD
      return true;
    }
    sendFile(ctx, index, 'no-cache');
    return true;
  };
}

/**
 * A browser loading a page: it names text/html in Accept (every browser does for a navigation)
 * or says so in Sec-Fetch-Mode. A bare wildcard Accept (curl, SDKs) is not a navigation.
 */
function isHtmlNavigation(ctx: Koa.Context): boolean {
  return ctx.get('sec-fetch-mode') === 'navigate' || /(^|[,\s])text\/html\b/i.test(ctx.get('accept'));
}
