import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Dialect } from './storage/database.js';

/** What every feature is built from (composition-root.ts). */
export interface CoreDeps {
  config: Config;
  knex: Knex;
  dialect: Dialect;
  clock: Clock;
  logger: Logger;
}

/** Something that runs in the background while the server is up (pollers, scheduler, flushers). */
export interface BackgroundTask {
  name: string;
  start(): void;
  /** Stops and flushes; resolves when done. */
  stop(): Promise<void>;
  /**
   * Set on tasks that keep connections open until stopped (event streams): a stopping server
   * stops them before it waits for its open requests, the rest after.
   */
  holdsConnections?: boolean;
}
