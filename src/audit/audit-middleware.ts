import type Koa from 'koa';
import type { Logger } from 'pino';
import { ForbiddenError, DomainError, UnauthorizedError } from '../http/errors.js';
import { statusOf } from '../http/error-middleware.js';
import { operationState } from '../http/operation.js';
import { isDatabaseUnavailable } from '../storage/db-errors.js';
import { auditActionByOperation, auditResult, denialActions } from './actions.js';
import { AuditTrail, type AuditWriter } from './audit-trail.js';
import { newId } from '../ids.js';

/**
 * Wraps every management request, matched or not: gives the handlers an AuditTrail and, unless a
 * service already committed the entry with its change, writes the entry once the outcome is known.
 */
export function managementAuditMiddleware(writer: AuditWriter, knex: import('knex').Knex, logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const state = operationState(ctx);
    const trail = new AuditTrail(writer, undefined, ctx.method, ctx.path, {
      ulid: newId('auditRequest'),
      action: () => auditActionByOperation[state.operation?.operationId ?? ''] ?? 'unknown',
    });
    state.auditTrail = trail;
    let failure: unknown;
    try {
      await next();
    } catch (error) {
      failure = error;
    }
    // An entry cannot be written while the database is unavailable: trying would only hold the 503.
    if (isDatabaseUnavailable(failure))
      logger.warn({ method: ctx.method, path: ctx.path }, 'audit entry not written: database unavailable');
    else if (!trail.written) {
      const status = failure instanceof DomainError ? statusOf(failure) : failure ? 500 : ctx.status;
      const action =
        failure instanceof UnauthorizedError
          ? failure.auditAction
          : failure instanceof ForbiddenError
            ? failure.requiredScope
              ? denialActions.scope
              : denialActions.grant
            : (trail.subject?.action ?? auditActionByOperation[state.operation?.operationId ?? ''] ?? 'unknown');
      try {
        // Shares one INSERT with the other requests finishing now; stored before the response.
        await writer.writeShared(knex, {
          ...trail.subject,
          action,
          principal: state.managementPrincipal,
          httpMethod: ctx.method,
          httpPath: ctx.path,
          result: auditResult(status, failure instanceof ForbiddenError && failure.requiredScope !== undefined),
          statusCode: status,
          request: trail.request,
        });
      } catch (error) {
        // The response must not fail because its audit entry could not be written; the log keeps it.
        logger.error({ err: error }, 'audit entry could not be written');
      }
    }
    if (failure) throw failure;
  };
}
