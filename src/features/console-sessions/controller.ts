import type { components } from '../../../generated/management.js';
import { ForbiddenError, UnauthorizedError } from '../../http/errors.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import { operationState } from '../../http/operation.js';
import type { ConsoleSessionService } from './service.js';
import { sameOrigin, setSessionCookie, type ConsoleSessionState } from './session-stage.js';

type Schemas = components['schemas'];

/** The console session of the request (set by the session stage), or a 401. */
function currentSession(request: Pick<ManagementRequest, 'ctx'>): { ulid: string; secret: string } {
  const session = (operationState(request.ctx) as ConsoleSessionState).consoleSession;
  if (!session) throw new UnauthorizedError('No console session: sign in with POST /session.', 'auth.missing_token');
  return session;
}

/** Handlers of the console session operations, keyed by operationId. */
export function consoleSessionController(service: ConsoleSessionService) {
  return {
    async createSession(request: ManagementRequest<unknown, unknown, Schemas['SignIn']>) {
      // Login CSRF: a foreign page must not sign a browser in to an account of its choosing.
      if (!sameOrigin(request.ctx, service.publicOrigin))
        throw new ForbiddenError('Cross-origin requests are refused.').withCode('csrf_failed');
      // Failed and rate-limited attempts are audited under the email they tried, so they can be found per account.
      request.audit.describe({ action: 'auth.sign_in', subjectType: 'account', subjectLabel: request.body.email.toLowerCase() });
      const { secret, session, principal } = await service.signIn(request.body.email, request.body.password, request.ctx.ip);
      request.audit.principal = principal;
      request.audit.describe({
        action: 'auth.sign_in',
        subjectType: 'account',
        subjectUlid: principal.account.ulid,
        subjectLabel: principal.account.email,
      });
      setSessionCookie(request.ctx, service, secret, service.absoluteMs);
      return { body: { status: 'success', data: session } };
    },

    async getSession(request: ManagementRequest) {
      const { secret } = currentSession(request);
      const { session } = await service.authenticate(secret);
      return { body: { status: 'success', data: session } };
    },

    async deleteSession(request: ManagementRequest) {
      const { ulid } = currentSession(request);
      await service.signOut(ulid);
      setSessionCookie(request.ctx, service, null);
      return { body: { status: 'success' } };
    },

    async changeOwnPassword(request: ManagementRequest<unknown, unknown, Schemas['PasswordChange']>) {
      currentSession(request);
      await service.changeOwnPassword(request.principal, request.body.current_password, request.body.new_password, request.audit);
      setSessionCookie(request.ctx, service, null);
      return { body: { status: 'success' } };
    },

    async setAccountPassword(request: ManagementRequest<{ accountUlid: string }, unknown, Schemas['PasswordSet']>) {
      await service.setPassword(request.principal, request.params.accountUlid, request.body.password, request.audit);
      return { body: { status: 'success' } };
    },
  } satisfies Partial<ManagementHandlers>;
}
