import type { Knex } from 'knex';
import type { Db } from '../../storage/db.js';
import type { SplitRecord } from '../shared/splits.js';

export type TargetStatus = 'draft' | 'scheduled' | 'published' | 'expired';
export type RolloutMode = 'manual' | 'automatic';
export type RolloutStatus = 'active' | 'paused' | 'completed';

/** A `targets` row as the service sees it (booleans and numbers already mapped). */
export interface TargetRecord {
  ulid: string;
  flag_ulid: string;
  environment_ulid: string;
  value_ulid: string;
  status: TargetStatus;
  comment: string | null;
  scheduled_at: string | null;
  published_at: string | null;
  rollout_percentage: number | null;
  rollout_mode: RolloutMode | null;
  rollout_status: RolloutStatus | null;
  /** When the current automatic rollout step started; null while paused, for manual or unpublished rollouts. */
  rollout_step_started_at: string | null;
  created_at: string;
  updated_at: string;
  /**
   * The base split (served instead of value_ulid to contexts with a bucketing value), kept in
   * its own tables; null or absent: none. A patch that names it replaces it.
   */
  split?: SplitRecord | null;
}

export type TargetPatch = Partial<Omit<TargetRecord, 'ulid' | 'flag_ulid' | 'environment_ulid' | 'created_at'>>;

/** The state a conditional update expects to find; the update changes nothing when it does not hold. */
export interface TargetCondition {
  status?: readonly TargetStatus[];
  rollout_status?: readonly (RolloutStatus | null)[];
  /** Optimistic check on the automatic rollout clock. */
  rollout_step_started_at?: string | null;
}

/** Names used in audit labels and paths, for work that runs without a request (scheduler). */
export interface TargetScope {
  target: TargetRecord;
  projectUlid: string;
  projectKey: string;
  flagKey: string;
  environmentKey: string;
}

/** Environment settings read under the flag's target lock. */
export interface LockedEnvironment {
  ulid: string;
  comments_required: boolean;
  confirmation_required: boolean;
}

/**
 * The SQL of targets. Each method takes the database it runs on (src/storage/db.ts): reads the
 * pool or a transaction, changes the transaction the service runs them in (deps.tx).
 */
export interface TargetStore {
  /** Newest first. */
  list(db: Db, flagUlid: string, environmentUlid: string): Promise<TargetRecord[]>;
  find(db: Db, flagUlid: string, environmentUlid: string, targetUlid: string): Promise<TargetRecord | undefined>;
  /**
   * Serialises the target changes of one flag (MySQL/MariaDB and PostgreSQL: SELECT ... FOR UPDATE
   * on the flag's row; SQLite transactions are already serial) and reads the environment's
   * settings; undefined when the flag or the environment is gone. Call it first.
   */
  lockFlagTargets(trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<LockedEnvironment | undefined>;
  /** The target, locked until the transaction ends (MySQL: the latest committed row, whatever the snapshot). */
  findLocked(trx: Knex.Transaction, flagUlid: string, environmentUlid: string, targetUlid: string): Promise<TargetRecord | undefined>;
  /** Published targets of the flag in the environment, newest publish first, locked. */
  listPublished(trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<TargetRecord[]>;
  /** The greatest published_at among the flag's targets in the environment (any status). */
  latestPublishedAt(trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<string | null>;
  insert(trx: Knex.Transaction, record: TargetRecord): Promise<void>;
  /** Updates when the condition holds; false when it does not (or the target is gone). */
  updateIf(trx: Knex.Transaction, targetUlid: string, condition: TargetCondition, patch: TargetPatch): Promise<boolean>;
  deleteIf(trx: Knex.Transaction, targetUlid: string, condition: TargetCondition): Promise<boolean>;
  /** Marks the given published targets expired; an active or paused rollout of one becomes completed. */
  expire(trx: Knex.Transaction, targetUlids: readonly string[], now: string): Promise<void>;
  /** The flag's default value, or undefined when it has none. */
  defaultValueUlid(trx: Knex.Transaction, flagUlid: string): Promise<string | undefined>;
  /** Whether the value is the flag's, row-locked (MySQL) so a racing value deletion waits and sees the reference. */
  valueBelongsToFlag(trx: Knex.Transaction, valueUlid: string, flagUlid: string): Promise<boolean>;
  /** Copies the rules, criteria, criterion_segments rows and splits (the target's and its rules') of one target onto another, with new ulids. */
  copyRules(trx: Knex.Transaction, fromTargetUlid: string, toTargetUlid: string, now: string): Promise<void>;
  /** Bumps the environment's revision, recording the flag the change concerns. */
  bumpRevision(trx: Knex.Transaction, environmentUlid: string, flagUlid: string): Promise<void>;
  /** Scheduled targets whose scheduled_at is at or before `now`, oldest first. */
  dueScheduled(db: Db, now: string, limit: number): Promise<TargetScope[]>;
  /** Published targets with an active automatic rollout whose step started at or before `startedBefore`. */
  dueRolloutSteps(db: Db, startedBefore: string, limit: number): Promise<TargetScope[]>;
  /** Whether the newest audit entry about the target is a refused system action (avoids repeating it). */
  lastSystemFailure(db: Db, targetUlid: string, action: string): Promise<boolean>;
}
