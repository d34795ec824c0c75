import type { Knex } from 'knex';

/**
 * Webhook delivery, made safe across instances:
 * - `webhooks.last_sequence` and `webhook_events.sequence`: each subscription numbers its events
 *   while holding its row lock, so the numbers follow commit order (ulids follow instance clocks).
 *   Pings have no sequence: they are not part of the change order.
 * - `webhook_events.lease_token`: the claim of the attempt in progress; a result is recorded only
 *   by the holder of the current claim. `locked_until` is now in database time.
 * - `webhooks.secret_sealed`: the signing secret encrypted (AES-256-GCM); the clear `secret`
 *   column is emptied at start-up (webhooks/secrets.ts), when the key is known.
 * - `secret_keys`: the encryption key generated once when VEXIL_SECRET_KEY is not set, shared
 *   by every instance of the database.
 * - an index for pruning old delivered and failed events.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.bigInteger('last_sequence').notNullable().defaultTo(0);
    t.string('secret_sealed', 400).nullable();
  });
  await knex.schema.alterTable('webhook_events', (t) => {
    t.bigInteger('sequence').nullable();
    t.string('lease_token', 40).nullable();
    t.unique(['webhook_ulid', 'sequence']);
    t.index(['webhook_ulid', 'status', 'sequence']);
    t.index(['status', 'created_at']);
  });
  await knex.schema.createTable('secret_keys', (t) => {
    t.string('name', 40).primary();
    t.string('key_material', 100).notNullable();
    t.string('created_at', 24).notNullable();
  });
  // Existing events keep their ulid order as their sequence.
  const webhooks = (await knex('webhooks').select('ulid')) as Array<{ ulid: string }>;
  for (const { ulid } of webhooks) {
    const events = (await knex('webhook_events').where('webhook_ulid', ulid).orderBy('ulid').select('ulid')) as Array<{ ulid: string }>;
    for (const [index, event] of events.entries()) {
      await knex('webhook_events')
        .where('ulid', event.ulid)
        .update({ sequence: index + 1 });
    }
    await knex('webhooks').where('ulid', ulid).update({ last_sequence: events.length });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('secret_keys');
  await knex.schema.alterTable('webhook_events', (t) => {
    t.dropIndex(['status', 'created_at']);
    t.dropIndex(['webhook_ulid', 'status', 'sequence']);
    t.dropUnique(['webhook_ulid', 'sequence']);
    t.dropColumn('lease_token');
    t.dropColumn('sequence');
  });
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropColumn('secret_sealed');
    t.dropColumn('last_sequence');
  });
}
