import type { Knex } from 'knex';
import { migrations } from '../../db/migrations/index.js';
import { withoutQueryTimeout } from './database.js';

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`Unknown migration ${name}`);
    return migration;
  },
};

/** Brings the schema up to date. Knex's lock table keeps concurrent starts from migrating twice. */
export async function migrateToLatest(knex: Knex): Promise<void> {
  // A migration may rewrite a large table: the per-query time limit does not apply to it.
  await withoutQueryTimeout(knex, () => knex.migrate.latest({ migrationSource: source }));
}
