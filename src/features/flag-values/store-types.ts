import type { Knex } from 'knex';
import type { Db } from '../../storage/db.js';

/** A flag value as stored: display already normalised (display.ts), booleans mapped from 0/1. */
export interface FlagValueRecord {
  ulid: string;
  flag_ulid: string;
  display: string;
  display_digest: string;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

/** What still points at a value: targets (any status) and rules, with their environments. */
export interface ValueUsage {
  targets: Array<{ status: string; environment_key: string; environment_ulid: string }>;
  rules: Array<{ target_status: string; environment_key: string; environment_ulid: string }>;
  /** Draft, scheduled or published targets of other flags whose prerequisites list the value. */
  prerequisites: Array<{ flag_key: string; environment_key: string; environment_ulid: string }>;
}

/** Each method takes the `Db` it runs on: the pool for reads, the service's transaction for writes. */
export interface FlagValueStore {
  /** The flag's values in creation order. */
  listValues(db: Db, flagUlid: string): Promise<FlagValueRecord[]>;
  /**
   * Locks the flag row until the transaction ends (MySQL), so value changes of one flag run one
   * after the other. False when the flag no longer exists.
   */
  lockFlag(trx: Knex.Transaction, flagUlid: string): Promise<boolean>;
  hasDefault(trx: Knex.Transaction, flagUlid: string): Promise<boolean>;
  /** The value, locked against concurrent changes. */
  findValue(trx: Knex.Transaction, flagUlid: string, valueUlid: string): Promise<FlagValueRecord | undefined>;
  /** ValidationError keyed on `display` when the flag already holds an equal value. */
  insertValue(trx: Knex.Transaction, value: FlagValueRecord): Promise<void>;
  /** Same refusal as insertValue. */
  updateDisplay(trx: Knex.Transaction, valueUlid: string, display: string, digest: string, updatedAt: string): Promise<void>;
  /** Makes `valueUlid` the flag's only default. */
  setDefault(trx: Knex.Transaction, flagUlid: string, valueUlid: string, updatedAt: string): Promise<void>;
  /** Read with row locks, so no target or rule can start pointing at the value meanwhile. */
  usage(trx: Knex.Transaction, valueUlid: string): Promise<ValueUsage>;
  deleteValue(trx: Knex.Transaction, valueUlid: string): Promise<void>;
  /** Bumps every environment of the project, recording the flags the change concerns. */
  bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string, flagUlids: readonly string[]): Promise<void>;
}
