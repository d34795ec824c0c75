import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import {
  projectSubject,
  type EnvironmentConfirmation,
  type EnvironmentCreateInput,
  type EnvironmentService,
} from '../environments/service.js';
import type { Environment, EnvironmentStore } from '../environments/store-types.js';
import type { ManagementTokenStore } from '../tokens/store-types.js';
import { requireAdministrator, requireWholeProject, visibleAmong } from '../shared/access-rules.js';
import { TextRules } from '../shared/text-rules.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import { resolveProject } from './resolve.js';
import type { Project, ProjectStore } from './store-types.js';

/** What a project gets when its creation names no environments. */
export const defaultEnvironments = [
  { key: 'development', name: 'Development' },
  { key: 'production', name: 'Production' },
] as const;

export interface ProjectCreateInput {
  key: string;
  name: string;
  description?: string;
  /** Each with the settings an environment is created with (defaults where absent). */
  environments?: EnvironmentCreateInput[];
}

export interface ProjectUpdateInput {
  name: string;
  description?: string;
}

export interface ProjectServiceDeps {
  db: Db;
  tx: Transactor;
  projects: ProjectStore;
  environments: EnvironmentService;
  /** Which environments deleting the project would take that require typed confirmation. */
  environmentStore: Pick<EnvironmentStore, 'keysRequiringConfirmation'>;
  tokens: Pick<ManagementTokenStore, 'revokeTokensConfinedTo'>;
  clock: Clock;
}

/** Projects (specs/management.yaml, tag Projects). */
export class ProjectService {
  constructor(private readonly deps: ProjectServiceDeps) {}

  async list(principal: ManagementPrincipal, page: PageRequest): Promise<Page<Project>> {
    const { db, projects } = this.deps;
    const access = principal.access;
    const visible = access.restricted ? visibleAmong(await projects.allUlids(db), true, (u) => access.canSeeProject(u)) : null;
    return projects.listPage(db, page, visible);
  }

  async get(principal: ManagementPrincipal, key: string, audit: Auditor): Promise<Project> {
    const project = await resolveProject(this.deps.db, this.deps.projects, principal.access, key);
    audit.describe({ action: 'project.read', ...projectSubject(project) });
    return project;
  }

  async create(principal: ManagementPrincipal, input: ProjectCreateInput, audit: Auditor): Promise<Project> {
    requireAdministrator(principal);
    if (principal.access.restricted) {
      throw new ForbiddenError('Creating a project needs a token without grants.');
    }
    return this.deps.tx.transaction(async (trx) => {
      const { project } = await this.createIn(trx, input);
      await audit.commit(trx, { action: 'project.created', ...projectSubject(project), changes: { after: project } });
      return project;
    });
  }

  /**
   * Creates a project and its environments inside the caller's transaction (first start uses it
   * too). Validates the input; the caller commits the audit entry.
   */
  async createIn(trx: Knex.Transaction, input: ProjectCreateInput): Promise<{ project: Project; environments: Environment[] }> {
    const wanted: readonly EnvironmentCreateInput[] = input.environments ?? defaultEnvironments;
    const rules = new TextRules().name('name', input.name).text('description', input.description);
    const seen = new Set<string>();
    wanted.forEach((environment, index) => {
      rules.name(`environments.${index}.name`, environment.name).text(`environments.${index}.description`, environment.description);
      if (seen.has(environment.key)) {
        rules.add('environments', `The environments field names the key "${environment.key}" more than once.`, 'invalid_combination');
      }
      seen.add(environment.key);
    });
    rules.check();
    const now = this.deps.clock.now().toISOString();
    const project: Project = {
      ulid: newId('project'),
      key: input.key,
      name: input.name,
      description: input.description ?? '',
      created_at: now,
      updated_at: now,
    };
    await this.deps.projects.insert(trx, project);
    const environments: Environment[] = [];
    for (const environment of wanted) {
      environments.push(await this.deps.environments.createIn(trx, project, environment));
    }
    return { project, environments };
  }

  async update(principal: ManagementPrincipal, key: string, input: ProjectUpdateInput, audit: Auditor): Promise<Project> {
    requireAdministrator(principal);
    const project = await resolveProject(this.deps.db, this.deps.projects, principal.access, key);
    audit.describe({ action: 'project.updated', ...projectSubject(project) });
    requireWholeProject(principal.access, project.ulid);
    new TextRules().name('name', input.name).text('description', input.description).check();
    const patch = {
      name: input.name,
      description: input.description ?? project.description,
      updated_at: this.deps.clock.now().toISOString(),
    };
    return this.deps.tx.transaction(async (trx) => {
      if (!(await this.deps.projects.update(trx, project.ulid, patch))) throw new NotFoundError(`Project "${key}" not found.`);
      const updated = { ...project, ...patch };
      await audit.commit(trx, { action: 'project.updated', ...projectSubject(project), changes: { before: project, after: updated } });
      return updated;
    });
  }

  /** `by`: a project holding an environment that requires typed confirmation needs the person's typed project key. */
  async delete(principal: ManagementPrincipal, key: string, by: EnvironmentConfirmation, audit: Auditor): Promise<void> {
    requireAdministrator(principal);
    const project = await resolveProject(this.deps.db, this.deps.projects, principal.access, key);
    audit.describe({ action: 'project.deleted', ...projectSubject(project) });
    requireWholeProject(principal.access, project.ulid);
    await this.deps.tx.transaction(async (trx) => {
      // The stored settings decide, read in the deleting transaction; a refusal writes nothing.
      confirmedDeletion(project, await this.deps.environmentStore.keysRequiringConfirmation(trx, project.ulid), by);
      await this.deps.tokens.revokeTokensConfinedTo(trx, { projectUlid: project.ulid }, this.deps.clock.now().toISOString());
      // Environments, keys, flags, values, targets, rules, segments and insights go by cascade.
      if (!(await this.deps.projects.delete(trx, project.ulid))) throw new NotFoundError(`Project "${key}" not found.`);
      await audit.commit(trx, { action: 'project.deleted', ...projectSubject(project), changes: { before: project } });
    });
  }
}

/**
 * Deleting a project deletes its environments, so one that holds environments requiring typed
 * confirmation is refused to tokens and needs the project's key typed in the console.
 */
function confirmedDeletion(project: Pick<Project, 'key'>, protectedKeys: string[], by: EnvironmentConfirmation): void {
  if (protectedKeys.length === 0) return;
  const which = protectedKeys.map((k) => `"${k}"`).join(', ');
  if (!by.console) {
    throw new UnprocessableError(
      `The project "${project.key}" holds environments that require typed confirmation (${which}); delete it in the web console.`,
    ).withCode('confirmation_required');
  }
  if (by.confirmation !== project.key) {
    throw ValidationError.field(
      'confirmation',
      `Type the project's key "${project.key}" to confirm deleting it with its environments that require typed confirmation (${which}).`,
      'confirmation_required',
    );
  }
}
