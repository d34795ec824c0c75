import type { RequiringTarget } from '../prerequisites/references-store.js';
import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import type { Db } from '../../storage/db.js';

export type FlagType = 'boolean' | 'number' | 'string' | 'json';
export const flagTypes: readonly FlagType[] = ['boolean', 'number', 'string', 'json'];

/** A flag as stored (booleans already mapped from 0/1). */
export interface FlagRecord {
  ulid: string;
  project_ulid: string;
  key: string;
  name: string;
  type: FlagType;
  description: string | null;
  permanent: boolean;
  include_in_mobile: boolean;
  include_in_client: boolean;
  /** Labels, in the order given (stored as a JSON array). */
  tags: string[];
  created_at: string;
  updated_at: string;
}

/** A flag value row as inserted by flag creation (boolean flags start with `true` and `false`). */
export interface FlagValueInsert {
  ulid: string;
  flag_ulid: string;
  display: string;
  display_digest: string;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

/** The name a project's flag list gives its cursors: a cursor from another list is refused. */
export const flagListName = (projectUlid: string): string => `flags:${projectUlid}`;

export interface FlagListFilter {
  type?: FlagType;
  /** Partial, case-insensitive match on key or name; wildcards in it are literal. */
  search?: string;
  /** Only flags carrying this tag. */
  tag?: string;
}

export type FlagChanges = Partial<
  Pick<FlagRecord, 'name' | 'description' | 'permanent' | 'include_in_mobile' | 'include_in_client' | 'tags' | 'updated_at'>
>;

/** Each method takes the `Db` it runs on: the pool for reads, the service's transaction for writes. */
export interface FlagStore {
  listFlags(db: Db, projectUlid: string, filter: FlagListFilter, page: PageRequest): Promise<Page<FlagRecord>>;
  findFlag(db: Db, projectUlid: string, key: string): Promise<FlagRecord | undefined>;
  /** ValidationError keyed on `key` when the project already has a flag with that key. */
  insertFlag(trx: Knex.Transaction, flag: FlagRecord): Promise<void>;
  insertValues(trx: Knex.Transaction, values: FlagValueInsert[]): Promise<void>;
  /** The flag, locked against concurrent changes until the transaction ends (MySQL). */
  lockFlag(trx: Knex.Transaction, projectUlid: string, key: string): Promise<FlagRecord | undefined>;
  /** The flags of those keys that exist, locked. */
  lockFlags(trx: Knex.Transaction, projectUlid: string, keys: string[]): Promise<FlagRecord[]>;
  updateFlag(trx: Knex.Transaction, ulid: string, changes: FlagChanges): Promise<void>;
  /**
   * For each of these flags that draft, scheduled or published targets of other flags (not
   * among them) require: those flags and environments (features/prerequisites).
   */
  requiredBy(trx: Knex.Transaction, ulids: readonly string[]): Promise<Map<string, RequiringTarget[]>>;
  /** Removes the flags with their values, targets, rules, criteria and telemetry. */
  deleteFlags(trx: Knex.Transaction, ulids: string[]): Promise<void>;
  /** Bumps every environment of the project, recording the flags the change concerns. */
  bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string, flagUlids: readonly string[]): Promise<void>;
}
