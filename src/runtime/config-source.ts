import type { CompiledFlag, EnvironmentConfig } from '../engine/index.js';

/** One environment's published configuration, as the database holds it at one revision. */
export interface LoadedEnvironment {
  environmentUlid: string;
  environmentKey: string;
  projectUlid: string;
  /** The revision read before the configuration (a change racing the load shows up as a newer revision later). */
  revision: number;
  config: EnvironmentConfig;
  /** Flag ulid by flag key (telemetry is stored per flag ulid). */
  flagUlids: ReadonlyMap<string, string>;
  /** When each flag (and the segments) last changed here; absent: nothing recorded, all 0. */
  changes?: ChangeRevisions;
}

/**
 * The newest environment revision that changed each flag (by flag ulid) and the newest that
 * changed the segments (revision_changes): a flag's own revision, which a change to another flag
 * leaves alone. A flag without a recorded change has revision 0.
 */
export interface ChangeRevisions {
  flags: ReadonlyMap<string, number>;
  segments: number;
}

/** A changed flag as loaded now, with the newest revision that changed it. */
export interface ChangedFlag {
  key: string;
  config: CompiledFlag;
  revision: number;
}

/**
 * What changed in an environment since a revision: the changed flags only (each by ulid: its
 * configuration now, or null when it is gone), or the whole environment reloaded.
 */
export type LoadedChanges =
  | { kind: 'full'; loaded: LoadedEnvironment }
  | { kind: 'flags'; environmentUlid: string; revision: number; flags: ReadonlyMap<string, ChangedFlag | null> };

export interface EnvironmentRevision {
  ulid: string;
  revision: number;
}

/**
 * Where snapshots come from: the Knex implementation (config-loader.ts) in the server, an
 * in-memory one in unit tests.
 */
export interface ConfigSource {
  /** Every environment and its current revision (the cheap query the poller runs). */
  listRevisions(): Promise<EnvironmentRevision[]>;
  /** The current revision of one environment; undefined when it does not exist. */
  revisionOf(environmentUlid: string): Promise<number | undefined>;
  /** The environment's published configuration; undefined when it does not exist. */
  load(environmentUlid: string): Promise<LoadedEnvironment | undefined>;
  /** What changed after revision `since`; undefined when the environment does not exist. */
  loadChangesSince(environmentUlid: string, since: number): Promise<LoadedChanges | undefined>;
}
