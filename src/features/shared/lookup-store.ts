import type { ResourceAccess } from '../../auth/principal.js';
import { NotFoundError } from '../../http/errors.js';
import type { Db } from '../../storage/db.js';
import type { EnvironmentRef, FlagRef, LookupStore, ProjectRef } from './lookup.js';

/** The SQL of the path lookups; the composition root hands one to the features that resolve paths. */
export class KnexLookupStore implements LookupStore {
  async findProject(db: Db, access: ResourceAccess, projectKey: string): Promise<ProjectRef> {
    const row = await db('projects').where('key', projectKey).first('ulid', 'key', 'name');
    if (!row || !access.canSeeProject(row.ulid)) throw new NotFoundError(`Project "${projectKey}" not found.`);
    return row;
  }

  async findEnvironment(db: Db, access: ResourceAccess, project: ProjectRef, environmentKey: string): Promise<EnvironmentRef> {
    const row = await db('environments')
      .where({ project_ulid: project.ulid, key: environmentKey })
      .first('ulid', 'key', 'name', 'project_ulid', 'comments_required', 'confirmation_required');
    if (!row || !access.canSeeEnvironment(project.ulid, row.ulid)) {
      throw new NotFoundError(`Environment "${environmentKey}" not found.`);
    }
    return { ...row, comments_required: Boolean(row.comments_required), confirmation_required: Boolean(row.confirmation_required) };
  }

  async findFlag(db: Db, project: ProjectRef, flagKey: string): Promise<FlagRef> {
    const row = await db('flags').where({ project_ulid: project.ulid, key: flagKey }).first('ulid', 'key', 'name', 'type', 'project_ulid');
    if (!row) throw new NotFoundError(`Flag "${flagKey}" not found.`);
    return row;
  }

  async findFlagEnvironment(
    db: Db,
    access: ResourceAccess,
    params: { projectKey: string; flagKey: string; environmentKey: string },
  ): Promise<{ project: ProjectRef; flag: FlagRef; environment: EnvironmentRef }> {
    const project = await this.findProject(db, access, params.projectKey);
    const flag = await this.findFlag(db, project, params.flagKey);
    const environment = await this.findEnvironment(db, access, project, params.environmentKey);
    return { project, flag, environment };
  }
}

/** The one instance the stores that resolve a path inside their own queries share (it holds no state). */
export const knexLookups = new KnexLookupStore();
