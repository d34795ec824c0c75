import { deleteSplitsOfTargets } from '../shared/split-store.js';
import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateByUlid } from '../../storage/paginate-by-ulid.js';
import { NotFoundError } from '../../http/errors.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import { bool } from '../shared/lookup.js';
import type { Db } from '../../storage/db.js';
import { keyTaken } from '../projects/store.js';
import {
  environmentListName,
  type Environment,
  type EnvironmentPatch,
  type EnvironmentRecord,
  type EnvironmentStore,
} from './store-types.js';

const columns = [
  'ulid',
  'project_ulid',
  'key',
  'name',
  'description',
  'color',
  'comments_required',
  'confirmation_required',
  'created_at',
  'updated_at',
] as const;

export class KnexEnvironmentStore implements EnvironmentStore {
  async listPage(db: Db, projectUlid: string, page: PageRequest, visible: string[] | null): Promise<Page<Environment>> {
    const query = db('environments')
      .where('project_ulid', projectUlid)
      .select(...columns);
    if (visible !== null) query.whereIn('ulid', visible);
    return paginateByUlid(query, 'ulid', environmentListName(projectUlid), page, (row) => toEnvironment(toRecord(row)));
  }

  async ulidsOfProject(db: Db, projectUlid: string): Promise<string[]> {
    const rows: Array<{ ulid: string }> = await db('environments').where('project_ulid', projectUlid).select('ulid');
    return rows.map((r) => r.ulid);
  }

  async keysRequiringConfirmation(db: Db, projectUlid: string): Promise<string[]> {
    const rows: Array<{ key: string }> = await db('environments')
      .where({ project_ulid: projectUlid, confirmation_required: true })
      .orderBy('key')
      .select('key');
    return rows.map((r) => r.key);
  }

  async findByKey(db: Db, projectUlid: string, key: string): Promise<EnvironmentRecord | undefined> {
    const row = await db('environments')
      .where({ project_ulid: projectUlid, key })
      .first(...columns);
    return row ? toRecord(row) : undefined;
  }

  async insert(trx: Knex.Transaction, environment: EnvironmentRecord): Promise<void> {
    await translateStorageErrors(
      async () => {
        // revision starts at 1 (the column default).
        await trx('environments').insert({
          ...environment,
          comments_required: environment.comments_required ? 1 : 0,
          confirmation_required: environment.confirmation_required ? 1 : 0,
        });
      },
      {
        unique_violation: keyTaken,
        // The project was deleted by a request that committed first.
        foreign_key_violation: () => new NotFoundError('Project not found.'),
      },
    );
  }

  async update(trx: Knex.Transaction, ulid: string, patch: EnvironmentPatch): Promise<boolean> {
    const row: Record<string, unknown> = { ...patch };
    if (patch.comments_required !== undefined) row.comments_required = patch.comments_required ? 1 : 0;
    if (patch.confirmation_required !== undefined) row.confirmation_required = patch.confirmation_required ? 1 : 0;
    return (await trx('environments').where('ulid', ulid).update(row)) > 0;
  }

  async delete(trx: Knex.Transaction, ulid: string): Promise<boolean> {
    // Targets and rules go by cascade; their splits have no foreign key to them.
    await deleteSplitsOfTargets(trx, (db) => db('targets').select('ulid').where('environment_ulid', ulid));
    return (await trx('environments').where('ulid', ulid).delete()) > 0;
  }
}

function toRecord(row: Record<string, unknown>): EnvironmentRecord {
  return {
    ulid: String(row.ulid),
    project_ulid: String(row.project_ulid),
    key: String(row.key),
    name: String(row.name),
    description: row.description === null || row.description === undefined ? null : String(row.description),
    color: String(row.color),
    comments_required: bool(row.comments_required),
    confirmation_required: bool(row.confirmation_required),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export function toEnvironment(record: EnvironmentRecord): Environment {
  const { project_ulid: _project, ...environment } = record;
  return environment;
}
