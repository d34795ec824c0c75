import type Koa from 'koa';
import type { ManagementPrincipal, PublicPrincipal } from '../auth/principal.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { OperationSpec } from './openapi/operations.js';

/** What a handler receives: the request, already routed, authenticated and validated. */
export interface OperationRequest<Params = Record<string, string>, Query = Record<string, unknown>, Body = unknown> {
  params: Params;
  query: Query;
  body: Body;
  headers: Record<string, string | string[] | undefined>;
  operation: OperationSpec;
  /** Escape hatch for handlers that stream (SSE) or need connection facts. */
  ctx: Koa.Context;
}

export interface ManagementRequest<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> extends OperationRequest<P, Q, B> {
  principal: ManagementPrincipal;
  /** Services that change data commit the audit entry inside their transaction. */
  audit: AuditTrail;
}

export interface PublicRequest<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> extends OperationRequest<P, Q, B> {
  principal: PublicPrincipal;
}

/**
 * What a public stage reads of a request's context: Koa's, or the one the public reads answered
 * in front of Koa make (fast-public-reads.ts), which has only these.
 */
export interface PublicStageContext {
  /** The request state (operation, principal, the audit subject a handler names). */
  state: object;
  /** The path parameters (set by the router on Koa's). */
  params?: Record<string, string>;
  /** The client address (the per-IP rate limit). */
  ip: string;
  /** The request body's declared length, if any. */
  request: { length?: number };
  set(name: string, value: string): void;
  /** Appends to the response's Vary header. */
  vary(fields: string[]): void;
}

/** A public request as the reads answered in front of Koa make it (fast-public-reads.ts): its context is a PublicStageContext. */
export type FastReadRequest<P = Record<string, string>> = Omit<PublicRequest<P>, 'ctx'> & { ctx: PublicStageContext };

export interface OperationResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The handler wrote the response itself (server-sent events). */
  streamed?: boolean;
}

/**
 * A handler as the router sees it. Handlers of different operations take differently typed
 * requests (the router passes each the one built for its operation); their maps are typed per
 * operation in handler-map.ts.
 */
export type OperationHandler = (request: never) => Promise<OperationResult>;

export type HandlerMap = Partial<Record<string, OperationHandler>>;

/** State the pipeline stages share through ctx.state. */
export interface OperationState {
  operation?: OperationSpec;
  managementPrincipal?: ManagementPrincipal;
  publicPrincipal?: PublicPrincipal;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The management request's audit trail (audit-middleware.ts). */
  auditTrail?: AuditTrail;
}

export function operationState(ctx: { state: object }): OperationState {
  return ctx.state as OperationState;
}
