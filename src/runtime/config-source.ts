import type { EnvironmentConfig } from '../engine/index.js';

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
}

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
}
