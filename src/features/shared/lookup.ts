import type { ResourceAccess } from '../../auth/principal.js';
import type { Db } from '../../storage/db.js';

/**
 * Path resources resolved once per request, with the caller's grants applied: a project or
 * environment the caller may not reach is reported exactly like one that does not exist (404).
 */
export interface ProjectRef {
  ulid: string;
  key: string;
  name: string;
}

export interface EnvironmentRef {
  ulid: string;
  key: string;
  name: string;
  project_ulid: string;
  comments_required: boolean;
  confirmation_required: boolean;
}

export interface FlagRef {
  ulid: string;
  key: string;
  name: string;
  type: 'boolean' | 'number' | 'string' | 'json';
  project_ulid: string;
}

/** The path lookups (SQL in lookup-store.ts); each throws NotFoundError for what is missing or out of reach. */
export interface LookupStore {
  findProject(db: Db, access: ResourceAccess, projectKey: string): Promise<ProjectRef>;
  findEnvironment(db: Db, access: ResourceAccess, project: ProjectRef, environmentKey: string): Promise<EnvironmentRef>;
  findFlag(db: Db, project: ProjectRef, flagKey: string): Promise<FlagRef>;
  /** Project, flag and environment of a `/projects/{p}/flags/{f}/environments/{e}` path. */
  findFlagEnvironment(
    db: Db,
    access: ResourceAccess,
    params: { projectKey: string; flagKey: string; environmentKey: string },
  ): Promise<{ project: ProjectRef; flag: FlagRef; environment: EnvironmentRef }>;
}

/** Stored booleans come back as 0/1 (SQLite, MySQL tinyint); the API speaks true/false. */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}
