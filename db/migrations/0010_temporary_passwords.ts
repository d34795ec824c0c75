import type { Knex } from 'knex';

/**
 * Temporary passwords: a password Vexil generated (first start, reset-owner) or one an owner or
 * admin set for someone else is temporary until the person chooses their own. Until then it only
 * lets its holder choose a new password, and it stops working at this time (null: the password
 * is the person's own, or there is none).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.string('password_temporary_until', 24).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('password_temporary_until');
  });
}
