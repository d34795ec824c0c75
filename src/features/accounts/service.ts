import type { Knex } from 'knex';
import type { ManagementPrincipal, Role } from '../../auth/principal.js';
import { digestSecret, generateSecret } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import { FieldErrorList, ForbiddenError, NotFoundError, UnprocessableError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { futureExpiry, TextRules } from '../shared/text-rules.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import type { ProjectStore } from '../projects/store-types.js';
import type { Account, AccountStore } from './store-types.js';

export interface AccountCreateInput {
  name: string;
  email: string;
  role: Role;
  projects?: string[];
}

export interface AccountUpdateInput {
  name: string;
  role: Role;
  projects?: string[];
}

export interface PersonalTokenCreateInput {
  name: string;
  expires_at?: string | null;
}

export interface PersonalTokenCreated {
  ulid: string;
  name: string;
  expires_at: string | null;
  created_at: string;
  /** The secret, shown once. */
  token: string;
}

export interface AccountServiceDeps {
  db: Db;
  tx: Transactor;
  accounts: AccountStore;
  projects: ProjectStore;
  clock: Clock;
}

/**
 * Accounts and their personal access tokens. Only personal access tokens of owners and admins
 * reach these operations (`x-required-scope: personal`); on top of that an admin may not create,
 * delete or hand tokens to owners.
 */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  async list(_principal: ManagementPrincipal, page: PageRequest): Promise<Page<Account>> {
    return this.deps.accounts.listPage(this.deps.db, page);
  }

  async create(principal: ManagementPrincipal, input: AccountCreateInput, audit: Auditor): Promise<Account> {
    if (input.role === 'owner' && principal.account.role !== 'owner') {
      throw new ForbiddenError('Only an owner can create an owner account.');
    }
    return this.deps.tx.transaction(async (trx) => {
      const account = await this.createIn(trx, input);
      await audit.commit(trx, {
        action: 'account.created',
        subjectType: 'account',
        subjectUlid: account.ulid,
        subjectLabel: account.email,
        changes: { after: account },
      });
      return account;
    });
  }

  /** Creates an account inside the caller's transaction (first start uses it too). */
  async createIn(trx: Knex.Transaction, input: AccountCreateInput): Promise<Account> {
    const projects = await this.checkedProjects(trx, input);
    const now = this.deps.clock.now().toISOString();
    // E-mail addresses are unique regardless of case, so they are kept in lower case.
    const record = {
      ulid: newId('account'),
      name: input.name,
      email: input.email.toLowerCase(),
      role: input.role,
      created_at: now,
      updated_at: now,
    };
    await this.deps.accounts.insert(
      trx,
      record,
      projects.map((p) => p.ulid),
    );
    // Listed in project creation order, as the account lists show them.
    projects.sort((a, b) => (a.ulid < b.ulid ? -1 : 1));
    return { ...record, projects: projects.map((p) => p.key), password_status: 'none', password_temporary_until: null };
  }

  /**
   * Changes name, role and a member's projects. Only an owner changes an owner or makes one; no
   * account changes its own role; the last owner keeps the role (owners are locked, as for delete).
   */
  async update(principal: ManagementPrincipal, ulid: string, input: AccountUpdateInput, audit: Auditor): Promise<Account> {
    const before = await this.find(ulid);
    const subject = { action: 'account.updated', subjectType: 'account', subjectUlid: before.ulid, subjectLabel: before.email };
    audit.describe(subject);
    if (principal.account.role !== 'owner') {
      if (before.role === 'owner') throw new ForbiddenError('Only an owner can change an owner account.');
      if (input.role === 'owner') throw new ForbiddenError('Only an owner can give the owner role.');
    }
    if (before.ulid === principal.account.ulid && input.role !== before.role)
      throw new UnprocessableError('An account cannot change its own role.');
    return this.deps.tx.transaction(async (trx) => {
      const projects = await this.checkedProjects(trx, input);
      const owners = await this.deps.accounts.lockOwners(trx);
      if (owners.includes(before.ulid) && input.role !== 'owner' && owners.length === 1) {
        throw new UnprocessableError('The last owner account keeps the owner role.');
      }
      const change = { name: input.name, role: input.role, updated_at: this.deps.clock.now().toISOString() };
      if (
        !(await this.deps.accounts.update(
          trx,
          before.ulid,
          change,
          projects.map((p) => p.ulid),
        ))
      )
        throw new NotFoundError(`Account "${ulid}" not found.`);
      const after = (await this.deps.accounts.find(trx, before.ulid)) as Account;
      await audit.commit(trx, { ...subject, changes: { before, after } });
      return after;
    });
  }

  /** Checks name and projects (members only, each an existing project); the projects in creation order. */
  private async checkedProjects(
    trx: Knex.Transaction,
    input: { name: string; role: Role; projects?: string[] },
  ): Promise<Array<{ ulid: string; key: string }>> {
    const rules = new TextRules().name('name', input.name);
    const projectKeys = input.projects ?? [];
    if (input.role !== 'member' && projectKeys.length > 0) {
      rules.add('projects', 'Only member accounts are given projects: owners and admins reach every project.', 'invalid_combination');
    }
    rules.check();
    const errors = new FieldErrorList();
    const projects: Array<{ ulid: string; key: string }> = [];
    for (const [index, key] of projectKeys.entries()) {
      const project = await this.deps.projects.findByKey(trx, key);
      if (project) projects.push(project);
      else errors.add(`projects.${index}`, `Project "${key}" does not exist.`, 'reference_not_found');
    }
    errors.check();
    return projects;
  }

  async delete(principal: ManagementPrincipal, ulid: string, audit: Auditor): Promise<void> {
    const account = await this.find(ulid);
    const subject = { action: 'account.deleted', subjectType: 'account', subjectUlid: account.ulid, subjectLabel: account.email };
    audit.describe(subject);
    if (account.ulid === principal.account.ulid) throw new UnprocessableError('An account cannot delete itself.');
    if (account.role === 'owner' && principal.account.role !== 'owner') {
      throw new ForbiddenError('Only an owner can delete an owner account.');
    }
    await this.deps.tx.transaction(async (trx) => {
      // Locking every owner serialises concurrent deletions, so the last owner always survives.
      const owners = await this.deps.accounts.lockOwners(trx);
      if (account.role === 'owner' && owners.filter((o) => o !== account.ulid).length === 0) {
        throw new UnprocessableError('The last owner account cannot be deleted.');
      }
      if (!(await this.deps.accounts.delete(trx, account.ulid))) throw new NotFoundError(`Account "${ulid}" not found.`);
      await audit.commit(trx, { ...subject, changes: { before: account } });
    });
  }

  async createPersonalToken(
    principal: ManagementPrincipal,
    accountUlid: string,
    input: PersonalTokenCreateInput,
    audit: Auditor,
  ): Promise<PersonalTokenCreated> {
    const account = await this.find(accountUlid);
    audit.describe({ action: 'personal_token.created', subjectType: 'account', subjectUlid: account.ulid, subjectLabel: account.email });
    this.requireMayManage(principal, account);
    return this.deps.tx.transaction(async (trx) => {
      const created = await this.createPersonalTokenIn(trx, account.ulid, input);
      const { token: _secret, ...view } = created;
      await audit.commit(trx, {
        action: 'personal_token.created',
        subjectType: 'personal_token',
        subjectUlid: created.ulid,
        subjectLabel: `${account.email}: ${created.name}`,
        changes: { after: { ...view, account_ulid: account.ulid, revoked_at: null } },
      });
      return created;
    });
  }

  /** Creates a personal access token inside the caller's transaction; `secret` is for first start. */
  async createPersonalTokenIn(
    trx: Knex.Transaction,
    accountUlid: string,
    input: PersonalTokenCreateInput,
    secret: string = generateSecret('pat_'),
  ): Promise<PersonalTokenCreated> {
    new TextRules().name('name', input.name).check();
    const now = this.deps.clock.now();
    const expiresAt = futureExpiry('expires_at', input.expires_at, now);
    const record = {
      ulid: newId('personalAccessToken'),
      account_ulid: accountUlid,
      name: input.name,
      digest: digestSecret(secret),
      expires_at: expiresAt,
      revoked_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await this.deps.accounts.insertPersonalToken(trx, record);
    return { ulid: record.ulid, name: record.name, expires_at: record.expires_at, created_at: record.created_at, token: secret };
  }

  /** Revokes the token; revoking a revoked token succeeds and changes nothing. */
  async revokePersonalToken(principal: ManagementPrincipal, accountUlid: string, tokenUlid: string, audit: Auditor): Promise<void> {
    const account = await this.find(accountUlid);
    const token = await this.deps.accounts.findPersonalToken(this.deps.db, account.ulid, tokenUlid);
    if (!token) throw new NotFoundError(`Personal access token "${tokenUlid}" not found.`);
    const subject = {
      action: 'personal_token.revoked',
      subjectType: 'personal_token',
      subjectUlid: token.ulid,
      subjectLabel: `${account.email}: ${token.name}`,
    };
    audit.describe(subject);
    this.requireMayManage(principal, account);
    await this.deps.tx.transaction(async (trx) => {
      const now = this.deps.clock.now().toISOString();
      if (await this.deps.accounts.revokePersonalToken(trx, token.ulid, now)) {
        await audit.commit(trx, { ...subject, changes: { before: token, after: { ...token, revoked_at: now } } });
      }
    });
  }

  private async find(ulid: string): Promise<Account> {
    const account = await this.deps.accounts.find(this.deps.db, ulid);
    if (!account) throw new NotFoundError(`Account "${ulid}" not found.`);
    return account;
  }

  private requireMayManage(principal: ManagementPrincipal, account: Account): void {
    if (account.role === 'owner' && principal.account.role !== 'owner') {
      throw new ForbiddenError("Only an owner can manage an owner's tokens.");
    }
  }
}
