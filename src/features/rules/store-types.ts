import type { Knex } from 'knex';
import type { ResourceAccess } from '../../auth/principal.js';
import type { EnvironmentRef, FlagRef, ProjectRef } from '../shared/lookup.js';
import type { SplitRecord } from '../shared/splits.js';
import type { Db } from '../../storage/db.js';
import type { Comparer, Selector } from './criteria.js';

/** `/projects/{p}/flags/{f}/environments/{e}/targets/{t}` */
export interface TargetPath {
  projectKey: string;
  flagKey: string;
  environmentKey: string;
  targetUlid: string;
}

export interface TargetRef {
  ulid: string;
  status: string;
}

export interface ResolvedTarget {
  project: ProjectRef;
  flag: FlagRef;
  environment: EnvironmentRef;
  target: TargetRef;
}

export interface CriterionRecord {
  ulid: string;
  rule_ulid: string;
  selector: Selector;
  sub_selector: string | null;
  comparer: Comparer;
  position: number;
  values: string[];
}

export interface RuleRecord {
  ulid: string;
  target_ulid: string;
  value_ulid: string;
  /** Served instead of value_ulid to contexts with a bucketing value; null: none. */
  split: SplitRecord | null;
  description: string;
  position: number;
  created_at: string;
  updated_at: string;
  /** In position order. */
  criteria: CriterionRecord[];
}

/** A rule row as written (criteria carried separately). */
export type RuleRow = Omit<RuleRecord, 'criteria'>;

/** Each method takes the `Db` it runs on: the pool for reads, the service's transaction for writes. */
export interface RulesStore {
  /**
   * Project, flag, environment (with the caller's grants) and the target of the path; 404
   * (NotFoundError) for any that is missing, unreachable, or (target) of another flag/environment.
   * `lock`: take the target's row lock for the rest of the transaction (when `db` is one).
   */
  resolveTarget(db: Db, access: ResourceAccess, path: TargetPath, options?: { lock?: boolean }): Promise<ResolvedTarget>;
  /** The target's rules in evaluation order (position, then ulid), each with its criteria. */
  listRules(db: Db, targetUlid: string): Promise<RuleRecord[]>;
  /** Whether the value belongs to the flag. */
  flagHasValue(trx: Knex.Transaction, flagUlid: string, valueUlid: string): Promise<boolean>;
  /**
   * Ulids of the project's segments with these keys (missing keys are absent from the map).
   * The rows stay locked, so a racing deleteSegment waits and then sees the new references.
   */
  findSegments(trx: Knex.Transaction, projectUlid: string, keys: readonly string[]): Promise<Map<string, string>>;
  /** Inserts the rule, its split, its criteria and their criterion_segments links. */
  insertRule(trx: Knex.Transaction, rule: RuleRow, criteria: CriterionRecord[], segmentLinks: SegmentLink[]): Promise<void>;
  /** Updates the rule's row and replaces its split and all its criteria (and links). */
  replaceRule(trx: Knex.Transaction, rule: RuleRow, criteria: CriterionRecord[], segmentLinks: SegmentLink[]): Promise<void>;
  /** Removes the rule, its split, its criteria and links. */
  deleteRule(trx: Knex.Transaction, ruleUlid: string): Promise<void>;
  /** Sets positions (and updated_at) of the given rules. */
  setPositions(trx: Knex.Transaction, changes: { ulid: string; position: number }[], updatedAt: string): Promise<void>;
}

export interface SegmentLink {
  criterion_ulid: string;
  segment_ulid: string;
}
