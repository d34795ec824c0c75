import type { Knex } from 'knex';
import type { EnvironmentKeyKind, ManagementPrincipal } from '../../auth/principal.js';
import { digestSecret, generateSecret, maskSecret, type SecretPrefix } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import { environmentSubject } from '../environments/service.js';
import type { EnvironmentStore } from '../environments/store-types.js';
import { requireAdministrator } from '../shared/access-rules.js';
import { TextRules } from '../shared/text-rules.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import { resolveEnvironment } from '../projects/resolve.js';
import type { ProjectStore } from '../projects/store-types.js';
import { NotFoundError } from '../../http/errors.js';
import type { EnvironmentKey, EnvironmentKeyStore } from './store-types.js';

const prefixes: Record<EnvironmentKeyKind, SecretPrefix> = { server: 'srv_', mobile: 'mob_', client: 'cli_' };
const defaultNames: Record<EnvironmentKeyKind, string> = { server: 'Server key', mobile: 'Mobile key', client: 'Client key' };

export interface EnvironmentKeyCreateInput {
  kind: EnvironmentKeyKind;
  name?: string;
}

/** A new key with its secret, which exists only in this response. */
export type EnvironmentKeyCreated = EnvironmentKey & { key: string };

export interface EnvironmentKeyServiceDeps {
  db: Db;
  tx: Transactor;
  projects: ProjectStore;
  environments: EnvironmentStore;
  keys: EnvironmentKeyStore;
  clock: Clock;
}

/** Keys of the public evaluation API (specs/management.yaml, tag Environment keys). */
export class EnvironmentKeyService {
  constructor(private readonly deps: EnvironmentKeyServiceDeps) {}

  async list(principal: ManagementPrincipal, projectKey: string, environmentKey: string, audit: Auditor): Promise<EnvironmentKey[]> {
    requireAdministrator(principal);
    const { project, environment } = await resolveEnvironment(this.deps.db, this.deps, principal.access, projectKey, environmentKey);
    audit.describe({ action: 'environment_key.listed', ...environmentSubject(project, environment) });
    return this.deps.keys.listForEnvironment(this.deps.db, environment.ulid);
  }

  async create(
    principal: ManagementPrincipal,
    projectKey: string,
    environmentKey: string,
    input: EnvironmentKeyCreateInput,
    audit: Auditor,
  ): Promise<EnvironmentKeyCreated> {
    requireAdministrator(principal);
    const { project, environment } = await resolveEnvironment(this.deps.db, this.deps, principal.access, projectKey, environmentKey);
    audit.describe({ action: 'environment_key.created', ...environmentSubject(project, environment) });
    return this.deps.tx.transaction(async (trx) => {
      const created = await this.createIn(trx, environment, input);
      const { key: _secret, ...view } = created;
      await audit.commit(trx, {
        action: 'environment_key.created',
        subjectType: 'environment_key',
        subjectUlid: created.ulid,
        // The name and masked form only: the secret never reaches an audit entry.
        subjectLabel: `${created.name} (${created.masked_key})`,
        projectUlid: project.ulid,
        environmentUlid: environment.ulid,
        changes: { after: view },
      });
      return created;
    });
  }

  /** Creates a key inside the caller's transaction (first start uses it too). */
  async createIn(trx: Knex.Transaction, environment: { ulid: string }, input: EnvironmentKeyCreateInput): Promise<EnvironmentKeyCreated> {
    new TextRules().name('name', input.name).check();
    const secret = generateSecret(prefixes[input.kind]);
    const now = this.deps.clock.now().toISOString();
    const record = {
      ulid: newId('environmentKey'),
      environment_ulid: environment.ulid,
      kind: input.kind,
      name: input.name ?? defaultNames[input.kind],
      digest: digestSecret(secret),
      masked_key: maskSecret(secret),
      revoked_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.keys.insert(trx, record);
    return {
      ulid: record.ulid,
      kind: record.kind,
      name: record.name,
      masked_key: record.masked_key,
      created_at: record.created_at,
      revoked_at: null,
      key: secret,
    };
  }

  /** Revokes the key; revoking a revoked key succeeds and changes nothing. */
  async revoke(principal: ManagementPrincipal, projectKey: string, environmentKey: string, keyUlid: string, audit: Auditor): Promise<void> {
    requireAdministrator(principal);
    const { project, environment } = await resolveEnvironment(this.deps.db, this.deps, principal.access, projectKey, environmentKey);
    const key = await this.deps.keys.find(this.deps.db, environment.ulid, keyUlid);
    if (!key) throw new NotFoundError(`Environment key "${keyUlid}" not found.`);
    const subject = {
      action: 'environment_key.revoked',
      subjectType: 'environment_key',
      subjectUlid: key.ulid,
      subjectLabel: `${key.name} (${key.masked_key})`,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    };
    audit.describe(subject);
    await this.deps.tx.transaction(async (trx) => {
      const now = this.deps.clock.now().toISOString();
      if (await this.deps.keys.revoke(trx, key.ulid, now)) {
        await audit.commit(trx, { ...subject, changes: { before: key, after: { ...key, revoked_at: now } } });
      }
    });
  }
}
