import type { Knex } from 'knex';

/**
 * Webhook subscriptions and their outbox. An event row is written in the transaction of the
 * change it announces, so no committed change is without its event; the row doubles as the
 * delivery log. `locked_until` is the lease of the instance delivering it right now.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.string('ulid', 40).primary();
    t.string('project_ulid', 40).notNullable().references('projects.ulid').onDelete('CASCADE');
    t.string('url', 2000).notNullable();
    t.text('events').notNullable();
    t.text('environments').notNullable();
    t.text('description').nullable();
    t.boolean('enabled').notNullable();
    // Needed in clear to sign (HMAC); never returned after creation and never logged.
    t.string('secret', 100).notNullable();
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.string('disabled_reason', 500).nullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.index(['project_ulid']);
  });
  await knex.schema.createTable('webhook_events', (t) => {
    t.string('ulid', 40).primary();
    t.string('webhook_ulid', 40).notNullable().references('webhooks.ulid').onDelete('CASCADE');
    t.string('event_type', 64).notNullable();
    t.text('payload', 'mediumtext').notNullable();
    t.string('status', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('next_attempt_at', 24).nullable();
    t.string('locked_until', 24).nullable();
    t.integer('last_status_code').nullable();
    t.string('last_error', 500).nullable();
    t.integer('last_duration_ms').nullable();
    t.string('delivered_at', 24).nullable();
    t.string('created_at', 24).notNullable();
    t.index(['webhook_ulid', 'status', 'ulid']);
    t.index(['status', 'next_attempt_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_events');
  await knex.schema.dropTable('webhooks');
}
