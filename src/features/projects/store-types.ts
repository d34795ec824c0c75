import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import type { Db } from '../../storage/db.js';

/** A project as the API shows it (specs/management.yaml, schema Project). */
export interface Project {
  ulid: string;
  key: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface ProjectStore {
  /** A page in ulid order; `visible` (when not null) limits the list to those ulids. */
  listPage(db: Db, page: PageRequest, visible: string[] | null): Promise<Page<Project>>;
  allUlids(db: Db): Promise<string[]>;
  findByKey(db: Db, key: string): Promise<Project | undefined>;
  /** Throws a field-keyed 422 on `key` when the key is taken. */
  insert(trx: Knex.Transaction, project: Project): Promise<void>;
  /** False when the project is gone. */
  update(trx: Knex.Transaction, ulid: string, patch: Pick<Project, 'name' | 'description' | 'updated_at'>): Promise<boolean>;
  /** Deletes the project and, by cascade, everything in it. False when it was gone already. */
  delete(trx: Knex.Transaction, ulid: string): Promise<boolean>;
}

export const projectListName = 'projects';
