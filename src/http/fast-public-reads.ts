import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { PublicAuditBuffer } from '../audit/public-audit-buffer.js';
import { describedSubject, recordPublicRequest } from '../audit/public-audit.js';
import { allowedKinds, apiKeyHeaders } from '../auth/public-auth.js';
import type { PublicPrincipal } from '../auth/principal.js';
import type { Config } from '../config.js';
import { declaredLength, readJsonRequest } from './body.js';
import { errorAnswer } from './error-middleware.js';
import { apiOf } from '../observability/request-metrics.js';
import type { FastReadHandlers } from './fast-read-handlers.js';
import { jsonContentType } from './json-response.js';
import type { OpenApiDocument } from './openapi/document.js';
import { requestIdFor } from './operations/request-id.js';
import { logsRequestTo } from './request-log-scope.js';
import type { FastReadRequest, OperationResult, PublicStageContext } from './operation.js';
import { readOperations, type OperationSpec } from './openapi/operations.js';
import { compileValidators, type OperationValidators } from './openapi/validators.js';
import { stagesFor, type PublicStage } from './openapi/router.js';
import { runStages } from './openapi/stages.js';

// What this buys: the three public reads SDKs and servers call most skip Koa's per-request
// context, router matching and middleware chain (Koa alone costs about 1.5x node:http's CPU per
// request in bench/results/latest.md, more than the serving path's whole budget allows).

/** Koa's request listener (typed for HTTP/2 too; Vexil serves HTTP/1.1 through node:http). */
type Callback = ReturnType<Koa['callback']>;
type Series = { observe(seconds: number): void };

/** What the public reads answered in front of Koa are built from: nothing else of the composition. */
export interface FastReadDeps {
  logger: Logger;
  settings: Pick<Config, 'trustProxy' | 'requestLog' | 'fastPublicReads' | 'maxBodyBytes'>;
  /** Trace export is on: every request goes to Koa, whose middleware makes the spans. */
  tracing: boolean;
  /** The public document, dereferenced: the operations' parameters and their checks. */
  publicDocument: OpenApiDocument;
  handlers: FastReadHandlers | undefined;
  stages: { beforeAuthentication: readonly PublicStage[]; afterAuthentication: readonly PublicStage[] };
  keys: { resolveOn(socket: IncomingMessage['socket'], secret: string | undefined): PublicPrincipal | undefined };
  audit: PublicAuditBuffer;
  durations: { series(...labels: string[]): Series };
}

interface FastRoute {
  op: OperationSpec;
  validators: OperationValidators;
  handler: (request: FastReadRequest, flagKey: string | undefined) => Promise<OperationResult>;
  kinds: readonly string[];
  /** The public stages before authentication (the per-IP rate limit, a synchronous in-memory count). */
  before: PublicStage[];
  /** The public stages after authentication, specialised for the operation (error shaping). */
  after: PublicStage[];
  /** Duration series by status class (index: status / 100), made on first use. */
  durations: Array<Series | undefined>;
}

const noQuery: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * GET /v1/flags, GET /v1/flags/{flagKey}, GET /v1/payload and POST /ofrep/v1/evaluate/flags answered
 * in front of Koa, through the same steps as the Koa path (src/app.ts): request id (the rule of operations/request-id.ts),
 * nosniff, request log line (VEXIL_REQUEST_LOG=all), the public stages before authentication
 * (the per-IP rate limit, counted in memory) and after it (given a PublicStageContext), the
 * operation's Ajv checks (the body read and checked as the router does), the same handler, the error answer of error-middleware.ts, the public
 * audit entry and the request-duration metric. Every request it cannot answer the same way goes
 * to Koa untouched: other methods or paths, a query string, an escaped or literal path segment, a
 * browser request (Origin: CORS), a missing, unknown or wrong-kind key (the refusal and its
 * audit), and everything while trace export is on.
 */
export function withFastPublicReads(deps: FastReadDeps, koa: Callback): Callback {
  const { logger, settings, handlers } = deps;
  if (deps.tracing || !settings.fastPublicReads || !handlers) return koa;

  const operations = new Map(readOperations(deps.publicDocument).map((op) => [op.operationId, op]));
  const route = (operationId: keyof FastReadHandlers, handler: FastRoute['handler'], method = 'get'): FastRoute | undefined => {
    const op = operations.get(operationId);
    if (op?.method !== method) return undefined;
    const before = stagesFor(deps.stages.beforeAuthentication, op);
    const after = stagesFor(deps.stages.afterAuthentication, op);
    return { op, validators: compileValidators(op), handler, kinds: allowedKinds(operationId), before, after, durations: [] };
  };
  const list = route('listEvaluatedFlags', (request) => handlers.listEvaluatedFlags(request));
  const single = route('getEvaluatedFlag', (request, flagKey = '') => handlers.getEvaluatedFlag({ ...request, params: { flagKey } }));
  const payload = route('getPayload', (request) => handlers.getPayload(request));
  // OFREP bulk, what every OpenFeature web and mobile provider calls (in a browser, with an
  // Origin header: through Koa, for CORS).
  const ofrepBulk = route('ofrepEvaluateFlags', (request) => handlers.ofrepEvaluateFlags(request), 'post');
  const histogram = deps.durations;
  // Public reads get a line only when VEXIL_REQUEST_LOG=all (the audit trail records each).
  const logsLines = logger.isLevelEnabled('info') && logsRequestTo(settings.requestLog, '/v1/flags');
  if (!list && !single && !payload && !ofrepBulk) return koa;

  const serve = async (
    r: FastRoute,
    req: IncomingMessage,
    res: ServerResponse,
    principal: PublicPrincipal,
    path: string,
    flagKey?: string,
  ): Promise<void> => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const requestId = requestIdFor(req.headers['x-request-id']);
    const params: Record<string, string> = flagKey === undefined ? {} : { flagKey };
    const state: { operation: OperationSpec; publicPrincipal?: PublicPrincipal; body?: unknown } = { operation: r.op };
    // Headers the stages set (the rate-limit figures), kept on success and refusal alike, as Koa does.
    const stageHeaders: Record<string, string> = {};
    // What these stages and handlers read of Koa's context: the request state (the operation, the
    // principal, the audit subject a handler names), the path parameters, the client address (the
    // per-IP rate limit), the body's declared length and header writes.
    const ctx: PublicStageContext = {
      state,
      params,
      ip: clientIp(req, settings.trustProxy),
      request: { length: declaredLength(req) },
      set: (name: string, value: string) => {
        stageHeaders[name] = value;
      },
      vary: (fields: string[]) => {
        const held = stageHeaders.Vary;
        stageHeaders.Vary = held === undefined ? fields.join(', ') : `${held}, ${fields.join(', ')}`;
      },
    };
    let status: number;
    let headers: Record<string, string> | undefined;
    let body: unknown;
    let result: OperationResult = {};
    const handle = async (): Promise<void> => {
      r.validators.path(params);
      r.validators.headers(req.headers as Record<string, unknown>);
      // As the router reads a body: after the stages, checked against the operation's schema.
      let requestBody: unknown;
      if (r.op.bodySchema) {
        requestBody = await readJsonRequest(req, settings.maxBodyBytes);
        if (requestBody !== undefined || r.op.bodyRequired) r.validators.body(requestBody);
        state.body = requestBody;
      }
      result = await r.handler(
        {
          params,
          query: r.validators.checksQuery ? r.validators.query({}) : noQuery,
          body: requestBody,
          headers: req.headers,
          operation: r.op,
          ctx,
          principal,
        },
        flagKey,
      );
    };
    try {
      // The principal is known already, but as on the Koa path the stages before authentication
      // (the rate limit) run without it: a refused request is audited without its key.
      await runStages(r.before, 0, ctx, async () => {
        state.publicPrincipal = principal;
        await runStages(r.after, 0, ctx, handle);
      });
      status = result.status ?? 200;
      headers = result.headers;
      body = result.body;
    } catch (caught) {
      ({ status, headers, body } = errorAnswer(logger, caught, { path, requestId, method }));
    }
    respond(res, status, requestId, stageHeaders, headers, body);

    recordPublicRequest(deps.audit, {
      principal: state.publicPrincipal,
      operationId: r.op.operationId,
      status,
      keyRefused: false,
      keySent: true,
      method,
      path,
      flagKey,
      described: describedSubject(state),
    });
    const index = (status / 100) | 0;
    const series = (r.durations[index] ??= histogram.series(apiOf(path), r.op.operationId, `${index}xx`));
    const ms = performance.now() - started;
    series.observe(ms / 1000);
    if (logsLines) logger.info({ requestId, method, path, status, ms: Math.round(ms * 10) / 10 }, 'request');
  };

  return (request, response) => {
    const req = request as IncomingMessage;
    const res = response as ServerResponse;
    const url = req.url ?? '';
    if (req.headers.origin !== undefined || url.includes('?')) return koa(request, response);
    let r: FastRoute | undefined;
    let flagKey: string | undefined;
    if (req.method === 'POST') {
      if (url === '/ofrep/v1/evaluate/flags') r = ofrepBulk;
    } else if (req.method !== 'GET') r = undefined;
    else if (url === '/v1/flags') r = list;
    else if (url === '/v1/payload') r = payload;
    else if (url.startsWith('/v1/flags/')) {
      flagKey = url.slice('/v1/flags/'.length);
      // Escaped keys are decoded by the router; `evaluate` is also a literal path of its own.
      if (flagKey !== '' && flagKey !== 'evaluate' && !flagKey.includes('/') && !flagKey.includes('%')) r = single;
    }
    if (!r) return koa(request, response);
    const principal = deps.keys.resolveOn(req.socket, apiKeyOf(req));
    if (!principal || !r.kinds.includes(principal.kind)) return koa(request, response);
    return serve(r, req, res, principal, url, flagKey);
  };
}

/** The client address as Koa's `ctx.ip` reads it: the first X-Forwarded-For entry only behind a trusted proxy. */
function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = typeof forwarded === 'string' ? forwarded.split(',', 1)[0]?.trim() : undefined;
    if (first) return first;
  }
  return req.socket.remoteAddress ?? '';
}

function apiKeyOf(req: IncomingMessage): string | undefined {
  for (const header of apiKeyHeaders) {
    const value = req.headers[header];
    if (typeof value === 'string' && value !== '') return value.trim();
  }
  return undefined;
}

/**
 * Writes the answer as Koa would: JSON for objects, the byte length, no body (and no type) on
 * 304. One writeHead with every header: setHeader per header builds and checks a header map
 * that writeHead then walks again.
 */
function respond(
  res: ServerResponse,
  status: number,
  requestId: string,
  stageHeaders: Record<string, string>,
  headers: Record<string, string> | undefined,
  body: unknown,
): void {
  const bodiless = status === 304 || status === 204 || body === undefined || body === null;
  const out: Record<string, string | number> = { 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': requestId };
  // The stages' headers first, the handler's after them (a handler's header wins, as on Koa).
  const typedByStage = copyHeaders(stageHeaders, out, bodiless);
  const typed = copyHeaders(headers, out, bodiless) || typedByStage;
  if (bodiless) {
    res.writeHead(status, out);
    res.end();
    return;
  }
  let data: string | Buffer;
  if (typeof body === 'string' || Buffer.isBuffer(body)) data = body;
  else {
    data = JSON.stringify(body);
    if (!typed) out['Content-Type'] = jsonContentType;
  }
  out['Content-Length'] = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  res.writeHead(status, out);
  res.end(data);
}

/** Copies `from` into `to` (no Content-Type when `bodiless`); whether it held a Content-Type. */
function copyHeaders(from: Record<string, string> | undefined, to: Record<string, string | number>, bodiless: boolean): boolean {
  let typed = false;
  if (from === undefined) return typed;
  for (const name in from) {
    const isType = name.length === 12 && name.toLowerCase() === 'content-type';
    if (isType && bodiless) continue;
    typed ||= isType;
    to[name] = from[name] as string;
  }
  return typed;
}
