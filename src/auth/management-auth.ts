import type Koa from 'koa';
import type { Clock } from '../clock.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import { operationState } from '../http/operation.js';
import type { CredentialRecord, CredentialStore } from './credential-store.js';
import { hasScope, ResourceAccess, type ManagementPrincipal, type Scope } from './principal.js';
import { digestSecret, digestsEqual, looksLikeSecret } from './secrets.js';
import type { Db } from '../storage/db.js';

export interface ManagementAuthOptions {
  /**
   * How long a found credential is reused without reading the database again. A change made
   * through this instance's management API drops the cache at once (`forgetCredentials`); one made
   * through another instance is seen within this time. Default: VEXIL_REVISION_POLL_MS's default.
   */
  cacheMs?: number;
  /** Monotonic milliseconds for the cache's ages (tests). */
  monotonicNow?: () => number;
}

export interface ManagementAuthenticatorDeps {
  /** The pool: credentials are read outside any request's transaction. */
  db: Db;
  store: CredentialStore;
  clock: Clock;
}

interface CachedCredential {
  record: CredentialRecord;
  principal: ManagementPrincipal;
  until: number;
}

/** Credentials kept at most; only tokens that authenticated are kept, so this is rarely reached. */
const maxCachedCredentials = 10_000;

/**
 * Reads `Authorization: Bearer ...` and resolves the principal, or throws 401. Principals of
 * tokens that authenticated are kept for a short time by token digest: a management read then
 * costs no credential query (bench scenario 7). Expiry is still checked on every request.
 */
export class ManagementAuthenticator {
  private readonly cache = new Map<string, CachedCredential>();
  /** Moves on every `forgetCredentials`, so a lookup that raced with a change is not kept. */
  private generation = 0;
  private readonly cacheMs: number;
  private readonly monotonicNow: () => number;

  constructor(
    private readonly deps: ManagementAuthenticatorDeps,
    options: ManagementAuthOptions = {},
  ) {
    this.cacheMs = options.cacheMs ?? 250;
    this.monotonicNow = options.monotonicNow ?? (() => performance.now());
  }

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
    const cached = this.cache.get(digest);
    if (cached && cached.until > this.monotonicNow()) {
      this.checkExpiry(cached.record);
      return cached.principal;
    }
    const generation = this.generation;
    const record = await this.deps.store.findManagementCredential(this.deps.db, digest);
    if (!record || !digestsEqual(record.digest, digest) || record.revokedAt !== null) {
      this.cache.delete(digest);
      throw new UnauthorizedError('Invalid bearer token.', 'auth.invalid_token');
    }
    this.checkExpiry(record);
    const principal = toPrincipal(record);
    if (generation === this.generation) {
      if (this.cache.size >= maxCachedCredentials) this.cache.clear();
      this.cache.set(digest, { record, principal, until: this.monotonicNow() + this.cacheMs });
    }
    return principal;
  }

  /** Drops every kept credential: called after each management request that may have changed one. */
  forgetCredentials(): void {
    this.cache.clear();
    this.generation += 1;
  }

  private checkExpiry(record: CredentialRecord): void {
    if (record.expiresAt !== null && record.expiresAt <= this.deps.clock.now().toISOString()) {
      throw new UnauthorizedError('Bearer token has expired.', 'auth.expired_token');
    }
  }
}

function toPrincipal(record: CredentialRecord): ManagementPrincipal {
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

function groupEnvironments(list: Array<{ projectUlid: string; environmentUlid: string }>) {
  const map = new Map<string, Set<string>>();
  for (const { projectUlid, environmentUlid } of list) {
    let set = map.get(projectUlid);
    if (!set) map.set(projectUlid, (set = new Set()));
    set.add(environmentUlid);
  }
  return map;
}

/** What a member's personal access token or session may do, as the management document states. */
const memberScopes: ReadonlySet<Scope> = new Set(['projects:read', 'flags:read', 'flags:write', 'targets:read', 'targets:write']);

/** The scope an operation requires (x-required-scope); `personal` = an owner's or admin's personal access token. */
export function authorizeOperation(principal: ManagementPrincipal, requiredScope: string | undefined): void {
  if (requiredScope === undefined || requiredScope === 'none') return;
  if (requiredScope === 'personal') {
    if (principal.type === 'management_token') {
      throw new ForbiddenError('This operation needs a personal access token.', 'personal');
    }
    if (principal.account.role === 'member') {
      throw new ForbiddenError('This operation needs an owner or admin account.', 'personal');
    }
    return;
  }
  const scope = requiredScope as Scope;
  // Personal access tokens and sessions carry no scopes: owners and admins may do everything,
  // members only the work on flags and targets (not configuration or the audit logs).
  const allowed =
    principal.type !== 'management_token' ? principal.account.role !== 'member' || memberScopes.has(scope) : hasScope(principal, scope);
  if (!allowed) throw new ForbiddenError(`This token lacks the ${scope} scope.`, scope);
}

/**
 * Whether a request may change what a credential grants: any write to tokens or accounts, and
 * deleting a project or an environment (grants name them). Flag, value, target, rule and
 * segment writes cannot, so a client making many of them keeps its credential cached.
 */
export function mayChangeCredentials(method: string, pathTemplate: string | undefined): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  if (pathTemplate === undefined) return true;
  const path = pathTemplate.replace(/^\/management\/v1/, '');
  if (path.startsWith('/tokens') || path.startsWith('/accounts')) return true;
  return method === 'DELETE' && /^\/projects\/\{projectKey\}(\/environments\/\{environmentKey\})?$/.test(path);
}

/**
 * Pipeline stage: authenticate. After a request that may have changed a credential
 * (mayChangeCredentials) the kept credentials are dropped, so a revoked or deleted token, a
 * changed role or grant takes effect on this instance from the next request on.
 */
export function authenticateManagement(
  authenticator: ManagementAuthenticator,
  /** Authenticates by the console session cookie instead; false when the request has none to judge. */
  authenticateSession: (ctx: Koa.Context) => Promise<boolean> = async () => false,
) {
  return async (ctx: Koa.Context, next: () => Promise<void>): Promise<void> => {
    const state = operationState(ctx);
    if (state.operation?.secured !== false && !(await authenticateSession(ctx))) {
      state.managementPrincipal = await authenticator.authenticate(ctx.get('authorization') || undefined);
    }
    if (!mayChangeCredentials(ctx.method, state.operation?.pathTemplate)) return next();
    try {
      await next();
    } finally {
      authenticator.forgetCredentials();
    }
  };
}

/** Pipeline stage: scope check (after rate limiting, so refused requests still count). */
export async function authorizeManagement(ctx: Koa.Context, next: () => Promise<void>): Promise<void> {
  const state = operationState(ctx);
  if (state.managementPrincipal) {
    authorizeOperation(state.managementPrincipal, state.operation?.requiredScope);
    for (const scope of state.operation?.alsoRequiredScopes ?? []) authorizeOperation(state.managementPrincipal, scope);
  }
  await next();
}
