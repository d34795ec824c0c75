import type { Knex } from 'knex';
import type { TargetRecord } from '../targets/store-types.js';
import { ServingBuilder } from './export-service.js';
import { ConfigurationExportStore } from './export-store.js';
import type { Serving } from './serving-writer.js';

/**
 * What a target of any status serves (base value or split, rules with their criteria and splits,
 * in order, and its prerequisites), without its rollout: the configuration a restore publishes again.
 */
const store = new ConfigurationExportStore();

export async function servingOfTarget(db: Knex, target: TargetRecord): Promise<Serving> {
  // A prerequisite names values of the flag it requires, so those flags' values are read too.
  const values = await store.values(db, [target.flag_ulid, ...(await store.requiredFlagUlids(db, [target.ulid]))]);
  const rules = await store.rules(db, [target.ulid]);
  const criteria = await store.criteria(
    db,
    rules.map((r) => r.ulid),
  );
  const splits = await store.splits(db, [target.ulid, ...rules.map((r) => r.ulid)]);
  const prerequisites = await store.prerequisites(db, [target.ulid]);
  const builder = new ServingBuilder(values, [], rules, criteria, splits, prerequisites);
  return builder.serving({ ...target, rollout_status: null });
}
