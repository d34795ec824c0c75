import Koa from 'koa';
import { managementAuditMiddleware } from './audit/audit-middleware.js';
import { publicAuditMiddleware } from './audit/public-audit.js';
import { authenticateManagement, authorizeManagement } from './auth/management-auth.js';
import { authenticatePublic } from './auth/public-auth.js';
import { authenticateSession } from './features/console-sessions/session-stage.js';
import type { Composition } from './composition-root.js';
import { errorMiddleware } from './http/error-middleware.js';
import { withFastPublicReads, type FastReadDeps } from './http/fast-public-reads.js';
import { operationState, type ManagementRequest, type PublicRequest } from './http/operation.js';
import { buildApiRouter, unmatchedRoute } from './http/openapi/router.js';
import type { OperationSpec } from './http/openapi/operations.js';
import { requestLog } from './http/request-log.js';
import { isPublicApiPath } from './http/request-log-scope.js';
import { applyCors } from './http/operations/cors.js';
import { healthEndpoints } from './http/operations/health.js';
import { metricsEndpoint } from './observability/metrics-endpoint.js';
import { requestMetrics } from './observability/request-metrics.js';
import { serveApiReference } from './http/web/api-reference.js';
import { consoleFiles } from './http/web/console-files.js';
import { noSniff } from './http/web/security-headers.js';

/**
 * The handler's request, built as one object literal (no spreads: this runs on every public
 * request); management requests extend it with their principal and audit trail.
 */
function publicRequest(ctx: Koa.Context, operation: OperationSpec): PublicRequest {
  const state = operationState(ctx);
  return {
    params: state.params ?? {},
    query: state.query ?? {},
    body: state.body,
    headers: ctx.req.headers,
    operation,
    ctx,
    principal: state.publicPrincipal as PublicRequest['principal'],
  };
}

/** The Koa application: middleware order is the architecture's request path. */
export function createApp(c: Composition): Koa {
  const { config, knex, logger } = c.core;
  const app = new Koa();
  app.proxy = config.trustProxy;
  // With trace export on, each handler runs in its own span (innermost stage); off, no stage at all.
  const traceHandler = c.tracing ? [c.tracing.handlerStage] : [];

  const publicApi = buildApiRouter({
    document: c.documents.public,
    handlers: c.publicHandlers,
    beforeValidation: [...c.publicStages.beforeAuthentication, authenticatePublic(c.keyCache), ...c.publicStages.afterAuthentication],
    aroundHandler: traceHandler,
    buildRequest: publicRequest,
    maxBodyBytes: config.maxBodyBytes,
  });

  const managementApi = buildApiRouter({
    document: c.documents.management,
    handlers: c.managementHandlers,
    beforeValidation: [
      authenticateManagement(c.authenticator, (ctx) => authenticateSession(ctx, c.consoleSessions)),
      ...c.managementStages.afterAuthentication,
      authorizeManagement,
    ],
    aroundHandler: [...c.managementStages.aroundHandler, ...traceHandler],
    buildRequest: (ctx, op): ManagementRequest => {
      const state = operationState(ctx);
      const trail = state.auditTrail;
      if (!trail) throw new Error('management request without an audit trail');
      trail.principal = state.managementPrincipal;
      return {
        ...publicRequest(ctx, op),
        principal: state.managementPrincipal as ManagementRequest['principal'],
        audit: trail,
      };
    },
    maxBodyBytes: config.maxBodyBytes,
  });

  const audit = managementAuditMiddleware(c.auditWriter, knex, logger);
  const publicAudit = publicAuditMiddleware(c.publicAudit);
  const publicRoutes = publicApi.router.routes() as unknown as Koa.Middleware;
  const managementRoutes = managementApi.router.routes() as unknown as Koa.Middleware;
  const unmatched = unmatchedRoute([publicApi.router, managementApi.router]);
  // The routers and the 404/405 answer, called directly rather than as three more middleware.
  const toUnmatched = (ctx: Koa.Context) => () => unmatched(ctx, noNext);
  const toManagement = (ctx: Koa.Context) => () => managementRoutes(ctx, toUnmatched(ctx));
  const routes = (ctx: Koa.Context) => () => publicRoutes(ctx, toManagement(ctx));

  const serveConsole = consoleFiles();
  const health = healthEndpoints(knex, c.readiness);
  const metrics = metricsEndpoint(c.metrics, config.metrics);
  app.use(noSniff);
  app.use(requestLog(logger, config.requestLog));
  if (c.tracing) app.use(c.tracing.middleware);
  app.use(requestMetrics(c.metrics.requestDurations));
  app.use(errorMiddleware(logger));
  app.use((ctx) => {
    const path = ctx.path;
    // Every management request, routed or not, passes through the audit trail.
    if (path === '/management/v1' || path.startsWith('/management/v1/')) return audit(ctx, routes(ctx));
    // Every public API request is recorded too, into a buffer written in batches.
    if (isPublicApiPath(path)) {
      if (applyCors(ctx, config.corsOrigins)) return;
      return publicAudit(ctx, routes(ctx));
    }
    if (path === '/health' || path === '/ready') return health(ctx).then((answered) => (answered ? undefined : routes(ctx)()));
    if (path === '/metrics') return metrics(ctx).then((answered) => (answered ? undefined : routes(ctx)()));
    // The API reference and the web console, checked after the APIs: nothing on their hot path.
    if (serveApiReference(ctx) || serveConsole(ctx)) return;
    return routes(ctx)();
  });
  // Every server of this app (src/main.ts, the test harness) answers the public reads in front of Koa.
  const koaCallback = app.callback.bind(app);
  const fastReads: FastReadDeps = {
    logger,
    settings: config,
    tracing: c.tracing !== undefined,
    publicDocument: c.documents.public.dereferenced,
    handlers: c.fastReads,
    stages: c.publicStages,
    keys: c.keyCache,
    audit: c.publicAudit,
    durations: c.metrics.requestDurations,
  };
  app.callback = () => withFastPublicReads(fastReads, koaCallback());
  return app;
}

const noNext = () => Promise.resolve();
