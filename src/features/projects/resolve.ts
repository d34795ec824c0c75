import type { ResourceAccess } from '../../auth/principal.js';
import { NotFoundError } from '../../http/errors.js';
import type { EnvironmentRecord, EnvironmentStore } from '../environments/store-types.js';
import type { Db } from '../../storage/db.js';
import type { Project, ProjectStore } from './store-types.js';

/**
 * Path resources of the administration features, with the caller's reach applied the way
 * the LookupStore (src/features/shared/lookup-store.ts) does it: a project or environment the caller may not reach is
 * reported exactly like one that does not exist (404), so its existence is not revealed.
 */
export async function resolveProject(db: Db, projects: ProjectStore, access: ResourceAccess, key: string): Promise<Project> {
  const project = await projects.findByKey(db, key);
  if (!project || !access.canSeeProject(project.ulid)) throw new NotFoundError(`Project "${key}" not found.`);
  return project;
}

export async function resolveEnvironment(
  db: Db,
  stores: { projects: ProjectStore; environments: EnvironmentStore },
  access: ResourceAccess,
  projectKey: string,
  environmentKey: string,
): Promise<{ project: Project; environment: EnvironmentRecord }> {
  const project = await resolveProject(db, stores.projects, access, projectKey);
  const environment = await stores.environments.findByKey(db, project.ulid, environmentKey);
  if (!environment || !access.canSeeEnvironment(project.ulid, environment.ulid)) {
    throw new NotFoundError(`Environment "${environmentKey}" not found.`);
  }
  return { project, environment };
}
