import type Koa from 'koa';
import { ForbiddenError } from '../../http/errors.js';
import { operationState } from '../../http/operation.js';
import type { ConsoleSessionService } from './service.js';

export const sessionCookie = 'vexil_session';
const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a session signed in with a temporary password may do: read itself, sign out, choose a password. */
const temporaryPasswordOperations = new Set(['getSession', 'deleteSession', 'changeOwnPassword']);

/** What the session stage leaves for the session handlers. */
export interface ConsoleSessionState {
  consoleSession?: { ulid: string; secret: string };
}

/** The request comes from the server's own origin, or says nothing of its origin (same-origin GETs). */
export function sameOrigin(ctx: Koa.Context, publicOrigin: string | undefined): boolean {
  const origin = ctx.get('origin');
  return origin === '' || origin === `${ctx.protocol}://${ctx.host}` || (publicOrigin !== undefined && origin === publicOrigin);
}

/**
 * Authenticates a management request by its console session cookie when it has no
 * Authorization header, and applies the CSRF defence to state-changing requests: the session's
 * token in X-CSRF-Token, and no foreign Origin. A session signed in with a temporary password
 * reaches only the operations that let the person choose their own. Returns false when there is
 * no cookie to judge.
 */
export async function authenticateSession(ctx: Koa.Context, sessions: ConsoleSessionService): Promise<boolean> {
  const secret = ctx.cookies.get(sessionCookie);
  if (!secret || ctx.get('authorization') !== '') return false;
  const { principal, session } = await sessions.authenticate(secret);
  const state = operationState(ctx) as ReturnType<typeof operationState> & ConsoleSessionState;
  if (unsafeMethods.has(ctx.method)) {
    if (!sameOrigin(ctx, sessions.publicOrigin)) throw new ForbiddenError('Cross-origin requests are refused.').withCode('csrf_failed');
    if (!sessions.csrfMatches(secret, ctx.get('x-csrf-token') || undefined)) {
      throw new ForbiddenError('Missing or wrong X-CSRF-Token header for this session.').withCode('csrf_failed');
    }
  }
  state.managementPrincipal = principal;
  state.consoleSession = { ulid: session.ulid, secret };
  if (session.password_change_required && !temporaryPasswordOperations.has(state.operation?.operationId ?? '')) {
    throw new ForbiddenError('Choose your own password first (PUT /session/password): a temporary password only allows that.').withCode(
      'password_change_required',
    );
  }
  return true;
}

/**
 * Sets or clears the session cookie: Secure when the request came over https, or when the
 * console's public address is https (a proxy in front terminates TLS).
 */
export function setSessionCookie(ctx: Koa.Context, sessions: ConsoleSessionService, secret: string | null, maxAgeMs = 0): void {
  const secure = ctx.secure || sessions.publicOrigin?.startsWith('https:') === true;
  // The cookie library refuses a Secure cookie on a plain connection unless told it is secure.
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(sessionCookie, secret ?? '', {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure,
    overwrite: true,
    ...(secret === null ? { expires: new Date(0) } : { maxAge: maxAgeMs }),
  });
}
