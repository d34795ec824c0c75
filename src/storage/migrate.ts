import type { Knex } from 'knex';
import { migrations } from '../../db/migrations/index.js';
import type { Logger } from 'pino';
import { StartupError } from '../startup-error.js';
import { withoutQueryTimeout } from './database.js';
import { isUniqueViolation } from './db-errors.js';
import { isSqliteBusy } from './sqlite-lock-wait.js';

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`Unknown migration ${name}`);
    return migration;
  },
};

export interface MigrationWait {
  /** How long a start waits for another instance's migration before it gives up. */
  lockWaitMs: number;
  /** How often it tries again meanwhile. */
  pollMs: number;
}

const defaultWait: MigrationWait = { lockWaitMs: 10 * 60_000, pollMs: 250 };

/**
 * Another process holds Knex's migration lock, or created Knex's own bookkeeping tables or lock
 * row at the same moment as this one: either way, trying again shortly succeeds (as a no-op once
 * the other process has migrated).
 */
export function isConcurrentMigration(error: unknown): boolean {
  const e = error as { name?: string; code?: string; message?: string; sql?: string };
  if (e?.name === 'MigrationLocked') return true;
  // Only on Knex's own tables: a migration of ours failing this way is a real failure.
  const onKnexTables = /knex_migrations/.test(`${e?.sql ?? ''} ${e?.message ?? ''}`);
  const tableExists =
    e?.code === 'ER_TABLE_EXISTS_ERROR' ||
    (e?.code === 'SQLITE_ERROR' && /already exists/.test(e.message ?? '')) ||
    // PostgreSQL: duplicate_table; two CREATE TABLEs at once may also meet in the catalog's
    // unique index of type names (a unique violation, below).
    e?.code === '42P07';
  return onKnexTables && (tableExists || isUniqueViolation(error));
}

/**
 * Knex inserts its one lock row when it finds the lock table empty, so two processes creating the
 * table at once can insert a row each; the lock then never works (taking it must change exactly
 * one row). With more than one row and none taken, nobody can hold the lock: the extra rows go.
 */
async function removeDuplicateLockRows(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('knex_migrations_lock'))) return;
  const rows: Array<{ index: number; is_locked: number }> = await knex('knex_migrations_lock')
    .select('index', 'is_locked')
    .orderBy('index');
  if (rows.length < 2 || rows.some((row) => Number(row.is_locked) !== 0)) return;
  await knex('knex_migrations_lock').whereNot('index', rows[0]!.index).andWhere('is_locked', 0).delete();
}

/**
 * Migrations the database records as run that this build does not know: a newer Vexil migrated it.
 * Knex would refuse them too, but as "The migration directory is corrupt".
 */
async function migrationsUnknownHere(knex: Knex): Promise<string[]> {
  if (!(await knex.schema.hasTable('knex_migrations'))) return [];
  const rows: Array<{ name: string }> = await knex('knex_migrations').select('name');
  return rows
    .map((row) => row.name)
    .filter((name) => !Object.hasOwn(migrations, name))
    .sort();
}

function migratedByNewerVexil(unknown: readonly string[]): StartupError {
  const list = unknown.length === 1 ? `migration ${unknown[0]}` : `migrations ${unknown.join(', ')}`;
  return new StartupError(
    `the database was migrated by a newer Vexil: it has run ${list}, which this version does not know; ` +
      'start that version (or a later one) on it, or restore a backup taken before the upgrade',
  );
}

/** Knex's refusal of a completed migration missing from the list (a newer instance migrated meanwhile). */
function isUnknownCompletedMigration(error: unknown): boolean {
  return /migration directory is corrupt/i.test((error as { message?: string })?.message ?? '');
}

/**
 * Brings the schema up to date. Knex's lock keeps concurrent starts from migrating twice, but
 * refuses at once when the lock is taken; so a start that meets another instance's migration
 * waits for it (saying so once), then finds nothing left to do. A database a newer Vexil migrated
 * is refused with one line naming the migrations this version does not know.
 */
export async function migrateToLatest(knex: Knex, logger: Logger, wait: MigrationWait = defaultWait): Promise<void> {
  const started = Date.now();
  let waiting = false;
  const unknown = await migrationsUnknownHere(knex);
  if (unknown.length > 0) throw migratedByNewerVexil(unknown);
  for (;;) {
    try {
      // A migration may rewrite a large table: the per-query time limit does not apply to it.
      await withoutQueryTimeout(knex, () => knex.migrate.latest({ migrationSource: source }));
      return;
    } catch (error) {
      if (isUnknownCompletedMigration(error)) {
        const unknownNow = await migrationsUnknownHere(knex);
        if (unknownNow.length > 0) throw migratedByNewerVexil(unknownNow);
      }
      // On SQLite another instance's migration may also show as a busy database: Knex's migrator
      // runs its transactions on its own Knex instance, outside the asynchronous lock wait.
      if (!isConcurrentMigration(error) && !isSqliteBusy(error)) throw error;
      await removeDuplicateLockRows(knex);
      if (Date.now() - started >= wait.lockWaitMs) {
        throw new StartupError(
          `the schema migration lock is still taken after ${Math.round(wait.lockWaitMs / 1000)} s: another instance is migrating, ` +
            'or one stopped during a migration; when no instance is running, release it with UPDATE knex_migrations_lock SET is_locked = 0',
        );
      }
      if (!waiting) logger.info('another instance is migrating the schema; waiting for it to finish');
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, wait.pollMs));
    }
  }
}
