import type { Knex } from 'knex';

/** Timestamps are ISO-8601 UTC text (see docs/architecture.md), identical on both dialects. */
function timestamps(t: Knex.CreateTableBuilder): void {
  t.string('created_at', 24).notNullable();
  t.string('updated_at', 24).notNullable();
}

function ulid(t: Knex.CreateTableBuilder, name = 'ulid'): Knex.ColumnBuilder {
  return t.string(name, 40);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    ulid(t).primary();
    t.string('name', 200).notNullable();
    t.string('email', 320).notNullable().unique();
    t.string('role', 16).notNullable();
    timestamps(t);
  });

  await knex.schema.createTable('projects', (t) => {
    ulid(t).primary();
    t.string('key', 200).notNullable().unique();
    t.string('name', 200).notNullable();
    t.text('description').notNullable();
    timestamps(t);
  });

  await knex.schema.createTable('account_projects', (t) => {
    ulid(t, 'account_ulid').notNullable().references('accounts.ulid').onDelete('CASCADE');
    ulid(t, 'project_ulid').notNullable().references('projects.ulid').onDelete('CASCADE');
    t.primary(['account_ulid', 'project_ulid']);
  });

  await knex.schema.createTable('personal_access_tokens', (t) => {
    ulid(t).primary();
    ulid(t, 'account_ulid').notNullable().references('accounts.ulid').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('digest', 64).notNullable().unique();
    t.string('expires_at', 24).nullable();
    t.string('revoked_at', 24).nullable();
    t.string('last_used_at', 24).nullable();
    timestamps(t);
  });

  await knex.schema.createTable('management_tokens', (t) => {
    ulid(t).primary();
    ulid(t, 'account_ulid').notNullable().references('accounts.ulid').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('digest', 64).notNullable().unique();
    t.text('scopes').notNullable();
    t.string('tier', 16).notNullable();
    t.string('expires_at', 24).nullable();
    t.string('revoked_at', 24).nullable();
    t.string('last_used_at', 24).nullable();
    timestamps(t);
  });

  await knex.schema.createTable('environments', (t) => {
    ulid(t).primary();
    ulid(t, 'project_ulid').notNullable().references('projects.ulid').onDelete('CASCADE');
    t.string('key', 200).notNullable();
    t.string('name', 200).notNullable();
    t.text('description').nullable();
    t.string('color', 7).notNullable();
    t.boolean('comments_required').notNullable();
    t.boolean('confirmation_required').notNullable();
    // Bumped by every change that alters what the environment serves; caches compare it.
    t.bigInteger('revision').notNullable().defaultTo(1);
    timestamps(t);
    t.unique(['project_ulid', 'key']);
  });

  // Grants restrict a management token to projects (environment_ulid null) or single environments.
  await knex.schema.createTable('management_token_grants', (t) => {
    t.increments('id').primary();
    ulid(t, 'token_ulid').notNullable().references('management_tokens.ulid').onDelete('CASCADE');
    ulid(t, 'project_ulid').notNullable().references('projects.ulid').onDelete('CASCADE');
    ulid(t, 'environment_ulid').nullable().references('environments.ulid').onDelete('CASCADE');
    t.index(['token_ulid']);
  });

  await knex.schema.createTable('environment_keys', (t) => {
    ulid(t).primary();
    ulid(t, 'environment_ulid').notNullable().references('environments.ulid').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('name', 200).notNullable();
    t.string('digest', 64).notNullable().unique();
    t.string('masked_key', 20).notNullable();
    t.string('revoked_at', 24).nullable();
    timestamps(t);
  });

  await knex.schema.createTable('flags', (t) => {
    ulid(t).primary();
    ulid(t, 'project_ulid').notNullable().references('projects.ulid').onDelete('CASCADE');
    t.string('key', 200).notNullable();
    t.string('name', 200).notNullable();
    t.string('type', 16).notNullable();
    t.text('description').nullable();
    t.boolean('permanent').notNullable();
    t.boolean('include_in_mobile').notNullable();
    t.boolean('include_in_client').notNullable();
    timestamps(t);
    t.unique(['project_ulid', 'key']);
  });

  await knex.schema.createTable('flag_values', (t) => {
    ulid(t).primary();
    ulid(t, 'flag_ulid').notNullable().references('flags.ulid').onDelete('CASCADE');
    // Normalised display (compact JSON, canonical number); up to 64 KB, so uniqueness goes by digest.
    t.text('display', 'mediumtext').notNullable();
    t.string('display_digest', 64).notNullable();
    t.boolean('is_default').notNullable();
    timestamps(t);
    t.unique(['flag_ulid', 'display_digest']);
  });

  await knex.schema.createTable('targets', (t) => {
    ulid(t).primary();
    ulid(t, 'flag_ulid').notNullable().references('flags.ulid').onDelete('CASCADE');
    ulid(t, 'environment_ulid').notNullable().references('environments.ulid').onDelete('CASCADE');
    // Cascade keeps flag deletion order-independent; the service refuses to delete a value in use.
    ulid(t, 'value_ulid').notNullable().references('flag_values.ulid').onDelete('CASCADE');
    t.string('status', 16).notNullable();
    t.text('comment').nullable();
    t.string('scheduled_at', 24).nullable();
    t.string('published_at', 24).nullable();
    t.integer('rollout_percentage').nullable();
    t.string('rollout_mode', 16).nullable();
    t.string('rollout_status', 16).nullable();
    // When the current automatic rollout step started (null while paused or not automatic).
    t.string('rollout_step_started_at', 24).nullable();
    timestamps(t);
    t.index(['flag_ulid', 'environment_ulid', 'status']);
    t.index(['status', 'scheduled_at']);
  });

  await knex.schema.createTable('rules', (t) => {
    ulid(t).primary();
    ulid(t, 'target_ulid').notNullable().references('targets.ulid').onDelete('CASCADE');
    // Cascade keeps flag deletion order-independent; the service refuses to delete a value in use.
    ulid(t, 'value_ulid').notNullable().references('flag_values.ulid').onDelete('CASCADE');
    t.string('description', 500).notNullable();
    t.integer('position').notNullable();
    timestamps(t);
    t.index(['target_ulid', 'position']);
  });

  await knex.schema.createTable('criteria', (t) => {
    ulid(t).primary();
    ulid(t, 'rule_ulid').notNullable().references('rules.ulid').onDelete('CASCADE');
    t.string('selector', 16).notNullable();
    t.string('sub_selector', 200).nullable();
    t.string('comparer', 16).notNullable();
    t.integer('position').notNullable();
    t.text('values', 'mediumtext').notNullable();
    t.index(['rule_ulid']);
  });

  await knex.schema.createTable('segments', (t) => {
    ulid(t).primary();
    ulid(t, 'project_ulid').notNullable().references('projects.ulid').onDelete('CASCADE');
    t.string('key', 200).notNullable();
    t.string('name', 200).notNullable();
    t.text('description').nullable();
    t.text('included', 'mediumtext').notNullable();
    t.text('excluded', 'mediumtext').notNullable();
    t.text('rules', 'mediumtext').notNullable();
    timestamps(t);
    t.unique(['project_ulid', 'key']);
  });

  // Which segments each rule criterion names, so a referenced segment cannot be deleted.
  await knex.schema.createTable('criterion_segments', (t) => {
    ulid(t, 'criterion_ulid').notNullable().references('criteria.ulid').onDelete('CASCADE');
    ulid(t, 'segment_ulid').notNullable().references('segments.ulid').onDelete('CASCADE');
    t.primary(['criterion_ulid', 'segment_ulid']);
    t.index(['segment_ulid']);
  });

  await knex.schema.createTable('audit_entries', (t) => {
    ulid(t).primary();
    t.string('created_at', 24).notNullable();
    t.string('actor_type', 32).nullable();
    ulid(t, 'actor_ulid').nullable();
    t.string('actor_name', 200).nullable();
    t.string('actor_email', 320).nullable();
    ulid(t, 'token_ulid').nullable();
    t.string('token_name', 200).nullable();
    t.string('http_method', 8).notNullable();
    t.string('http_path', 2000).notNullable();
    t.string('action', 64).notNullable();
    t.string('subject_type', 32).nullable();
    ulid(t, 'subject_ulid').nullable();
    t.string('subject_label', 400).nullable();
    t.string('result', 32).notNullable();
    t.integer('status_code').notNullable();
    ulid(t, 'project_ulid').nullable();
    ulid(t, 'environment_ulid').nullable();
    t.index(['action', 'ulid']);
    t.index(['result', 'ulid']);
    t.index(['subject_type', 'ulid']);
    t.index(['subject_ulid', 'ulid']);
    t.index(['token_ulid', 'ulid']);
    t.index(['actor_ulid', 'ulid']);
    t.index(['project_ulid', 'ulid']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('public_audit_entries', (t) => {
    ulid(t).primary();
    t.string('created_at', 24).notNullable();
    t.string('actor_type', 32).notNullable();
    ulid(t, 'actor_ulid').nullable();
    ulid(t, 'environment_ulid').nullable();
    t.string('environment_key', 200).nullable();
    ulid(t, 'project_ulid').nullable();
    t.string('http_method', 8).notNullable();
    t.string('http_path', 2000).notNullable();
    t.string('action', 64).notNullable();
    t.string('subject_type', 32).nullable();
    ulid(t, 'subject_ulid').nullable();
    t.string('subject_label', 400).nullable();
    t.string('result', 32).notNullable();
    t.integer('status_code').notNullable();
    t.index(['action', 'ulid']);
    t.index(['result', 'ulid']);
    t.index(['subject_ulid', 'ulid']);
    t.index(['project_ulid', 'ulid']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('idempotency_records', (t) => {
    t.increments('id').primary();
    ulid(t, 'token_ulid').notNullable();
    t.string('method', 8).notNullable();
    // Digest of the request path: paths can exceed what a unique index may cover.
    t.string('path_digest', 64).notNullable();
    t.string('idempotency_key', 255).notNullable();
    t.string('request_digest', 64).notNullable();
    t.string('state', 16).notNullable();
    t.integer('response_status').nullable();
    t.text('response_body', 'mediumtext').nullable();
    t.string('created_at', 24).notNullable();
    t.string('expires_at', 24).notNullable();
    t.unique(['token_ulid', 'method', 'path_digest', 'idempotency_key'], { indexName: 'idempotency_records_scope_unique' });
    t.index(['expires_at']);
  });

  await knex.schema.createTable('flag_telemetry', (t) => {
    ulid(t, 'flag_ulid').notNullable().references('flags.ulid').onDelete('CASCADE');
    ulid(t, 'environment_ulid').notNullable().references('environments.ulid').onDelete('CASCADE');
    t.string('last_retrieved_at', 24).nullable();
    t.string('last_used_at', 24).nullable();
    t.string('last_evaluated_at', 24).nullable();
    t.string('last_updated_at', 24).nullable();
    t.bigInteger('retrieved_count').notNullable().defaultTo(0);
    t.bigInteger('used_count').notNullable().defaultTo(0);
    t.bigInteger('evaluated_count').notNullable().defaultTo(0);
    t.primary(['flag_ulid', 'environment_ulid']);
  });

  await knex.schema.createTable('default_value_reports', (t) => {
    ulid(t, 'environment_ulid').notNullable().references('environments.ulid').onDelete('CASCADE');
    t.string('flag_key', 200).notNullable();
    // missing_default: flag requested without a declared default; unknown_flag: default declared for no flag.
    t.string('kind', 16).notNullable();
    t.string('declared_type', 16).nullable();
    t.bigInteger('count').notNullable().defaultTo(0);
    t.string('last_seen_at', 24).notNullable();
    t.primary(['environment_ulid', 'kind', 'flag_key']);
  });

  await knex.schema.createTable('context_observations', (t) => {
    ulid(t, 'environment_ulid').notNullable().references('environments.ulid').onDelete('CASCADE');
    // kind: type (context type), attribute (attribute name), value (attribute value).
    t.string('kind', 16).notNullable();
    t.string('name', 200).notNullable();
    t.string('value', 200).notNullable().defaultTo('');
    t.bigInteger('count').notNullable().defaultTo(0);
    t.string('last_seen_at', 24).notNullable();
    t.primary(['environment_ulid', 'kind', 'name', 'value']);
  });

  // One row per background job name; an instance runs a job only while it holds the lease.
  await knex.schema.createTable('job_leases', (t) => {
    t.string('name', 64).primary();
    t.string('holder', 64).nullable();
    t.string('expires_at', 24).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'job_leases',
    'context_observations',
    'default_value_reports',
    'flag_telemetry',
    'idempotency_records',
    'public_audit_entries',
    'audit_entries',
    'criterion_segments',
    'segments',
    'criteria',
    'rules',
    'targets',
    'flag_values',
    'flags',
    'environment_keys',
    'management_token_grants',
    'environments',
    'management_tokens',
    'personal_access_tokens',
    'account_projects',
    'projects',
    'accounts',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
