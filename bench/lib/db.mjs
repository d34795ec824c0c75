/** Direct database access from the benchmark process (bulk seeding only), through Knex. */
import knexFactory from 'knex';

export function openKnex(database) {
  if (database.dialect === 'sqlite') {
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename: database.file },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn, done) => {
          conn.pragma('journal_mode = WAL');
          conn.pragma('busy_timeout = 10000');
          done(null, conn);
        },
      },
    });
  }
  return knexFactory({
    client: 'mysql2',
    connection: { uri: database.url, dateStrings: true, supportBigNumbers: true, charset: 'utf8mb4' },
    pool: { min: 0, max: 2 },
  });
}

/**
 * Inserts rows in batches inside one transaction. SQLite caps one statement at 500 compound
 * SELECT terms (Knex writes multi-row inserts as UNION ALL) and 32,766 bound variables.
 */
export async function batchInsert(knex, dialect, table, rows) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]).length;
  const batch = dialect === 'sqlite' ? Math.min(400, Math.floor(30_000 / columns)) : 2000;
  await knex.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += batch) await trx(table).insert(rows.slice(i, i + batch));
  });
}
