import type { Knex } from 'knex';
import type { ResourceAccess } from '../../auth/principal.js';
import type { ResolvedTarget, TargetPath } from '../rules/store-types.js';
import type { Db } from '../../storage/db.js';

/** One prerequisite of a target, as stored and shown (specs/management.yaml, schema Prerequisite). */
export interface PrerequisiteRecord {
  flag_key: string;
  flag_ulid: string;
  value_ulids: string[];
}

/** "Flag `from` requires flag `to`" through a target of `from` that is not expired. */
export interface PrerequisiteEdge {
  from: string;
  to: string;
}

/** Each method takes the `Db` it runs on: the pool for reads, the service's transaction for writes. */
export interface PrerequisitesStore {
  /** Project, flag, environment and target of the path (404 for any missing); `lock` takes the target's row lock (in a transaction). */
  resolveTarget(db: Db, access: ResourceAccess, path: TargetPath, options?: { lock?: boolean }): Promise<ResolvedTarget>;
  /** The target's prerequisites in the order they are checked. */
  list(db: Db, targetUlid: string): Promise<PrerequisiteRecord[]>;
  /** Ulids of the project's flags with these keys (absent keys are left out). */
  findFlags(trx: Knex.Transaction, projectUlid: string, keys: readonly string[]): Promise<Map<string, string>>;
  /** Which of `valueUlids` are values of the flag. */
  valuesOfFlag(trx: Knex.Transaction, flagUlid: string, valueUlids: readonly string[]): Promise<Set<string>>;
  /** Edges of every draft, scheduled or published target of the environment, except those of `exceptTarget`. */
  edges(trx: Knex.Transaction, environmentUlid: string, exceptTarget: string): Promise<PrerequisiteEdge[]>;
  /** Replaces the target's prerequisites. */
  replace(trx: Knex.Transaction, targetUlid: string, list: readonly PrerequisiteRecord[]): Promise<void>;
}
