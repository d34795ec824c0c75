import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import type { Db } from '../../storage/db.js';

/** An environment as the API shows it (specs/management.yaml, schema Environment). */
export interface Environment {
  ulid: string;
  key: string;
  name: string;
  description: string | null;
  color: string;
  comments_required: boolean;
  confirmation_required: boolean;
  created_at: string;
  updated_at: string;
}

export interface EnvironmentRecord extends Environment {
  project_ulid: string;
}

export type EnvironmentPatch = Partial<
  Pick<Environment, 'name' | 'description' | 'color' | 'comments_required' | 'confirmation_required'>
> & { updated_at: string };

export interface EnvironmentStore {
  listPage(db: Db, projectUlid: string, page: PageRequest, visible: string[] | null): Promise<Page<Environment>>;
  ulidsOfProject(db: Db, projectUlid: string): Promise<string[]>;
  /** Keys of the project's environments whose stored `confirmation_required` is true, in key order. */
  keysRequiringConfirmation(db: Db, projectUlid: string): Promise<string[]>;
  findByKey(db: Db, projectUlid: string, key: string): Promise<EnvironmentRecord | undefined>;
  /** Throws a field-keyed 422 on `key` when the project has an environment with that key. */
  insert(trx: Knex.Transaction, environment: EnvironmentRecord): Promise<void>;
  update(trx: Knex.Transaction, ulid: string, patch: EnvironmentPatch): Promise<boolean>;
  /** Deletes the environment and, by cascade, its targets, keys and insights. */
  delete(trx: Knex.Transaction, ulid: string): Promise<boolean>;
}

/** Cursors of one project's environment list are refused by every other list. */
export function environmentListName(projectUlid: string): string {
  return `environments:${projectUlid}`;
}
