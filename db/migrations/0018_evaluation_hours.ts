import type { Knex } from 'knex';

/**
 * Evaluations per UTC hour, environment, flag and served value (display form), added up by every
 * telemetry flush. Rows older than the audit retention are deleted by the audit retention task.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('evaluation_hours', (t) => {
    // MySQL/MariaDB: exact comparison of text and the ulids' collation (0012_binary_collation).
    if (mysql) {
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.string('environment_ulid', 40).notNullable().references('environments.ulid').onDelete('CASCADE');
    t.string('flag_ulid', 40).notNullable().references('flags.ulid').onDelete('CASCADE');
    // Start of the hour, ISO 8601 (YYYY-MM-DDTHH:00:00.000Z).
    t.string('hour', 24).notNullable();
    // Values are display forms of up to 64 KB: the key holds their SHA-256.
    t.string('value_digest', 64).notNullable();
    t.text('value', 'mediumtext').notNullable();
    t.bigInteger('count').notNullable();
    t.primary(['environment_ulid', 'flag_ulid', 'hour', 'value_digest']);
    t.index(['hour']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('evaluation_hours');
}
