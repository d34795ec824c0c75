import type Koa from 'koa';
import { readApiKey } from '../auth/public-auth.js';
import type { PublicPrincipal } from '../auth/principal.js';
import { DomainError, UnauthorizedError } from '../http/errors.js';
import { statusOf } from '../http/error-middleware.js';
import { operationState } from '../http/operation.js';
import { auditResult, denialActions, publicAuditActionByOperation } from './actions.js';
import type { PublicAuditBuffer } from './public-audit-buffer.js';

/** What a public handler may say about its subject (defaults come from the path and the key). */
export interface PublicAuditSubject {
  subjectType?: string | null;
  subjectUlid?: string | null;
  subjectLabel?: string | null;
}

const subjectKey = Symbol('publicAuditSubject');

/** Lets a public handler name the subject of its audit entry (for example a flag's ulid). */
export function describePublicAudit(ctx: { state: object }, subject: PublicAuditSubject): void {
  const state = ctx.state as Record<symbol, PublicAuditSubject | undefined>;
  const named = state[subjectKey];
  state[subjectKey] = named === undefined ? subject : { ...named, ...subject };
}

/** What one public request's audit entry is made of, however it was answered. */
export interface PublicRequestOutcome {
  principal: PublicPrincipal | undefined;
  operationId: string | undefined;
  status: number;
  /** A 401 for a request without a resolved key: which denial it was depends on the key sent. */
  keyRefused: boolean;
  keySent: boolean;
  method: string;
  path: string;
  /** The flag key of the path, if the operation has one. */
  flagKey: string | undefined;
  /** What the handler said about the subject (describePublicAudit). */
  described: PublicAuditSubject | undefined;
}

/** Buffers a public request's audit entry (the Koa middleware below, and the fast public reads). */
export function recordPublicRequest(buffer: PublicAuditBuffer, o: PublicRequestOutcome): void {
  const { principal, operationId, described } = o;
  const action = o.keyRefused
    ? o.keySent
      ? denialActions.invalidKey
      : denialActions.missingKey
    : ((operationId && publicAuditActionByOperation[operationId]) ?? 'unknown');
  const subject: Required<PublicAuditSubject> = o.flagKey
    ? { subjectType: 'flag', subjectUlid: null, subjectLabel: o.flagKey.slice(0, 400) }
    : principal && operationId !== 'getPublicApiDocs'
      ? { subjectType: 'environment', subjectUlid: principal.environmentUlid, subjectLabel: principal.environmentKey }
      : { subjectType: null, subjectUlid: null, subjectLabel: null };
  buffer.record(
    {
      actor_type: principal ? 'sdk_key' : 'anonymous',
      actor_ulid: principal?.keyUlid ?? null,
      environment_ulid: principal?.environmentUlid ?? null,
      environment_key: principal?.environmentKey ?? null,
      project_ulid: principal?.projectUlid ?? null,
      http_method: o.method.slice(0, 8),
      http_path: o.path.slice(0, 2000),
      action,
      subject_type: described?.subjectType !== undefined ? described.subjectType : subject.subjectType,
      subject_ulid: described?.subjectUlid !== undefined ? described.subjectUlid : subject.subjectUlid,
      subject_label: (described?.subjectLabel !== undefined ? described.subjectLabel : subject.subjectLabel)?.slice(0, 400) ?? null,
      result: auditResult(o.status, false),
      status_code: o.status,
    },
    described?.subjectUlid !== undefined,
  );
}

/** The subject a handler named through describePublicAudit on this request state, if any. */
export function describedSubject(state: object): PublicAuditSubject | undefined {
  return (state as Record<symbol, PublicAuditSubject | undefined>)[subjectKey];
}

/**
 * Wraps every public API request (`/v1/...`, `/ofrep/v1/...`), routed or not, and records its
 * audit entry in the buffer once the outcome is known: refusals (401, 429) included.
 */
export function publicAuditMiddleware(buffer: PublicAuditBuffer): Koa.Middleware {
  return async (ctx, next) => {
    let failure: unknown;
    try {
      await next();
    } catch (error) {
      failure = error;
    }
    const state = operationState(ctx);
    const principal = state.publicPrincipal;
    const params = ctx.params as Record<string, string> | undefined;
    const keyRefused = failure instanceof UnauthorizedError && !principal;
    recordPublicRequest(buffer, {
      principal,
      operationId: state.operation?.operationId,
      status: failure instanceof DomainError ? statusOf(failure) : failure ? 500 : ctx.status,
      keyRefused,
      keySent: keyRefused && readApiKey(ctx) !== undefined,
      method: ctx.method,
      path: ctx.path,
      flagKey: params?.flagKey ?? params?.key,
      described: describedSubject(ctx.state as object),
    });
    if (failure) throw failure;
  };
}
