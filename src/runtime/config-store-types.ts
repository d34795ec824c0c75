import type { FlagType } from '../engine/index.js';
import type { SplitRecord } from '../features/shared/splits.js';
import type { Db } from '../storage/db.js';

/**
 * The rows the config loader reads (config-store.ts) and compiles (config-compiler.ts), as the
 * drivers return them: booleans as 0/1 or true, counters as numbers or strings, JSON as text.
 */
export interface FlagRow {
  ulid: string;
  key: string;
  name: string;
  type: FlagType;
  include_in_mobile: unknown;
  include_in_client: unknown;
}

export interface ValueRow {
  ulid: string;
  flag_ulid: string;
  display: string;
  is_default: unknown;
}

export interface TargetRow {
  ulid: string;
  flag_ulid: string;
  value_ulid: string;
  status: string;
  published_at: string | null;
  rollout_percentage: number | string | null;
  rollout_status: string | null;
}

export interface RuleRow {
  ulid: string;
  target_ulid: string;
  value_ulid: string;
  position: number | string;
}

export interface CriterionRow {
  rule_ulid: string;
  selector: string;
  sub_selector: string | null;
  comparer: string;
  position: number | string;
  values: string;
}

export interface SegmentRow {
  ulid: string;
  key: string;
  included: string;
  excluded: string;
  rules: string;
}

export interface EnvironmentRow {
  ulid: string;
  key: string;
  project_ulid: string;
  revision: number | string;
}

/** A prerequisite of a target: the required flag's key and type, and its listed value ulids (JSON text). */
export interface PrerequisiteRow {
  target_ulid: string;
  position: number | string;
  key: string;
  type: FlagType;
  value_ulids: string;
}

/** A revision_changes row: the revision and the flag it changed (null: not a flag, e.g. a segment). */
export interface RevisionChangeRow {
  revision: number | string | null;
  flag_ulid: string | null;
}

/**
 * The reads that build an environment's configuration. Each takes the `Db` it runs on: the pool,
 * or the read transaction a MySQL load runs in. Lists of ulids are read in chunks.
 */
export interface ConfigStore {
  /** Every environment's revision. */
  revisions(db: Db): Promise<Array<{ ulid: string; revision: number }>>;
  revisionOf(db: Db, environmentUlid: string): Promise<number | undefined>;
  environment(db: Db, environmentUlid: string): Promise<EnvironmentRow | undefined>;
  /** The project's flags (unordered). */
  projectFlags(db: Db, projectUlid: string): Promise<FlagRow[]>;
  /** Those of these flags that are the project's (unordered). */
  flagsOf(db: Db, projectUlid: string, flagUlids: readonly string[]): Promise<FlagRow[]>;
  /** The values of every flag of the project. */
  projectValues(db: Db, projectUlid: string): Promise<ValueRow[]>;
  /** The values of these flags. */
  valuesOfFlags(db: Db, flagUlids: readonly string[]): Promise<ValueRow[]>;
  /** These values. */
  values(db: Db, valueUlids: readonly string[]): Promise<ValueRow[]>;
  /** The display forms of these values. */
  valueDisplays(db: Db, valueUlids: readonly string[]): Promise<Array<{ ulid: string; display: string }>>;
  /** The published targets of the environment: of every flag, or (`flagUlids`) of these flags. */
  publishedTargets(db: Db, environmentUlid: string, flagUlids?: readonly string[]): Promise<TargetRow[]>;
  /** The newest target of the flag already expired that was published at or before `serving` (not itself). */
  expiredBefore(db: Db, environmentUlid: string, flagUlid: string, serving: TargetRow): Promise<TargetRow | undefined>;
  rules(db: Db, targetUlids: readonly string[]): Promise<RuleRow[]>;
  criteria(db: Db, ruleUlids: readonly string[]): Promise<CriterionRow[]>;
  /** The splits of these targets and rules, by owner. */
  splits(db: Db, ownerUlids: readonly string[]): Promise<Map<string, SplitRecord>>;
  prerequisites(db: Db, targetUlids: readonly string[]): Promise<PrerequisiteRow[]>;
  /** The project's segments (unordered). */
  segments(db: Db, projectUlid: string): Promise<SegmentRow[]>;
  /** The newest revision up to `revision` of each flag (and of the flagless rows), one row each. */
  latestChanges(db: Db, environmentUlid: string, revision: number): Promise<RevisionChangeRow[]>;
  /** The revision_changes rows after `since` up to `revision`. */
  changesBetween(db: Db, environmentUlid: string, since: number, revision: number): Promise<RevisionChangeRow[]>;
  /** Whether a published (or expired) target of the environment has a prerequisite on one of these flags. */
  requiredByPublished(db: Db, environmentUlid: string, flagUlids: readonly string[]): Promise<boolean>;
}
