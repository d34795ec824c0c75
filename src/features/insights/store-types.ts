import type { Db } from '../../storage/db.js';

/** A flag's telemetry row in one environment (flag_telemetry). */
export interface FlagTelemetryRecord {
  last_retrieved_at: string | null;
  last_used_at: string | null;
  last_evaluated_at: string | null;
  /** Set by nobody today; kept in the maximum with the derived change times. */
  last_updated_at: string | null;
  retrieved_count: number;
  used_count: number;
  evaluated_count: number;
}

export interface ProjectFlagRecord {
  ulid: string;
  key: string;
  name: string;
  permanent: boolean;
  created_at: string;
  updated_at: string;
}

export interface DefaultReportRecord {
  kind: 'missing_default' | 'unknown_flag';
  flag_key: string;
  declared_type: 'boolean' | 'number' | 'string' | 'json' | null;
  count: number;
  last_seen_at: string;
}

export interface ContextObservationRecord {
  kind: 'type' | 'attribute' | 'value';
  name: string;
  value: string;
  count: number;
}

/** A stored exposure sketch of one day and variant (split_exposures). */
export interface ExposureRecord {
  day: string;
  variant: string;
  /** The sketch's registers, as stored (src/runtime/distinct-sketch.ts). */
  registers: string;
}

/** Evaluations of one UTC hour that served one value (evaluation_hours). */
export interface EvaluationHourRecord {
  hour: string;
  value: string;
  count: number;
}

/** Storage of the insights reads; the path lookups are the shared ones (features/shared/lookup.ts). */
export interface InsightsStore {
  flagTelemetry(db: Db, flagUlid: string, environmentUlid: string): Promise<FlagTelemetryRecord | undefined>;
  /** Last used per flag ulid in the environment (flags never used are absent). */
  lastUsed(db: Db, environmentUlid: string): Promise<Map<string, string | null>>;
  /**
   * The last management change per flag ulid, as the environment sees it: the flag's own
   * updated_at, its values', and its targets' (with their rules) in this environment.
   */
  lastUpdated(db: Db, flagUlids: readonly string[], environmentUlid: string): Promise<Map<string, string>>;
  projectFlags(db: Db, projectUlid: string): Promise<ProjectFlagRecord[]>;
  defaultReports(db: Db, environmentUlid: string): Promise<DefaultReportRecord[]>;
  contextObservations(db: Db, environmentUlid: string): Promise<ContextObservationRecord[]>;
  /** The flag's exposure sketches in the environment from `fromDay` (YYYY-MM-DD) on. */
  exposures(db: Db, flagUlid: string, environmentUlid: string, fromDay: string): Promise<ExposureRecord[]>;
  /** The flag's hourly evaluation counts in the environment from `fromHour` (ISO, start of an hour) on. */
  evaluationHours(db: Db, flagUlid: string, environmentUlid: string, fromHour: string): Promise<EvaluationHourRecord[]>;
}
