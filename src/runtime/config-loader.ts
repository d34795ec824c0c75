import type { Knex } from 'knex';
import { parseStoredDisplay } from '../features/flag-values/display.js';
import { readSplits } from '../features/shared/split-store.js';
import type { SplitRecord } from '../features/shared/splits.js';
import type {
  Comparer,
  CompiledCriterion,
  CompiledFlag,
  CompiledPrerequisite,
  CompiledRule,
  CompiledSegment,
  CompiledSplit,
  CompiledTarget,
  FlagType,
  JsonValue,
  Selector,
} from '../engine/index.js';
import type { ChangedFlag, ChangeRevisions, ConfigSource, EnvironmentRevision, LoadedChanges, LoadedEnvironment } from './config-source.js';

/**
 * Builds an environment's EnvironmentConfig (src/engine/types.ts; the server-key payload) from
 * the database: every flag of the project ordered by key with its default value, its newest
 * published target (`serving`) and, while that target's rollout is active or paused, the
 * previously published target and the rollout percentage; rules by position with their
 * criteria; the project's segments ordered by key.
 */
export class KnexConfigSource implements ConfigSource {
  constructor(
    private readonly knex: Knex,
    private readonly dialect: 'sqlite' | 'mysql',
  ) {}

  async listRevisions(): Promise<EnvironmentRevision[]> {
    const rows: Array<{ ulid: string; revision: number | string }> = await this.knex('environments').select('ulid', 'revision');
    return rows.map((r) => ({ ulid: r.ulid, revision: Number(r.revision) }));
  }

  async revisionOf(environmentUlid: string): Promise<number | undefined> {
    const row = await this.knex('environments').where('ulid', environmentUlid).first('revision');
    return row ? Number(row.revision) : undefined;
  }

  async load(environmentUlid: string): Promise<LoadedEnvironment | undefined> {
    // MySQL: one read transaction gives the revision and the rows from one consistent snapshot.
    // SQLite: the revision is read first, so a change committed during the load only makes the
    // snapshot newer than its revision, and the next poll sees the new revision and rebuilds.
    if (this.dialect === 'mysql') return this.knex.transaction((trx) => loadEnvironmentConfig(trx, environmentUlid));
    return loadEnvironmentConfig(this.knex, environmentUlid);
  }

  async loadChangesSince(environmentUlid: string, since: number): Promise<LoadedChanges | undefined> {
    // Same consistency argument as load().
    if (this.dialect === 'mysql') return this.knex.transaction((trx) => loadChangesSince(trx, environmentUlid, since));
    return loadChangesSince(this.knex, environmentUlid, since);
  }
}

interface FlagRow {
  ulid: string;
  key: string;
  name: string;
  type: FlagType;
  include_in_mobile: unknown;
  include_in_client: unknown;
}

interface ValueRow {
  ulid: string;
  flag_ulid: string;
  display: string;
  is_default: unknown;
}

interface TargetRow {
  ulid: string;
  flag_ulid: string;
  value_ulid: string;
  status: string;
  published_at: string | null;
  rollout_percentage: number | string | null;
  rollout_status: string | null;
}

interface RuleRow {
  ulid: string;
  target_ulid: string;
  value_ulid: string;
  position: number | string;
}

interface CriterionRow {
  rule_ulid: string;
  selector: string;
  sub_selector: string | null;
  comparer: string;
  position: number | string;
  values: string;
}

interface SegmentRow {
  ulid: string;
  key: string;
  included: string;
  excluded: string;
  rules: string;
}

const CHUNK = 500;
/** Flags compiled together by a full load of a large project. */
const FULL_LOAD_SLICE = 1000;

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function jsonArray(text: string | null | undefined): unknown[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function criterionOf(raw: unknown): CompiledCriterion | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const c = raw as Record<string, unknown>;
  if (typeof c.selector !== 'string' || typeof c.comparer !== 'string') return undefined;
  return {
    selector: c.selector as Selector,
    sub_selector: typeof c.sub_selector === 'string' ? c.sub_selector : null,
    comparer: c.comparer as Comparer,
    values: stringArray(c.values),
  };
}

/** Newest first: published_at, then ulid (ulids grow with creation). */
function newestFirst(a: TargetRow, b: TargetRow): number {
  const pa = a.published_at ?? '';
  const pb = b.published_at ?? '';
  if (pa !== pb) return pa < pb ? 1 : -1;
  return a.ulid < b.ulid ? 1 : a.ulid > b.ulid ? -1 : 0;
}

/**
 * The prerequisites of these targets (features/prerequisites), by target: the required flag's key
 * and its listed values, read from the database (they are values of other flags, which an
 * incremental load may not have read). A value that no longer parses is left out.
 */
async function loadPrerequisites(
  db: Knex | Knex.Transaction,
  targetUlids: readonly string[],
): Promise<Map<string, CompiledPrerequisite[]>> {
  const rows: { target_ulid: string; position: number | string; key: string; type: FlagType; value_ulids: string }[] = [];
  for (const part of chunks(targetUlids)) {
    rows.push(
      ...(await db('target_prerequisites as p')
        .join('flags as f', 'f.ulid', 'p.required_flag_ulid')
        .whereIn('p.target_ulid', part)
        .select('p.target_ulid', 'p.position', 'f.key', 'f.type', 'p.value_ulids')),
    );
  }
  const out = new Map<string, CompiledPrerequisite[]>();
  if (rows.length === 0) return out;
  const valueUlids = [...new Set(rows.flatMap((r) => stringArray(jsonArray(r.value_ulids))))];
  const displays = new Map<string, string>();
  for (const part of chunks(valueUlids)) {
    for (const v of (await db('flag_values').whereIn('ulid', part).select('ulid', 'display')) as { ulid: string; display: string }[]) {
      displays.set(v.ulid, v.display);
    }
  }
  rows.sort((a, b) => Number(a.position) - Number(b.position));
  for (const r of rows) {
    const values: JsonValue[] = [];
    for (const ulid of stringArray(jsonArray(r.value_ulids))) {
      const display = displays.get(ulid);
      if (display === undefined) continue;
      try {
        values.push(parseStoredDisplay(r.type, display));
      } catch {
        // an unreadable stored value is left out
      }
    }
    const list = out.get(r.target_ulid) ?? [];
    list.push({ flag_key: r.key, values });
    out.set(r.target_ulid, list);
  }
  return out;
}

/**
 * The published configuration of `flagRows` (sorted by key) in one environment. `only`: the
 * flags are a subset of the project, so values and targets are read for those flags only.
 */
async function compileFlags(
  db: Knex | Knex.Transaction,
  environmentUlid: string,
  projectUlid: string,
  flagRows: readonly FlagRow[],
  only: 'project' | 'listed',
): Promise<CompiledFlag[]> {
  const flagByUlid = new Map(flagRows.map((f) => [f.ulid, f]));
  const listed = flagRows.map((f) => f.ulid);

  const valueRows: ValueRow[] = [];
  if (only === 'project') {
    valueRows.push(
      ...(await db('flag_values as v')
        .join('flags as f', 'f.ulid', 'v.flag_ulid')
        .where('f.project_ulid', projectUlid)
        .select('v.ulid', 'v.flag_ulid', 'v.display', 'v.is_default')),
    );
  } else {
    for (const part of chunks(listed)) {
      valueRows.push(...(await db('flag_values').whereIn('flag_ulid', part).select('ulid', 'flag_ulid', 'display', 'is_default')));
    }
  }
  const values = new Map<string, JsonValue>();
  /** Display forms, the variants of split values. */
  const displays = new Map<string, string>();
  const defaults = new Map<string, JsonValue>();
  for (const row of valueRows) {
    const flag = flagByUlid.get(row.flag_ulid);
    if (!flag) continue;
    let value: JsonValue;
    try {
      value = parseStoredDisplay(flag.type, row.display);
    } catch {
      continue;
    }
    values.set(row.ulid, value);
    displays.set(row.ulid, row.display);
    if (truthy(row.is_default)) defaults.set(row.flag_ulid, value);
  }

  const targetColumns = ['ulid', 'flag_ulid', 'value_ulid', 'status', 'published_at', 'rollout_percentage', 'rollout_status'];
  const published: TargetRow[] = [];
  if (only === 'project') {
    published.push(
      ...(await db('targets')
        .where({ environment_ulid: environmentUlid, status: 'published' })
        .select(...targetColumns)),
    );
  } else {
    for (const part of chunks(listed)) {
      published.push(
        ...(await db('targets')
          .where({ environment_ulid: environmentUlid, status: 'published' })
          .whereIn('flag_ulid', part)
          .select(...targetColumns)),
      );
    }
  }
  const publishedByFlag = new Map<string, TargetRow[]>();
  for (const t of published) {
    const list = publishedByFlag.get(t.flag_ulid) ?? [];
    list.push(t);
    publishedByFlag.set(t.flag_ulid, list);
  }

  interface Choice {
    serving: TargetRow;
    previous: TargetRow | null;
    percentage: number | null;
  }
  const choices = new Map<string, Choice>();
  for (const [flagUlid, list] of publishedByFlag) {
    list.sort(newestFirst);
    const serving = list[0] as TargetRow;
    const rolling = (serving.rollout_status === 'active' || serving.rollout_status === 'paused') && serving.rollout_percentage !== null;
    let previous: TargetRow | null = null;
    if (rolling) {
      previous = list[1] ?? null;
      if (!previous) {
        // The earlier target may already be marked expired: take the newest one published before.
        const before: TargetRow | undefined = await db('targets')
          .where({ environment_ulid: environmentUlid, flag_ulid: flagUlid, status: 'expired' })
          .whereNotNull('published_at')
          .where('published_at', '<=', serving.published_at ?? '')
          .whereNot('ulid', serving.ulid)
          .orderBy([
            { column: 'published_at', order: 'desc' },
            { column: 'ulid', order: 'desc' },
          ])
          .first(...targetColumns);
        previous = before ?? null;
      }
    }
    const percentage = rolling ? Math.min(100, Math.max(1, Number(serving.rollout_percentage))) : null;
    choices.set(flagUlid, { serving, previous, percentage });
  }

  const targetUlids: string[] = [];
  for (const choice of choices.values()) {
    targetUlids.push(choice.serving.ulid);
    if (choice.previous) targetUlids.push(choice.previous.ulid);
  }
  const ruleRows: RuleRow[] = [];
  for (const part of chunks(targetUlids)) {
    ruleRows.push(...(await db('rules').whereIn('target_ulid', part).select('ulid', 'target_ulid', 'value_ulid', 'position')));
  }
  const criterionRows: CriterionRow[] = [];
  for (const part of chunks(ruleRows.map((r) => r.ulid))) {
    criterionRows.push(
      ...(await db('criteria')
        .whereIn('rule_ulid', part)
        .select('rule_ulid', 'selector', 'sub_selector', 'comparer', 'position', 'values')),
    );
  }
  const splits = await readSplits(db, [...targetUlids, ...ruleRows.map((r) => r.ulid)]);
  // Rule and split values can be values no target serves; load any not yet known.
  const referenced = ruleRows.map((r) => r.value_ulid);
  for (const split of splits.values()) for (const s of split.shares) referenced.push(s.value_ulid);
  const missingValues = [...new Set(referenced.filter((u) => !values.has(u)))];
  for (const part of chunks(missingValues)) {
    const rows: ValueRow[] = await db('flag_values').whereIn('ulid', part).select('ulid', 'flag_ulid', 'display', 'is_default');
    for (const row of rows) {
      const flag = flagByUlid.get(row.flag_ulid);
      if (!flag) continue;
      try {
        values.set(row.ulid, parseStoredDisplay(flag.type, row.display));
        displays.set(row.ulid, row.display);
      } catch {
        // An unreadable stored value is left out, like the rule that serves it.
      }
    }
  }

  const prerequisitesByTarget = await loadPrerequisites(db, targetUlids);

  const criteriaByRule = new Map<string, CriterionRow[]>();
  for (const c of criterionRows) {
    const list = criteriaByRule.get(c.rule_ulid) ?? [];
    list.push(c);
    criteriaByRule.set(c.rule_ulid, list);
  }
  const rulesByTarget = new Map<string, RuleRow[]>();
  for (const r of ruleRows) {
    const list = rulesByTarget.get(r.target_ulid) ?? [];
    list.push(r);
    rulesByTarget.set(r.target_ulid, list);
  }

  const byPosition = <T extends { position: number | string }>(a: T, b: T) => Number(a.position) - Number(b.position);
  /** The owner's split; none when it has none or a value of it is unreadable (its own value is served then). */
  const compileSplit = (ownerUlid: string): CompiledSplit | null => {
    const split: SplitRecord | undefined = splits.get(ownerUlid);
    if (!split || split.shares.length === 0 || !split.shares.every((s) => values.has(s.value_ulid))) return null;
    return {
      attribute: split.attribute,
      shares: split.shares.map((s) => ({
        variant: displays.get(s.value_ulid) as string,
        value: values.get(s.value_ulid) as JsonValue,
        weight: s.weight,
      })),
    };
  };
  const compileTarget = (t: TargetRow | null): CompiledTarget | null => {
    if (!t || !values.has(t.value_ulid)) return null;
    const rules: CompiledRule[] = [];
    const ruleList = [...(rulesByTarget.get(t.ulid) ?? [])].sort((a, b) => byPosition(a, b) || (a.ulid < b.ulid ? -1 : 1));
    for (const r of ruleList) {
      if (!values.has(r.value_ulid)) continue;
      const criteria: CompiledCriterion[] = [...(criteriaByRule.get(r.ulid) ?? [])].sort(byPosition).map((c) => ({
        selector: c.selector as Selector,
        sub_selector: c.sub_selector ?? null,
        comparer: c.comparer as Comparer,
        values: stringArray(jsonArray(c.values)),
      }));
      const split = compileSplit(r.ulid);
      // `split` only where one is configured, so configurations without splits read as before.
      rules.push(
        split
          ? { value: values.get(r.value_ulid) as JsonValue, criteria, split }
          : { value: values.get(r.value_ulid) as JsonValue, criteria },
      );
    }
    // `split` and `prerequisites` only where configured, so configurations without them read as before.
    const split = compileSplit(t.ulid);
    const prerequisites = prerequisitesByTarget.get(t.ulid);
    return {
      value: values.get(t.value_ulid) as JsonValue,
      rules,
      ...(split ? { split } : {}),
      ...(prerequisites === undefined ? {} : { prerequisites }),
    };
  };

  return flagRows.map((f) => {
    const choice = choices.get(f.ulid);
    const serving = choice ? compileTarget(choice.serving) : null;
    const rollout = serving && choice?.percentage != null ? { percentage: choice.percentage } : null;
    return {
      key: f.key,
      name: f.name,
      type: f.type,
      include_in_mobile: truthy(f.include_in_mobile),
      include_in_client: truthy(f.include_in_client),
      default: defaults.has(f.ulid) ? { value: defaults.get(f.ulid) as JsonValue } : null,
      serving,
      previous: rollout ? compileTarget(choice?.previous ?? null) : null,
      rollout,
    };
  });
}

interface EnvironmentRow {
  ulid: string;
  key: string;
  project_ulid: string;
  revision: number | string;
}

const FLAG_COLUMNS = ['ulid', 'key', 'name', 'type', 'include_in_mobile', 'include_in_client'];

function environmentRow(db: Knex | Knex.Transaction, environmentUlid: string): Promise<EnvironmentRow | undefined> {
  return db('environments').where('ulid', environmentUlid).first('ulid', 'key', 'project_ulid', 'revision');
}

/** Keys are lowercase ASCII; sorted in JS so both dialects' collations give one order. */
function byKey(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export async function loadEnvironmentConfig(db: Knex | Knex.Transaction, environmentUlid: string): Promise<LoadedEnvironment | undefined> {
  const env = await environmentRow(db, environmentUlid);
  return env ? loadWholeEnvironment(db, env) : undefined;
}

async function loadWholeEnvironment(db: Knex | Knex.Transaction, env: EnvironmentRow): Promise<LoadedEnvironment> {
  const environmentUlid = env.ulid;
  const projectUlid = env.project_ulid;
  const flagRows: FlagRow[] = await db('flags')
    .where('project_ulid', projectUlid)
    .select(...FLAG_COLUMNS);
  flagRows.sort(byKey);
  // A large project is compiled a slice of flags at a time, so its value, target, rule and
  // criterion rows are never all in memory at once (peak memory of a first load).
  let flags: CompiledFlag[];
  if (flagRows.length <= FULL_LOAD_SLICE) {
    flags = await compileFlags(db, environmentUlid, projectUlid, flagRows, 'project');
  } else {
    flags = [];
    for (const slice of chunks(flagRows, FULL_LOAD_SLICE)) {
      for (const flag of await compileFlags(db, environmentUlid, projectUlid, slice, 'listed')) flags.push(flag);
    }
  }

  const segmentRows: SegmentRow[] = await db('segments')
    .where('project_ulid', projectUlid)
    .select('ulid', 'key', 'included', 'excluded', 'rules');
  segmentRows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const segments: CompiledSegment[] = segmentRows.map((s) => ({
    key: s.key,
    included: stringArray(jsonArray(s.included)),
    excluded: stringArray(jsonArray(s.excluded)),
    rules: jsonArray(s.rules).map((rule) => {
      const criteria = typeof rule === 'object' && rule !== null ? (rule as { criteria?: unknown }).criteria : undefined;
      return {
        criteria: (Array.isArray(criteria) ? criteria : []).map(criterionOf).filter((c): c is CompiledCriterion => c !== undefined),
      };
    }),
  }));

  const revision = Number(env.revision);
  return {
    environmentUlid,
    environmentKey: env.key,
    projectUlid,
    revision,
    config: { revision, flags, segments },
    flagUlids: new Map(flagRows.map((f) => [f.key, f.ulid])),
    changes: await changeRevisions(db, environmentUlid, revision),
  };
}

/**
 * The newest revision (up to `revision`) that changed each flag, and the segments (rows without
 * a flag). Pruning keeps the newest row of each (storage/revisions.ts), so this survives it.
 */
async function changeRevisions(db: Knex | Knex.Transaction, environmentUlid: string, revision: number): Promise<ChangeRevisions> {
  const rows: Array<{ flag_ulid: string | null; revision: number | string | null }> = await db('revision_changes')
    .where('environment_ulid', environmentUlid)
    .where('revision', '<=', revision)
    .groupBy('flag_ulid')
    .select('flag_ulid')
    .max({ revision: 'revision' });
  const flags = new Map<string, number>();
  let segments = 0;
  for (const row of rows) {
    const at = Number(row.revision ?? 0);
    if (row.flag_ulid === null) segments = at;
    else flags.set(row.flag_ulid, at);
  }
  return { flags, segments };
}

/** Whether a published target of the environment has a prerequisite on one of these flags. */
async function requiredByPublished(db: Knex | Knex.Transaction, environmentUlid: string, flagUlids: readonly string[]): Promise<boolean> {
  for (const part of chunks(flagUlids)) {
    const row = await db('target_prerequisites as p')
      .join('targets as t', 't.ulid', 'p.target_ulid')
      .where('t.environment_ulid', environmentUlid)
      .whereIn('t.status', ['published', 'expired'])
      .whereIn('p.required_flag_ulid', part)
      .first('p.target_ulid');
    if (row !== undefined) return true;
  }
  return false;
}

/**
 * The flags changed after revision `since` (revision_changes), loaded now; or the whole
 * environment when a change in that range concerns more than flags or is not recorded.
 */
export async function loadChangesSince(
  db: Knex | Knex.Transaction,
  environmentUlid: string,
  since: number,
): Promise<LoadedChanges | undefined> {
  const env = await environmentRow(db, environmentUlid);
  if (!env) return undefined;
  const revision = Number(env.revision);
  const rows: Array<{ revision: number | string; flag_ulid: string | null }> =
    revision > since
      ? await db('revision_changes')
          .where('environment_ulid', environmentUlid)
          .where('revision', '>', since)
          .where('revision', '<=', revision)
          .select('revision', 'flag_ulid')
      : [];
  const recorded = new Set(rows.map((r) => Number(r.revision)));
  if (recorded.size !== revision - since || rows.some((r) => r.flag_ulid === null)) {
    return { kind: 'full', loaded: await loadWholeEnvironment(db, env) };
  }
  // The newest revision that changed each flag in the range: that flag's own revision now.
  const changedAt = new Map<string, number>();
  for (const row of rows) {
    const ulid = row.flag_ulid as string;
    changedAt.set(ulid, Math.max(changedAt.get(ulid) ?? 0, Number(row.revision)));
  }
  const changed = [...changedAt.keys()];
  if (await requiredByPublished(db, environmentUlid, changed)) {
    // Published targets of other flags hold values of a changed flag (prerequisites): reload all.
    return { kind: 'full', loaded: await loadWholeEnvironment(db, env) };
  }
  const flagRows: FlagRow[] = [];
  for (const part of chunks(changed)) {
    flagRows.push(
      ...(await db('flags')
        .where('project_ulid', env.project_ulid)
        .whereIn('ulid', part)
        .select(...FLAG_COLUMNS)),
    );
  }
  flagRows.sort(byKey);
  const compiled = await compileFlags(db, environmentUlid, env.project_ulid, flagRows, 'listed');
  const flags = new Map<string, ChangedFlag | null>(changed.map((ulid) => [ulid, null]));
  flagRows.forEach((row, i) =>
    flags.set(row.ulid, { key: row.key, config: compiled[i] as CompiledFlag, revision: changedAt.get(row.ulid) ?? revision }),
  );
  return { kind: 'flags', environmentUlid, revision, flags };
}
