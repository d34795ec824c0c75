import type { Knex } from 'knex';

/**
 * Weighted splits of a rule or of a target's base (specs/management.yaml, schema Split): one
 * `splits` row per rule or target that has one (its bucketing attribute), and its values with
 * their weights in `split_shares`, in their configured order. `owner_ulid` is a rule's or a
 * target's ulid; the stores remove a split with its owner. A share's value cascades like the
 * rule's and target's own value (the service refuses to delete a value in use).
 */
export async function up(knex: Knex): Promise<void> {
  // MySQL/MariaDB: exact comparison of text, and the collation of the ulids they reference
  // (0012_binary_collation); SQLite compares exactly already.
  const mysql = knex.client.config.client === 'mysql2';
  const binary = (t: Knex.CreateTableBuilder): void => {
    if (!mysql) return;
    t.charset('utf8mb4');
    t.collate('utf8mb4_bin');
  };
  await knex.schema.createTable('splits', (t) => {
    binary(t);
    t.string('owner_ulid', 40).primary();
    t.string('attribute', 200).nullable();
  });
  await knex.schema.createTable('split_shares', (t) => {
    binary(t);
    t.string('owner_ulid', 40).notNullable().references('splits.owner_ulid').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('value_ulid', 40).notNullable().references('flag_values.ulid').onDelete('CASCADE');
    t.integer('weight').notNullable();
    t.primary(['owner_ulid', 'position']);
    t.index(['value_ulid']);
  });
  // Exposure counts: per environment, flag, UTC day and served variant, a distinct-count sketch
  // of the contexts that received it (src/runtime/distinct-sketch.ts), merged by every flush.
  await knex.schema.createTable('split_exposures', (t) => {
    binary(t);
    t.string('environment_ulid', 40).notNullable().references('environments.ulid').onDelete('CASCADE');
    t.string('flag_ulid', 40).notNullable().references('flags.ulid').onDelete('CASCADE');
    t.string('day', 10).notNullable();
    // Variants are display forms of up to 64 KB: the key holds their SHA-256.
    t.string('variant_digest', 64).notNullable();
    t.text('variant', 'mediumtext').notNullable();
    t.text('registers').notNullable();
    t.string('updated_at', 24).notNullable();
    t.primary(['environment_ulid', 'flag_ulid', 'day', 'variant_digest']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('split_exposures');
  await knex.schema.dropTable('split_shares');
  await knex.schema.dropTable('splits');
}
