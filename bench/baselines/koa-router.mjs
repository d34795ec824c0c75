/**
 * Baseline: Koa + @koa/router with one route (the scenario's method and path pattern, path
 * parameters included) answering with the scenario's exact response (status, headers, body
 * bytes). Usage: node koa-router.mjs SPEC.json PORT
 */
import fs from 'node:fs';
import Koa from 'koa';
import Router from '@koa/router';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const port = Number(process.argv[3]);
const body = Buffer.from(spec.body, 'base64');

async function readBody(req) {
  for await (const _chunk of req); // consume the request body (POST scenarios)
}

const app = new Koa();
const router = new Router();
router.get('/__ready', (ctx) => {
  ctx.body = 'ok';
});
router[spec.method.toLowerCase()](spec.path, async (ctx) => {
  if (spec.method !== 'GET' && spec.method !== 'HEAD') await readBody(ctx.req);
  for (const [name, value] of Object.entries(spec.headers)) ctx.set(name, value);
  ctx.status = spec.status;
  if (spec.status !== 304 && spec.status !== 204) ctx.body = body;
});
app.use(router.routes());
const server = app.listen(port, '127.0.0.1');
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
