import type { ResourceAccess } from '../../auth/principal.js';
import { NotFoundError } from '../../http/errors.js';
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

export async function findProject(db: Db, access: ResourceAccess, projectKey: string): Promise<ProjectRef> {
  const row = await db('projects').where('key', projectKey).first('ulid', 'key', 'name');
  if (!row || !access.canSeeProject(row.ulid)) throw new NotFoundError(`Project "${projectKey}" not found.`);
  return row;
}

export async function findEnvironment(
  db: Db,
  access: ResourceAccess,
  project: ProjectRef,
  environmentKey: string,
): Promise<EnvironmentRef> {
  const row = await db('environments')
    .where({ project_ulid: project.ulid, key: environmentKey })
    .first('ulid', 'key', 'name', 'project_ulid', 'comments_required', 'confirmation_required');
  if (!row || !access.canSeeEnvironment(project.ulid, row.ulid)) {
    throw new NotFoundError(`Environment "${environmentKey}" not found.`);
  }
  return { ...row, comments_required: Boolean(row.comments_required), confirmation_required: Boolean(row.confirmation_required) };
}

export async function findFlag(db: Db, project: ProjectRef, flagKey: string): Promise<FlagRef> {
  const row = await db('flags').where({ project_ulid: project.ulid, key: flagKey }).first('ulid', 'key', 'name', 'type', 'project_ulid');
  if (!row) throw new NotFoundError(`Flag "${flagKey}" not found.`);
  return row;
}

/** Project, flag and environment of a `/projects/{p}/flags/{f}/environments/{e}` path. */
export async function findFlagEnvironment(
  db: Db,
  access: ResourceAccess,
  params: { projectKey: string; flagKey: string; environmentKey: string },
): Promise<{ project: ProjectRef; flag: FlagRef; environment: EnvironmentRef }> {
  const project = await findProject(db, access, params.projectKey);
  const flag = await findFlag(db, project, params.flagKey);
  const environment = await findEnvironment(db, access, project, params.environmentKey);
  return { project, flag, environment };
}

/** Stored booleans come back as 0/1 (SQLite, MySQL tinyint); the API speaks true/false. */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}
