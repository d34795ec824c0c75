import Koa from 'koa';
import { managementAuditMiddleware } from './audit/audit-middleware.js';
import { publicAuditMiddleware } from './audit/public-audit.js';
import { authenticateManagement, authorizeManagement } from './auth/management-auth.js';
import { authenticatePublic } from './auth/public-auth.js';
import type { Composition } from './composition-root.js';
import { errorMiddleware } from './http/error-middleware.js';
import { operationState, type ManagementRequest, type PublicRequest } from './http/operation.js';
import { buildApiRouter, unmatchedRoute } from './http/openapi/router.js';
import type { OperationSpec } from './http/openapi/operations.js';
import { requestLog } from './http/request-log.js';

function requestParts(ctx: Koa.Context, operation: OperationSpec) {
  const state = operationState(ctx);
  return {
    params: state.params ?? {},
    query: state.query ?? {},
    body: state.body,
    headers: ctx.headers,
    operation,
    ctx,
  };
}

/** The Koa application: middleware order is the architecture's request path. */
export function createApp(c: Composition): Koa {
  const { config, knex, logger } = c.core;
  const app = new Koa();
  app.proxy = config.trustProxy;

  const publicApi = buildApiRouter({
    document: c.documents.public,
    handlers: c.publicHandlers,
    beforeValidation: [
      ...c.publicStages.beforeAuthentication,
      authenticatePublic(c.keyCache),
      ...c.publicStages.afterAuthentication,
    ],
    aroundHandler: [],
    buildRequest: (ctx, op): PublicRequest => ({
      ...requestParts(ctx, op),
      principal: operationState(ctx).publicPrincipal as PublicRequest['principal'],
    }),
    maxBodyBytes: config.maxBodyBytes,
  });

  const managementApi = buildApiRouter({
    document: c.documents.management,
    handlers: c.managementHandlers,
    beforeValidation: [
      authenticateManagement(c.authenticator),
      ...c.managementStages.afterAuthentication,
      authorizeManagement,
    ],
    aroundHandler: c.managementStages.aroundHandler,
    buildRequest: (ctx, op): ManagementRequest => {
      const state = operationState(ctx);
      const trail = state.auditTrail;
      if (!trail) throw new Error('management request without an audit trail');
      trail.principal = state.managementPrincipal;
      return {
        ...requestParts(ctx, op),
        principal: state.managementPrincipal as ManagementRequest['principal'],
        audit: trail,
      };
    },
    maxBodyBytes: config.maxBodyBytes,
  });

  const audit = managementAuditMiddleware(c.auditWriter, knex, logger);
  const publicAudit = publicAuditMiddleware(c.publicAudit);
  app.use(requestLog(logger));
  app.use(errorMiddleware(logger));
  app.use(async (ctx, next) => {
    // Every management request, routed or not, passes through the audit trail.
    if (ctx.path === '/management/v1' || ctx.path.startsWith('/management/v1/')) return audit(ctx, next);
    // Every public API request is recorded too, into a buffer written in batches.
    if (ctx.path.startsWith('/v1/') || ctx.path.startsWith('/ofrep/v1/')) return publicAudit(ctx, next);
    return next();
  });
  app.use(publicApi.router.routes());
  app.use(managementApi.router.routes());
  app.use(unmatchedRoute([publicApi.router, managementApi.router]));
  return app;
}
