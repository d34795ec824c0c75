import type { Knex } from 'knex';
import type { Dialect } from '../storage/database.js';
import type { CompiledFlag } from '../engine/index.js';
import { chunks } from '../storage/chunks.js';
import type { Db } from '../storage/db.js';
import {
  addValues,
  byKey,
  changedFlagRevisions,
  changeRevisionsOf,
  compileFlags,
  compilePrerequisites,
  compileSegments,
  missingValueUlids,
  prerequisiteValueUlids,
  servedTargetUlids,
  servingChoices,
  type ValueTable,
} from './config-compiler.js';
import type { ChangedFlag, ConfigSource, EnvironmentRevision, LoadedChanges, LoadedEnvironment } from './config-source.js';
import { KnexConfigStore } from './config-store.js';
import type { ConfigStore, EnvironmentRow, FlagRow } from './config-store-types.js';

/** Flags compiled together by a full load of a large project. */
const FULL_LOAD_SLICE = 1000;

const defaultStore = new KnexConfigStore();

/**
 * Builds an environment's EnvironmentConfig (src/engine/types.ts; the server-key payload) from
 * the database: every flag of the project ordered by key with its default value, its newest
 * published target (`serving`) and, while that target's rollout is active or paused, the
 * previously published target and the rollout percentage; rules by position with their
 * criteria; the project's segments ordered by key. The store reads the rows
 * (config-store.ts), the compiler turns them into the configuration (config-compiler.ts).
 */
export class KnexConfigSource implements ConfigSource {
  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
    private readonly store: ConfigStore = defaultStore,
  ) {}

  listRevisions(): Promise<EnvironmentRevision[]> {
    return this.store.revisions(this.knex);
  }

  revisionOf(environmentUlid: string): Promise<number | undefined> {
    return this.store.revisionOf(this.knex, environmentUlid);
  }

  async load(environmentUlid: string): Promise<LoadedEnvironment | undefined> {
    // MySQL, PostgreSQL: one read transaction gives the revision and the rows from one consistent
    // snapshot (REPEATABLE READ: MySQL's default; PostgreSQL's READ COMMITTED takes a snapshot per
    // statement). SQLite: the revision is read first, so a change committed during the load only
    // makes the snapshot newer than its revision, and the next poll sees the new revision and rebuilds.
    if (this.dialect !== 'sqlite') return this.snapshot((trx) => loadEnvironmentConfig(trx, environmentUlid, this.store));
    return loadEnvironmentConfig(this.knex, environmentUlid, this.store);
  }

  async loadChangesSince(environmentUlid: string, since: number): Promise<LoadedChanges | undefined> {
    // Same consistency argument as load().
    if (this.dialect !== 'sqlite') return this.snapshot((trx) => loadChangesSince(trx, environmentUlid, since, this.store));
    return loadChangesSince(this.knex, environmentUlid, since, this.store);
  }

  private snapshot<T>(read: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.dialect === 'postgres'
      ? this.knex.transaction(read, { isolationLevel: 'repeatable read', readOnly: true })
      : this.knex.transaction(read);
  }
}

/**
 * The published configuration of `flagRows` (sorted by key) in one environment. `only`: the
 * flags are a subset of the project, so values and targets are read for those flags only.
 */
async function loadFlags(
  store: ConfigStore,
  db: Db,
  environmentUlid: string,
  projectUlid: string,
  flagRows: readonly FlagRow[],
  only: 'project' | 'listed',
): Promise<CompiledFlag[]> {
  const flagByUlid = new Map(flagRows.map((f) => [f.ulid, f]));
  const listed = flagRows.map((f) => f.ulid);

  const table: ValueTable = { values: new Map(), displays: new Map(), defaults: new Map() };
  const valueRows = only === 'project' ? await store.projectValues(db, projectUlid) : await store.valuesOfFlags(db, listed);
  addValues(table, flagByUlid, valueRows, true);

  const published = await store.publishedTargets(db, environmentUlid, only === 'project' ? undefined : listed);
  const choices = servingChoices(published);
  for (const [flagUlid, choice] of choices) {
    // The earlier target may already be marked expired: take the newest one published before.
    if (choice.previousToRead) choice.previous = (await store.expiredBefore(db, environmentUlid, flagUlid, choice.serving)) ?? null;
  }

  const targetUlids = servedTargetUlids(choices);
  const ruleRows = await store.rules(db, targetUlids);
  const criterionRows = await store.criteria(
    db,
    ruleRows.map((r) => r.ulid),
  );
  const splits = await store.splits(db, [...targetUlids, ...ruleRows.map((r) => r.ulid)]);
  // Rule and split values can be values no target serves; an unreadable one is left out, like the rule that serves it.
  addValues(table, flagByUlid, await store.values(db, missingValueUlids(table, ruleRows, splits)), false);

  // Prerequisites list values of other flags, which an incremental load may not have read.
  const prerequisiteRows = await store.prerequisites(db, targetUlids);
  const displays = new Map((await store.valueDisplays(db, prerequisiteValueUlids(prerequisiteRows))).map((v) => [v.ulid, v.display]));
  const prerequisites = compilePrerequisites(prerequisiteRows, displays);

  return compileFlags(flagRows, { table, choices, ruleRows, criterionRows, splits, prerequisites });
}

export async function loadEnvironmentConfig(
  db: Db,
  environmentUlid: string,
  store: ConfigStore = defaultStore,
): Promise<LoadedEnvironment | undefined> {
  const env = await store.environment(db, environmentUlid);
  return env ? loadWholeEnvironment(store, db, env) : undefined;
}

async function loadWholeEnvironment(store: ConfigStore, db: Db, env: EnvironmentRow): Promise<LoadedEnvironment> {
  const environmentUlid = env.ulid;
  const projectUlid = env.project_ulid;
  const flagRows = (await store.projectFlags(db, projectUlid)).sort(byKey);
  // A large project is compiled a slice of flags at a time, so its value, target, rule and
  // criterion rows are never all in memory at once (peak memory of a first load).
  let flags: CompiledFlag[];
  if (flagRows.length <= FULL_LOAD_SLICE) {
    flags = await loadFlags(store, db, environmentUlid, projectUlid, flagRows, 'project');
  } else {
    flags = [];
    for (const slice of chunks(flagRows, FULL_LOAD_SLICE)) {
      for (const flag of await loadFlags(store, db, environmentUlid, projectUlid, slice, 'listed')) flags.push(flag);
    }
  }
  const segments = compileSegments(await store.segments(db, projectUlid));

  const revision = Number(env.revision);
  return {
    environmentUlid,
    environmentKey: env.key,
    projectUlid,
    revision,
    config: { revision, flags, segments },
    flagUlids: new Map(flagRows.map((f) => [f.key, f.ulid])),
    // The newest revision (up to `revision`) that changed each flag, and the segments. Pruning
    // keeps the newest row of each (storage/revisions.ts), so this survives it.
    changes: changeRevisionsOf(await store.latestChanges(db, environmentUlid, revision)),
  };
}

/**
 * The flags changed after revision `since` (revision_changes), loaded now; or the whole
 * environment when a change in that range concerns more than flags or is not recorded.
 */
export async function loadChangesSince(
  db: Db,
  environmentUlid: string,
  since: number,
  store: ConfigStore = defaultStore,
): Promise<LoadedChanges | undefined> {
  const env = await store.environment(db, environmentUlid);
  if (!env) return undefined;
  const revision = Number(env.revision);
  const rows = revision > since ? await store.changesBetween(db, environmentUlid, since, revision) : [];
  // The newest revision that changed each flag in the range: that flag's own revision now.
  const changedAt = changedFlagRevisions(rows, since, revision);
  if (changedAt === undefined) return { kind: 'full', loaded: await loadWholeEnvironment(store, db, env) };
  const changed = [...changedAt.keys()];
  if (await store.requiredByPublished(db, environmentUlid, changed)) {
    // Published targets of other flags hold values of a changed flag (prerequisites): reload all.
    return { kind: 'full', loaded: await loadWholeEnvironment(store, db, env) };
  }
  const flagRows = (await store.flagsOf(db, env.project_ulid, changed)).sort(byKey);
  const compiled = await loadFlags(store, db, environmentUlid, env.project_ulid, flagRows, 'listed');
  const flags = new Map<string, ChangedFlag | null>(changed.map((ulid) => [ulid, null]));
  flagRows.forEach((row, i) =>
    flags.set(row.ulid, { key: row.key, config: compiled[i] as CompiledFlag, revision: changedAt.get(row.ulid) ?? revision }),
  );
  return { kind: 'flags', environmentUlid, revision, flags };
}
