import type { Knex } from 'knex';

/**
 * Prerequisites of a target: flags of the same project that must serve one of the listed
 * values (value ulids, a JSON array) for the target to apply. A flag that targets of other flags
 * require cannot be deleted while those targets are not expired (the service refuses it); rows
 * of expired targets go with the required flag.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('target_prerequisites', (t) => {
    if (mysql) {
      // Named here too: its foreign keys need the collation of the binary tables they reference.
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    t.string('target_ulid', 40).notNullable().references('targets.ulid').onDelete('CASCADE');
    t.string('required_flag_ulid', 40).notNullable().references('flags.ulid').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('value_ulids').notNullable();
    t.primary(['target_ulid', 'required_flag_ulid']);
    t.index(['required_flag_ulid']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('target_prerequisites');
}
