import type { ResourceAccess } from '../../src/auth/principal.js';
import type { EnvironmentRef, FlagRef, LookupStore, ProjectRef } from '../../src/features/shared/lookup.js';
import { NotFoundError } from '../../src/http/errors.js';
import type { Db } from '../../src/storage/db.js';

/** The rows a fake store keeps that the lookups read. */
export interface LookupRows {
  projects: ProjectRef[];
  environments?: EnvironmentRef[];
  flags?: FlagRef[];
}

/** In-memory LookupStore over a fake store's rows (read at each call, so a rolled-back state is seen). */
export class FakeLookupStore implements LookupStore {
  constructor(private readonly rows: () => LookupRows) {}

  async findProject(_db: Db, access: ResourceAccess, projectKey: string): Promise<ProjectRef> {
    const project = this.rows().projects.find((p) => p.key === projectKey);
    if (!project || !access.canSeeProject(project.ulid)) throw new NotFoundError(`Project "${projectKey}" not found.`);
    return { ...project };
  }

  async findEnvironment(_db: Db, access: ResourceAccess, project: ProjectRef, environmentKey: string): Promise<EnvironmentRef> {
    const environment = (this.rows().environments ?? []).find((e) => e.project_ulid === project.ulid && e.key === environmentKey);
    if (!environment || !access.canSeeEnvironment(project.ulid, environment.ulid)) {
      throw new NotFoundError(`Environment "${environmentKey}" not found.`);
    }
    return { ...environment };
  }

  async findFlag(_db: Db, project: ProjectRef, flagKey: string): Promise<FlagRef> {
    const flag = (this.rows().flags ?? []).find((f) => f.project_ulid === project.ulid && f.key === flagKey);
    if (!flag) throw new NotFoundError(`Flag "${flagKey}" not found.`);
    return { ...flag };
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
