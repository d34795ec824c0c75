import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { requireAdministrator, requireWholeProject, visibleAmong } from '../shared/access-rules.js';
import { TextRules } from '../shared/text-rules.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import { resolveEnvironment, resolveProject } from '../projects/resolve.js';
import type { Project, ProjectStore } from '../projects/store-types.js';
import type { ManagementTokenStore } from '../tokens/store-types.js';
import { toEnvironment } from './store.js';
import type { Environment, EnvironmentPatch, EnvironmentStore } from './store-types.js';

export const defaultEnvironmentColor = '#808080';

export interface EnvironmentCreateInput {
  key: string;
  name: string;
  description?: string | null;
  color?: string;
  comments_required?: boolean;
  confirmation_required?: boolean;
}

export interface EnvironmentUpdateInput {
  name: string;
  description?: string | null;
  color?: string;
  comments_required?: boolean;
  confirmation_required?: boolean;
}

/** Who updates: only a person in the console may confirm, by typing the environment's key. */
export interface EnvironmentConfirmation {
  console: boolean;
  confirmation?: string;
}

export interface EnvironmentServiceDeps {
  /** For reads outside a transaction. */
  db: Db;
  tx: Transactor;
  projects: ProjectStore;
  environments: EnvironmentStore;
  tokens: Pick<ManagementTokenStore, 'revokeTokensConfinedTo'>;
  clock: Clock;
}

/** Environments of a project (specs/management.yaml, tag Environments). */
export class EnvironmentService {
  constructor(private readonly deps: EnvironmentServiceDeps) {}

  async list(principal: ManagementPrincipal, projectKey: string, page: PageRequest, audit: Auditor): Promise<Page<Environment>> {
    const { db, projects, environments } = this.deps;
    const access = principal.access;
    const project = await resolveProject(db, projects, access, projectKey);
    audit.describe({ action: 'environment.listed', ...projectSubject(project) });
    const visible = access.restricted
      ? visibleAmong(await environments.ulidsOfProject(db, project.ulid), true, (u) => access.canSeeEnvironment(project.ulid, u))
      : null;
    return environments.listPage(db, project.ulid, page, visible);
  }

  async get(principal: ManagementPrincipal, projectKey: string, environmentKey: string, audit: Auditor): Promise<Environment> {
    const { project, environment } = await resolveEnvironment(this.deps.db, this.deps, principal.access, projectKey, environmentKey);
    audit.describe({ action: 'environment.read', ...environmentSubject(project, environment) });
    return toEnvironment(environment);
  }

  async create(principal: ManagementPrincipal, projectKey: string, input: EnvironmentCreateInput, audit: Auditor): Promise<Environment> {
    requireAdministrator(principal);
    const project = await resolveProject(this.deps.db, this.deps.projects, principal.access, projectKey);
    audit.describe({ action: 'environment.created', ...projectSubject(project) });
    requireWholeProject(principal.access, project.ulid);
    validate(input);
    return this.deps.tx.transaction(async (trx) => {
      const environment = await this.createIn(trx, project, input);
      await audit.commit(trx, {
        action: 'environment.created',
        ...environmentSubject(project, environment),
        changes: { after: environment },
      });
      return environment;
    });
  }

  /**
   * Creates an environment inside the caller's transaction (project creation and first start
   * use it too). Validates the input; the caller commits the audit entry.
   */
  async createIn(trx: Knex.Transaction, project: Pick<Project, 'ulid'>, input: EnvironmentCreateInput): Promise<Environment> {
    validate(input);
    const now = this.deps.clock.now().toISOString();
    const record = {
      ulid: newId('environment'),
      project_ulid: project.ulid,
      key: input.key,
      name: input.name,
      description: input.description ?? null,
      color: input.color ?? defaultEnvironmentColor,
      comments_required: input.comments_required ?? false,
      confirmation_required: input.confirmation_required ?? false,
      created_at: now,
      updated_at: now,
    };
    await this.deps.environments.insert(trx, record);
    return toEnvironment(record);
  }

  async update(
    principal: ManagementPrincipal,
    projectKey: string,
    environmentKey: string,
    input: EnvironmentUpdateInput,
    by: EnvironmentConfirmation,
    audit: Auditor,
  ): Promise<Environment> {
    requireAdministrator(principal);
    const { project, environment } = await resolveEnvironment(this.deps.db, this.deps, principal.access, projectKey, environmentKey);
    audit.describe({ action: 'environment.updated', ...environmentSubject(project, environment) });
    validate(input);
    // The stored setting decides, so a request can never lift the guard that protects it.
    confirmed(environment, by, { console: 'change its settings', typed: 'changing its settings' });
    const patch: EnvironmentPatch = { name: input.name, updated_at: this.deps.clock.now().toISOString() };
    if (input.description !== undefined) patch.description = input.description;
    if (input.color !== undefined) patch.color = input.color;
    if (input.comments_required !== undefined) patch.comments_required = input.comments_required;
    if (input.confirmation_required !== undefined) patch.confirmation_required = input.confirmation_required;
    return this.deps.tx.transaction(async (trx) => {
      if (!(await this.deps.environments.update(trx, environment.ulid, patch))) {
        throw new NotFoundError(`Environment "${environmentKey}" not found.`);
      }
      const updated = toEnvironment({ ...environment, ...patch });
      await audit.commit(trx, {
        action: 'environment.updated',
        ...environmentSubject(project, environment),
        changes: { before: toEnvironment(environment), after: updated },
      });
      return updated;
    });
  }

  async delete(
    principal: ManagementPrincipal,
    projectKey: string,
    environmentKey: string,
    by: EnvironmentConfirmation,
    audit: Auditor,
  ): Promise<void> {
    requireAdministrator(principal);
    const { project, environment } = await resolveEnvironment(this.deps.db, this.deps, principal.access, projectKey, environmentKey);
    audit.describe({ action: 'environment.deleted', ...environmentSubject(project, environment) });
    confirmed(environment, by, { console: 'delete it', typed: 'deleting it' });
    await this.deps.tx.transaction(async (trx) => {
      const now = this.deps.clock.now().toISOString();
      await this.deps.tokens.revokeTokensConfinedTo(trx, { environmentUlid: environment.ulid }, now);
      if (!(await this.deps.environments.delete(trx, environment.ulid))) {
        throw new NotFoundError(`Environment "${environmentKey}" not found.`);
      }
      await audit.commit(trx, {
        action: 'environment.deleted',
        ...environmentSubject(project, environment),
        changes: { before: toEnvironment(environment) },
      });
    });
  }
}

/**
 * Changing or deleting an environment that requires typed confirmation (its stored setting):
 * refused to tokens, the typed key from the console. `change` names the change in the messages.
 */
function confirmed(
  environment: Pick<Environment, 'key' | 'confirmation_required'>,
  by: EnvironmentConfirmation,
  change: { console: string; typed: string },
): void {
  if (!environment.confirmation_required) return;
  if (!by.console) {
    throw new UnprocessableError(
      `The environment "${environment.key}" requires typed confirmation; ${change.console} in the web console.`,
    ).withCode('confirmation_required');
  }
  if (by.confirmation !== environment.key) {
    throw ValidationError.field(
      'confirmation',
      `Type the environment's key "${environment.key}" to confirm ${change.typed}.`,
      'confirmation_required',
    );
  }
}

function validate(input: EnvironmentUpdateInput): void {
  new TextRules().name('name', input.name).text('description', input.description).check();
}

export function projectSubject(project: Pick<Project, 'ulid' | 'key'>) {
  return { subjectType: 'project', subjectUlid: project.ulid, subjectLabel: project.key, projectUlid: project.ulid };
}

export function environmentSubject(project: Pick<Project, 'ulid' | 'key'>, environment: Pick<Environment, 'ulid' | 'key'>) {
  return {
    subjectType: 'environment',
    subjectUlid: environment.ulid,
    subjectLabel: `${project.key}/${environment.key}`,
    projectUlid: project.ulid,
    environmentUlid: environment.ulid,
  };
}
