import type { Knex } from 'knex';

/**
 * An expired target's rollout is over: targets expired by a newer publish while their rollout
 * was active or paused kept that status. They now read `completed`, like the ones expired since.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('targets').where('status', 'expired').whereIn('rollout_status', ['active', 'paused']).update({ rollout_status: 'completed' });
}

/** Which rows were changed is not recorded; `completed` is right for them either way. */
export async function down(): Promise<void> {}
