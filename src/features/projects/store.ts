import { deleteSplitsOfTargets } from '../shared/split-store.js';
import type { Knex } from 'knex';
import { ValidationError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateByUlid } from '../../storage/paginate-by-ulid.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import type { Db } from '../../storage/db.js';
import { projectListName, type Project, type ProjectStore } from './store-types.js';

const columns = ['ulid', 'key', 'name', 'description', 'created_at', 'updated_at'] as const;

export function keyTaken(): ValidationError {
  return ValidationError.field('key', 'The key has already been taken.', 'already_exists');
}

export class KnexProjectStore implements ProjectStore {
  async listPage(db: Db, page: PageRequest, visible: string[] | null): Promise<Page<Project>> {
    const query = db('projects').select(...columns);
    if (visible !== null) query.whereIn('ulid', visible);
    return paginateByUlid(query, 'ulid', projectListName, page, toProject);
  }

  async allUlids(db: Db): Promise<string[]> {
    const rows: Array<{ ulid: string }> = await db('projects').select('ulid');
    return rows.map((r) => r.ulid);
  }

  async findByKey(db: Db, key: string): Promise<Project | undefined> {
    const row = await db('projects')
      .where('key', key)
      .first(...columns);
    return row ? toProject(row) : undefined;
  }

  async insert(trx: Knex.Transaction, project: Project): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('projects').insert(project);
      },
      { unique_violation: keyTaken },
    );
  }

  async update(trx: Knex.Transaction, ulid: string, patch: Pick<Project, 'name' | 'description' | 'updated_at'>): Promise<boolean> {
    return (await trx('projects').where('ulid', ulid).update(patch)) > 0;
  }

  async delete(trx: Knex.Transaction, ulid: string): Promise<boolean> {
    // Targets and rules go by cascade; their splits have no foreign key to them.
    await deleteSplitsOfTargets(trx, (db) =>
      db('targets').select('ulid').whereIn('flag_ulid', db('flags').select('ulid').where('project_ulid', ulid)),
    );
    return (await trx('projects').where('ulid', ulid).delete()) > 0;
  }
}

function toProject(row: Record<string, unknown>): Project {
  return {
    ulid: String(row.ulid),
    key: String(row.key),
    name: String(row.name),
    description: String(row.description ?? ''),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}
