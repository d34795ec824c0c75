import type { Knex } from 'knex';

/**
 * Console sign-in: an account's password (a scrypt hash with its parameters, never the password)
 * and its sessions (a digest of each session secret, never the secret; the CSRF token is derived
 * from the secret, so nothing else is stored).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.string('password_hash', 300).nullable();
  });
  await knex.schema.createTable('console_sessions', (t) => {
    t.string('ulid', 40).primary();
    t.string('account_ulid', 40).notNullable().references('accounts.ulid').onDelete('CASCADE');
    t.string('digest', 64).notNullable().unique();
    t.string('created_at', 24).notNullable();
    t.string('last_seen_at', 24).notNullable();
    t.string('expires_at', 24).notNullable();
    t.index(['account_ulid']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('console_sessions');
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('password_hash');
  });
}
