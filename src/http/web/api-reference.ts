import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Koa from 'koa';
import { repoRoot } from '../openapi/document.js';
import { referenceAssets } from './reference-assets.js';
import { setPageSecurityHeaders } from './security-headers.js';
import { fileBelow, sendFile } from './static-files.js';

const swaggerRoot = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The console's build copies the reference's files here, precompressed (web/vite.config.ts). */
const builtRoot = path.join(repoRoot(), 'web', 'dist', 'docs');
const assets = new Set<string>(referenceAssets);

/** The reference page: both documents in Swagger UI, every byte served by Vexil (no CDN, no inline script). */
const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Vexil API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="stylesheet" href="/docs/vexil-reference.css">
<link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
<main id="swagger-ui"><p>Loading the API reference…</p></main>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const init = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '/management/v1/api-docs', name: 'Management API' },
      { url: '/v1/api-docs', name: 'Evaluation API' },
    ],
    dom_id: '#swagger-ui',
    // Deep links put a link inside each operation's toggle button (axe: nested-interactive).
    deepLinking: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    // No badge from validator.swagger.io: it would send this server's address elsewhere (and CSP blocks it).
    validatorUrl: 'none',
    requestInterceptor: function (request) {
      request.headers.Accept = 'application/json';
      return request;
    },
  });
  // The servers list has no label of its own (axe: select-name); it is named once rendered.
  new MutationObserver(function () {
    var servers = document.getElementById('servers');
    if (servers && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
  }).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });
});
`;

/**
 * Swagger UI's colours that fail WCAG AA contrast (white on light method badges, green on white,
 * grey version badges), darkened; and on a phone the operations' tables scroll in their own box,
 * as the console's do, and the descriptions' tables (nothing in them takes focus, so they could
 * not be scrolled by keyboard) wrap their words, rather than the page scrolling sideways.
 * Nothing else of its look changes.
 */
const styles = `.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d5fa8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1f7a4d; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a4a00; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b42318; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f6b60; }
.swagger-ui .opblock.opblock-head .opblock-summary-method { background: #6b3aa0; }
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #1d5fa8; }
.swagger-ui .info .title small { background: #4b5563; }
.swagger-ui .info .title small.version-stamp { background: #3f6212; }
.swagger-ui .info .title small pre { color: #ffffff; }
.swagger-ui .info .url, .swagger-ui .info a, .swagger-ui .info .link { color: #1d4ed8; }
.swagger-ui .btn.authorize { color: #1f7a4d; border-color: #1f7a4d; }
.swagger-ui .btn.authorize svg { fill: #1f7a4d; }
@media (max-width: 48rem) {
  .swagger-ui table { display: block; overflow-x: auto; position: relative; }
  .swagger-ui .markdown table, .swagger-ui .renderedMarkdown table { display: table; table-layout: fixed; width: 100%; }
  .swagger-ui .markdown td, .swagger-ui .markdown th, .swagger-ui .renderedMarkdown td, .swagger-ui .renderedMarkdown th { overflow-wrap: anywhere; }
}
`;

/** Whether the client prefers an HTML page to JSON (a browser does; curl and SDKs do not). */
export function prefersHtml(ctx: Koa.Context): boolean {
  return ctx.accepts('json', 'html') === 'html';
}

export function sendReferencePage(ctx: Koa.Context): void {
  setPageSecurityHeaders(ctx);
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('Vary', 'Accept');
  ctx.status = 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page;
}

/** `/docs` and its assets; false when the path is not the reference's. */
export function serveApiReference(ctx: Koa.Context): boolean {
  if (ctx.path === '/docs' || ctx.path === '/docs/') {
    sendReferencePage(ctx);
    return true;
  }
  if (!ctx.path.startsWith('/docs/')) return false;
  const name = ctx.path.slice('/docs/'.length);
  setPageSecurityHeaders(ctx);
  if (name === 'vexil-reference.css') {
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = styles;
    return true;
  }
  if (name === 'init.js') {
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = init;
    return true;
  }
  const file = assets.has(name) ? (fileBelow(builtRoot, name) ?? fileBelow(swaggerRoot, name)) : undefined;
  if (!file) return false;
  sendFile(ctx, file, 'public, max-age=86400');
  return true;
}

export const swaggerUiAvailable = (): boolean => fs.existsSync(path.join(swaggerRoot, 'swagger-ui-bundle.js'));
