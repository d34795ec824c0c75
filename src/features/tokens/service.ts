import type { Knex } from 'knex';
import type { ManagementPrincipal, Scope, Tier } from '../../auth/principal.js';
import { digestSecret, generateSecret } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import { FieldErrorList, NotFoundError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import type { EnvironmentStore } from '../environments/store-types.js';
import { futureExpiry, TextRules } from '../shared/text-rules.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import type { ProjectStore } from '../projects/store-types.js';
import { grantsView, type GrantRow, type ManagementToken, type ManagementTokenStore } from './store-types.js';

export interface ManagementTokenCreateInput {
  name: string;
  scopes: Scope[];
  tier?: Tier;
  grants?: {
    projects?: string[];
    environments?: Array<{ project: string; environment: string }>;
  };
  expires_at?: string | null;
}

export type ManagementTokenCreated = ManagementToken & { token: string };

export interface ManagementTokenServiceDeps {
  db: Db;
  tx: Transactor;
  projects: ProjectStore;
  environments: EnvironmentStore;
  tokens: ManagementTokenStore;
  clock: Clock;
}

/**
 * Management tokens (specs/management.yaml, tag Management tokens). Only personal access tokens of owners and admins
 * reach these operations (`x-required-scope: personal`, enforced by the scope check).
 */
export class ManagementTokenService {
  constructor(private readonly deps: ManagementTokenServiceDeps) {}

  async list(_principal: ManagementPrincipal, page: PageRequest): Promise<Page<ManagementToken>> {
    return this.deps.tokens.listPage(this.deps.db, page);
  }

  async create(principal: ManagementPrincipal, input: ManagementTokenCreateInput, audit: Auditor): Promise<ManagementTokenCreated> {
    new TextRules().name('name', input.name).check();
    const now = this.deps.clock.now();
    const expiresAt = futureExpiry('expires_at', input.expires_at, now);
    return this.deps.tx.transaction(async (trx) => {
      const grants = await this.resolveGrants(trx, input.grants);
      const secret = generateSecret('mgt_');
      const stamp = now.toISOString();
      const record = {
        ulid: newId('managementToken'),
        account_ulid: principal.account.ulid,
        name: input.name,
        digest: digestSecret(secret),
        scopes: [...new Set(input.scopes)],
        tier: input.tier ?? 'standard',
        expires_at: expiresAt,
        revoked_at: null,
        created_at: stamp,
        updated_at: stamp,
      };
      await this.deps.tokens.insert(trx, record, grants);
      const view: ManagementToken = {
        ulid: record.ulid,
        name: record.name,
        scopes: record.scopes,
        tier: record.tier,
        grants: grantsView(grants),
        expires_at: record.expires_at,
        revoked_at: null,
        created_at: record.created_at,
      };
      // The record of the change is the token as lists show it: never its secret or digest.
      await audit.commit(trx, {
        action: 'token.created',
        subjectType: 'management_token',
        subjectUlid: record.ulid,
        subjectLabel: record.name,
        changes: { after: view },
      });
      return { ...view, token: secret };
    });
  }

  /** Revokes the token; revoking a revoked token succeeds and changes nothing. */
  async revoke(_principal: ManagementPrincipal, ulid: string, audit: Auditor): Promise<void> {
    const token = await this.deps.tokens.find(this.deps.db, ulid);
    if (!token) throw new NotFoundError(`Management token "${ulid}" not found.`);
    const subject = { action: 'token.revoked', subjectType: 'management_token', subjectUlid: token.ulid, subjectLabel: token.name };
    audit.describe(subject);
    await this.deps.tx.transaction(async (trx) => {
      const now = this.deps.clock.now().toISOString();
      if (await this.deps.tokens.revoke(trx, token.ulid, now)) {
        await audit.commit(trx, { ...subject, changes: { before: token, after: { ...token, revoked_at: now } } });
      }
    });
  }

  /** Project and environment keys to grant rows; every unknown key is a field-keyed 422. */
  private async resolveGrants(trx: Knex.Transaction, grants: ManagementTokenCreateInput['grants']): Promise<GrantRow[]> {
    const rows: GrantRow[] = [];
    const errors = new FieldErrorList();
    const seen = new Set<string>();
    const add = (row: GrantRow) => {
      const id = `${row.project_ulid}/${row.environment_ulid ?? ''}`;
      if (!seen.has(id)) rows.push(row);
      seen.add(id);
    };
    for (const [index, key] of (grants?.projects ?? []).entries()) {
      const project = await this.deps.projects.findByKey(trx, key);
      if (!project) errors.add(`grants.projects.${index}`, `Project "${key}" does not exist.`, 'reference_not_found');
      else add({ project_ulid: project.ulid, project_key: project.key, environment_ulid: null, environment_key: null });
    }
    for (const [index, grant] of (grants?.environments ?? []).entries()) {
      const project = await this.deps.projects.findByKey(trx, grant.project);
      if (!project) {
        errors.add(`grants.environments.${index}.project`, `Project "${grant.project}" does not exist.`, 'reference_not_found');
        continue;
      }
      const environment = await this.deps.environments.findByKey(trx, project.ulid, grant.environment);
      if (!environment) {
        errors.add(
          `grants.environments.${index}.environment`,
          `Environment "${grant.environment}" does not exist in project "${grant.project}".`,
          'reference_not_found',
        );
        continue;
      }
      add({ project_ulid: project.ulid, project_key: project.key, environment_ulid: environment.ulid, environment_key: environment.key });
    }
    errors.check();
    return rows;
  }
}
