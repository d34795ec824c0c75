import { createHash } from 'node:crypto';
import type { ManagementPrincipal, Role } from '../../auth/principal.js';
import { ResourceAccess } from '../../auth/principal.js';
import { digestSecret, digestsEqual, generateSecret } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import { ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError, ValidationError } from '../../http/errors.js';
import { newId } from '../../ids.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import { hashPassword, type ScryptParameters, temporaryPasswordUntil, unmatchableHash, verifyPassword } from './passwords.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { ConsoleSessionStore, SessionAccount } from './store.js';
import type { Db } from '../../storage/db.js';

export interface SessionSettings {
  /** A session ends this long after sign-in, whatever happens. */
  absoluteMs: number;
  /** A session ends after this long without a request. */
  idleMs: number;
  /** A temporary password works this many days after it was set. */
  temporaryPasswordDays: number;
  /** The origin the console is reached at through a proxy (VEXIL_PUBLIC_URL), when set. */
  publicOrigin?: string;
  /** scrypt's cost for the passwords set from now on (each hash keeps its own). */
  passwordHashing: ScryptParameters;
}

export interface ConsoleSession {
  ulid: string;
  account: { ulid: string; name: string; email: string; role: Role; projects: string[] | null };
  csrf_token: string;
  expires_at: string;
  /** Signed in with a temporary password: the session may only choose a new one. */
  password_change_required: boolean;
}

const minPasswordLength = 12;

/** The CSRF token of a session: derived from its secret, so only the cookie's holder can know it. */
export function csrfTokenOf(secret: string): string {
  return createHash('sha256').update(`csrf:${secret}`).digest('base64url');
}

function checkNewPassword(field: string, password: string): void {
  if (password.length < minPasswordLength)
    throw ValidationError.field(field, `The ${field} field must be at least ${minPasswordLength} characters long.`);
  if (password.length > 200) throw ValidationError.field(field, `The ${field} field must be at most 200 characters long.`);
}

/** An e-mail address as accounts store it: without surrounding white space, in lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** What ConsoleSessionService is built from. */
export interface ConsoleSessionServiceDeps {
  /** The pool, for the reads and the single-statement writes of sessions. */
  db: Db;
  store: ConsoleSessionStore;
  /** Password changes run in one transaction with their audit entry. */
  tx: Transactor;
  /** Growing delays after failed sign-ins, per client address and per account. */
  throttle: SignInThrottle;
  clock: Clock;
  settings: SessionSettings;
}

/**
 * Console sign-in: email and password (scrypt), sessions held in an HttpOnly cookie whose secret
 * is stored only as a digest. A session acts with its account's own rights, like the account's
 * personal access token would.
 */
export class ConsoleSessionService {
  constructor(private readonly deps: ConsoleSessionServiceDeps) {}

  private accountProjects(accountUlid: string, role: string): Promise<string[] | null> {
    return this.deps.store.accountProjects(this.deps.db, accountUlid, role);
  }

  get absoluteMs(): number {
    return this.deps.settings.absoluteMs;
  }

  get publicOrigin(): string | undefined {
    return this.deps.settings.publicOrigin;
  }

  /** Checks the password and opens a session; the caller sets the cookie from `secret`. */
  async signIn(
    email: string,
    password: string,
    clientIp: string,
  ): Promise<{ secret: string; session: ConsoleSession; principal: ManagementPrincipal }> {
    // Normalised once, here where it enters: every spelling of an address is one account and one count.
    const normalised = normaliseEmail(email);
    const wait = this.deps.throttle.retryAfter(normalised, clientIp);
    if (wait > 0) throw new RateLimitedError(wait);
    const account = await this.deps.store.accountByEmail(this.deps.db, normalised);
    // The same work and the same answer whether or not the email exists.
    const valid = await verifyPassword(password, account?.password_hash ?? unmatchableHash(this.deps.settings.passwordHashing));
    if (!account || !valid) {
      this.deps.throttle.failed(normalised, clientIp);
      throw new UnauthorizedError('Wrong email or password.', 'auth.sign_in');
    }
    if (account.password_temporary_until !== null && account.password_temporary_until <= this.deps.clock.now().toISOString()) {
      throw new UnauthorizedError(
        'This temporary password has expired: ask an owner or admin to set a new one (the owner: npm run reset-owner on the server).',
        'auth.sign_in',
      );
    }
    this.deps.throttle.succeeded(normalised, clientIp);
    const secret = generateSecret('ses_');
    const now = this.deps.clock.now();
    const row = {
      ulid: newId('consoleSession'),
      account_ulid: account.ulid,
      digest: digestSecret(secret),
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.deps.settings.absoluteMs).toISOString(),
    };
    await this.deps.store.insertSession(this.deps.db, row);
    const principal = await this.principalOf(row.ulid, account);
    return { secret, session: await this.view(row.ulid, account, secret, row.expires_at), principal };
  }

  /** The principal of a session cookie, or a 401; refreshes its idle clock. */
  async authenticate(secret: string): Promise<{ principal: ManagementPrincipal; session: ConsoleSession }> {
    const digest = digestSecret(secret);
    const found = await this.deps.store.sessionByDigest(this.deps.db, digest);
    const now = this.deps.clock.now();
    const idleLimit = new Date(now.getTime() - this.deps.settings.idleMs).toISOString();
    if (!found || found.expires_at <= now.toISOString() || found.last_seen_at <= idleLimit) {
      if (found) await this.deps.store.deleteSession(this.deps.db, found.ulid);
      throw new UnauthorizedError('The console session has ended; sign in again.', 'auth.invalid_token');
    }
    await this.deps.store.touch(this.deps.db, found.ulid, now.toISOString());
    return {
      principal: await this.principalOf(found.ulid, found.account),
      session: await this.view(found.ulid, found.account, secret, found.expires_at),
    };
  }

  /** Whether a state-changing request carries the session's CSRF token (constant time). */
  csrfMatches(secret: string, header: string | undefined): boolean {
    return header !== undefined && digestsEqual(digestSecret(csrfTokenOf(secret)), digestSecret(header));
  }

  async signOut(sessionUlid: string): Promise<void> {
    await this.deps.store.deleteSession(this.deps.db, sessionUlid);
  }

  /**
   * A person chooses their own password (also the way out of a temporary one); it must differ
   * from the current one. Every session of the account ends. The entry is committed with the
   * change; a refusal's entry, written by the audit stage, has no subject.
   */
  async changeOwnPassword(principal: ManagementPrincipal, current: string, next: string, audit: Auditor): Promise<void> {
    const account = await this.deps.store.accountByUlid(this.deps.db, principal.account.ulid);
    if (!account || !(await verifyPassword(current, account.password_hash))) {
      throw ValidationError.field(
        'current_password',
        "The current_password field does not match the account's password.",
        'invalid_credentials',
      );
    }
    checkNewPassword('new_password', next);
    if (next.normalize('NFKC') === current.normalize('NFKC'))
      throw ValidationError.field('new_password', 'The new_password field must differ from the current password.', 'invalid_combination');
    const hash = await hashPassword(next, this.deps.settings.passwordHashing);
    const now = this.deps.clock.now().toISOString();
    await this.deps.tx.transaction(async (trx) => {
      await this.deps.store.setPassword(trx, account.ulid, hash, null, now);
      await audit.commit(trx, {
        action: 'account.password_changed',
        subjectType: 'account',
        subjectUlid: principal.account.ulid,
        subjectLabel: principal.account.email,
      });
    });
  }

  /**
   * An owner or admin sets an account's password (admins not an owner's); its sessions end. Set
   * for someone else it is temporary: it only lets that person choose their own, for
   * `temporaryPasswordDays`. Set for oneself (with a personal access token) it is one's own.
   */
  async setPassword(principal: ManagementPrincipal, accountUlid: string, password: string, audit: Auditor): Promise<void> {
    const account = await this.deps.store.accountByUlid(this.deps.db, accountUlid);
    if (!account) throw new NotFoundError(`Account "${accountUlid}" not found.`);
    if (account.role === 'owner' && principal.account.role !== 'owner')
      throw new ForbiddenError("Only an owner can set an owner's password.");
    checkNewPassword('password', password);
    const hash = await hashPassword(password, this.deps.settings.passwordHashing);
    const now = this.deps.clock.now();
    const temporaryUntil =
      account.ulid === principal.account.ulid ? null : temporaryPasswordUntil(now, this.deps.settings.temporaryPasswordDays);
    await this.deps.tx.transaction(async (trx) => {
      await this.deps.store.setPassword(trx, account.ulid, hash, temporaryUntil, now.toISOString());
      await audit.commit(trx, {
        action: 'account.password_set',
        subjectType: 'account',
        subjectUlid: account.ulid,
        subjectLabel: account.email,
      });
    });
  }

  get temporaryPasswordDays(): number {
    return this.deps.settings.temporaryPasswordDays;
  }

  private async principalOf(
    sessionUlid: string,
    account: Omit<SessionAccount, 'password_hash' | 'password_temporary_until'>,
  ): Promise<ManagementPrincipal> {
    const projects = await this.accountProjects(account.ulid, account.role);
    return {
      type: 'console_session',
      tokenUlid: sessionUlid,
      tokenName: 'Console session',
      account: { ulid: account.ulid, name: account.name, email: account.email, role: account.role },
      scopes: null,
      tier: 'elevated',
      access: new ResourceAccess(projects && new Set(projects), null),
    };
  }

  private async view(
    ulid: string,
    account: Omit<SessionAccount, 'password_hash'>,
    secret: string,
    expiresAt: string,
  ): Promise<ConsoleSession> {
    return {
      ulid,
      account: {
        ulid: account.ulid,
        name: account.name,
        email: account.email,
        role: account.role,
        projects: await this.accountProjects(account.ulid, account.role),
      },
      csrf_token: csrfTokenOf(secret),
      expires_at: expiresAt,
      password_change_required: account.password_temporary_until !== null,
    };
  }
}
