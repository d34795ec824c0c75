import type { Clock } from '../../clock.js';
import type { Db } from '../../storage/db.js';
import type { SplitInput } from '../shared/splits.js';
import type { Transactor } from '../shared/transactions.js';
import type { RolloutMode, TargetRecord, TargetStore } from './store-types.js';
import type { LookupStore } from '../shared/lookup.js';

/** What every targets service is built from. */
export interface TargetServiceDeps {
  /** What reads outside a change run on: the pool, or a flags-as-code request's transaction. */
  db: Db;
  /** Every change runs in one transaction, retried on deadlock (a savepoint within flags as code). */
  tx: Transactor;
  store: TargetStore;
  /** Resolves a flag-and-environment path for the caller's access (a 404 for what it cannot see). */
  lookups: LookupStore;
  clock: Clock;
  /** The interval between automatic rollout steps (VEXIL_ROLLOUT_STEP_MS): the scheduler's and the view's. */
  rolloutStepMs: number;
}

/** The flag and environment of a `/projects/{p}/flags/{f}/environments/{e}` path, already resolved. */
export interface FlagEnvironment {
  project: { ulid: string; key: string };
  flag: { ulid: string; key: string };
  environment: { ulid: string; key: string };
}

export interface TargetUpdateInput {
  value_ulid?: string;
  /** Absent: kept; null: removed. */
  split?: SplitInput | null;
  comment?: string | null;
}

/**
 * How a change in a `confirmation_required` environment is confirmed: only a console session
 * may, by typing the environment's key. Absent: a Bearer token (refused there).
 */
export interface Confirmation {
  /** Typed confirmation: the environment's key, typed by a person in the console. */
  confirmation?: string;
  /** The request comes from a console session (the only kind that may confirm by typing). */
  console?: boolean;
}

export interface PublishInput extends Confirmation {
  comment?: string | null;
  scheduled_at?: string | null;
  rollout_enabled?: boolean;
  rollout_mode?: RolloutMode;
  rollout_percentage?: number;
}

export interface RolloutCreateInput extends Confirmation {
  rollout_mode: RolloutMode;
  rollout_percentage?: number;
}

export interface RolloutUpdateInput extends Confirmation {
  action?: 'pause' | 'resume';
  rollout_percentage?: number;
}

/** Outcome of a background (system) action on one target. */
export type SystemOutcome =
  | { kind: 'done'; action: string; target: TargetRecord }
  | { kind: 'skipped' }
  | { kind: 'refused'; message: string };

/** A rollout as a publish or a rollout operation configures it. */
export interface RolloutConfig {
  mode: RolloutMode;
  percentage: number;
}
