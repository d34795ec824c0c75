import type Koa from 'koa';
import type { Clock } from '../clock.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import { operationState } from '../http/operation.js';
import type { CredentialStore } from './credential-store.js';
import { hasScope, ResourceAccess, type ManagementPrincipal, type Scope } from './principal.js';
import { digestSecret, digestsEqual, looksLikeSecret } from './secrets.js';

/** Reads `Authorization: Bearer ...` and resolves the principal, or throws 401. */
export class ManagementAuthenticator {
  constructor(
    private readonly store: CredentialStore,
    private readonly clock: Clock,
  ) {}

  async authenticate(authorization: string | undefined): Promise<ManagementPrincipal> {
    if (authorization === undefined || authorization.trim() === '') {
      throw new UnauthorizedError('Missing bearer token.', 'auth.missing_token');
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
    const secret = match?.[1];
    if (!secret || !looksLikeSecret(secret, ['pat_', 'mgt_'])) {
      throw new UnauthorizedError('Invalid bearer token.', 'auth.invalid_token');
    }
    const digest = digestSecret(secret);
    const record = await this.store.findManagementCredential(digest);
    if (!record || !digestsEqual(record.digest, digest) || record.revokedAt !== null) {
      throw new UnauthorizedError('Invalid bearer token.', 'auth.invalid_token');
    }
    if (record.expiresAt !== null && record.expiresAt <= this.clock.now().toISOString()) {
      throw new UnauthorizedError('Bearer token has expired.', 'auth.expired_token');
    }
    const grants = record.grants && {
      projects: new Set(record.grants.projects),
      environments: groupEnvironments(record.grants.environments),
    };
    return {
      type: record.type,
      tokenUlid: record.ulid,
      tokenName: record.name,
      account: record.account,
      scopes: record.scopes === null ? null : new Set(record.scopes),
      tier: record.tier,
      access: new ResourceAccess(record.accountProjects && new Set(record.accountProjects), grants),
    };
  }
}

function groupEnvironments(list: Array<{ projectUlid: string; environmentUlid: string }>) {
  const map = new Map<string, Set<string>>();
  for (const { projectUlid, environmentUlid } of list) {
    let set = map.get(projectUlid);
    if (!set) map.set(projectUlid, (set = new Set()));
    set.add(environmentUlid);
  }
  return map;
}

/** The scope an operation requires (x-required-scope); `personal` = an owner's or admin's personal access token. */
export function authorizeOperation(principal: ManagementPrincipal, requiredScope: string | undefined): void {
  if (requiredScope === undefined || requiredScope === 'none') return;
  if (requiredScope === 'personal') {
    if (principal.type !== 'personal_access_token') {
      throw new ForbiddenError('This operation needs a personal access token.', 'personal');
    }
    if (principal.account.role === 'member') {
      throw new ForbiddenError('This operation needs an owner or admin account.', 'personal');
    }
    return;
  }
  const scope = requiredScope as Scope;
  // Personal access tokens carry no scopes; members may do everything but administration.
  const allowed =
    principal.type === 'personal_access_token'
      ? principal.account.role !== 'member' || scope !== 'config:write'
      : hasScope(principal, scope);
  if (!allowed) throw new ForbiddenError(`This token lacks the ${scope} scope.`, scope);
}

/** Pipeline stage: authenticate. */
export function authenticateManagement(authenticator: ManagementAuthenticator) {
  return async (ctx: Koa.Context, next: () => Promise<void>): Promise<void> => {
    const state = operationState(ctx);
    if (state.operation?.secured !== false) {
      state.managementPrincipal = await authenticator.authenticate(ctx.get('authorization') || undefined);
    }
    await next();
  };
}

/** Pipeline stage: scope check (after rate limiting, so refused requests still count). */
export async function authorizeManagement(ctx: Koa.Context, next: () => Promise<void>): Promise<void> {
  const state = operationState(ctx);
  if (state.managementPrincipal) authorizeOperation(state.managementPrincipal, state.operation?.requiredScope);
  await next();
}
