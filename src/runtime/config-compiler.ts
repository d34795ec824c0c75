import type {
  Comparer,
  CompiledCriterion,
  CompiledFlag,
  CompiledPrerequisite,
  CompiledRule,
  CompiledSegment,
  CompiledSplit,
  CompiledTarget,
  JsonValue,
  Selector,
} from '../engine/index.js';
import { parseStoredDisplay } from '../features/flag-values/display.js';
import type { SplitRecord } from '../features/shared/splits.js';
import type { ChangeRevisions } from './config-source.js';
import type {
  CriterionRow,
  FlagRow,
  PrerequisiteRow,
  RevisionChangeRow,
  RuleRow,
  SegmentRow,
  TargetRow,
  ValueRow,
} from './config-store-types.js';

/**
 * The pure half of the config loader: rows (config-store-types.ts) in, the engine's
 * configuration out (src/engine/types.ts). No I/O; the loader (config-loader.ts) reads the rows.
 */

export function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
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

/** Keys are lowercase ASCII; sorted in JS so both dialects' collations give one order. */
export function byKey(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Newest first: published_at, then ulid (ulids grow with creation). */
function newestFirst(a: TargetRow, b: TargetRow): number {
  const pa = a.published_at ?? '';
  const pb = b.published_at ?? '';
  if (pa !== pb) return pa < pb ? 1 : -1;
  return a.ulid < b.ulid ? 1 : a.ulid > b.ulid ? -1 : 0;
}

function groupBy<Row>(rows: readonly Row[], keyOf: (row: Row) => string): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const row of rows) {
    const list = out.get(keyOf(row)) ?? [];
    list.push(row);
    out.set(keyOf(row), list);
  }
  return out;
}

/** The parsed values of the flags being compiled, their display forms (split variants) and each flag's default. */
export interface ValueTable {
  values: Map<string, JsonValue>;
  displays: Map<string, string>;
  defaults: Map<string, JsonValue>;
}

/** Parses value rows of the listed flags into `table` (a value that no longer parses is left out). */
export function addValues(
  table: ValueTable,
  flagByUlid: ReadonlyMap<string, FlagRow>,
  rows: readonly ValueRow[],
  withDefaults: boolean,
): void {
  for (const row of rows) {
    const flag = flagByUlid.get(row.flag_ulid);
    if (!flag) continue;
    let value: JsonValue;
    try {
      value = parseStoredDisplay(flag.type, row.display);
    } catch {
      continue;
    }
    table.values.set(row.ulid, value);
    table.displays.set(row.ulid, row.display);
    if (withDefaults && truthy(row.is_default)) table.defaults.set(row.flag_ulid, value);
  }
}

/** What a flag serves: its newest published target and, while that one rolls out, the one before. */
export interface ServingChoice {
  serving: TargetRow;
  previous: TargetRow | null;
  /** The rollout's percentage (1..100) while it is active or paused; null: no rollout. */
  percentage: number | null;
  /** Rolling out with no earlier published target left: the loader reads the newest expired one before it. */
  previousToRead: boolean;
}

/** The serving choice of each flag with a published target, by flag ulid. */
export function servingChoices(published: readonly TargetRow[]): Map<string, ServingChoice> {
  const choices = new Map<string, ServingChoice>();
  for (const [flagUlid, list] of groupBy(published, (t) => t.flag_ulid)) {
    list.sort(newestFirst);
    const serving = list[0] as TargetRow;
    const rolling = (serving.rollout_status === 'active' || serving.rollout_status === 'paused') && serving.rollout_percentage !== null;
    const previous = rolling ? (list[1] ?? null) : null;
    const percentage = rolling ? Math.min(100, Math.max(1, Number(serving.rollout_percentage))) : null;
    choices.set(flagUlid, { serving, previous, percentage, previousToRead: rolling && previous === null });
  }
  return choices;
}

/** The targets the choices serve (each serving target, then its previous one). */
export function servedTargetUlids(choices: ReadonlyMap<string, ServingChoice>): string[] {
  const ulids: string[] = [];
  for (const choice of choices.values()) {
    ulids.push(choice.serving.ulid);
    if (choice.previous) ulids.push(choice.previous.ulid);
  }
  return ulids;
}

/** Values rules and splits serve that the table does not hold yet (they can be values no target serves). */
export function missingValueUlids(table: ValueTable, ruleRows: readonly RuleRow[], splits: ReadonlyMap<string, SplitRecord>): string[] {
  const referenced = ruleRows.map((r) => r.value_ulid);
  for (const split of splits.values()) for (const s of split.shares) referenced.push(s.value_ulid);
  return [...new Set(referenced.filter((u) => !table.values.has(u)))];
}

/** The value ulids the prerequisites list (values of other flags). */
export function prerequisiteValueUlids(rows: readonly PrerequisiteRow[]): string[] {
  return [...new Set(rows.flatMap((r) => stringArray(jsonArray(r.value_ulids))))];
}

/** The prerequisites by target, by position; a listed value that no longer parses is left out. */
export function compilePrerequisites(
  rows: readonly PrerequisiteRow[],
  displays: ReadonlyMap<string, string>,
): Map<string, CompiledPrerequisite[]> {
  const out = new Map<string, CompiledPrerequisite[]>();
  const sorted = [...rows].sort((a, b) => Number(a.position) - Number(b.position));
  for (const r of sorted) {
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

/** Everything the flags' configuration is compiled from. */
export interface FlagParts {
  table: ValueTable;
  choices: ReadonlyMap<string, ServingChoice>;
  ruleRows: readonly RuleRow[];
  criterionRows: readonly CriterionRow[];
  splits: ReadonlyMap<string, SplitRecord>;
  prerequisites: ReadonlyMap<string, CompiledPrerequisite[]>;
}

const byPosition = <T extends { position: number | string }>(a: T, b: T) => Number(a.position) - Number(b.position);

/** The flags' engine configuration, in the order of `flagRows`. */
export function compileFlags(flagRows: readonly FlagRow[], parts: FlagParts): CompiledFlag[] {
  const { values, displays, defaults } = parts.table;
  const criteriaByRule = groupBy(parts.criterionRows, (c) => c.rule_ulid);
  const rulesByTarget = groupBy(parts.ruleRows, (r) => r.target_ulid);

  /** The owner's split; none when it has none or a value of it is unreadable (its own value is served then). */
  const compileSplit = (ownerUlid: string): CompiledSplit | null => {
    const split = parts.splits.get(ownerUlid);
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
    const prerequisites = parts.prerequisites.get(t.ulid);
    return {
      value: values.get(t.value_ulid) as JsonValue,
      rules,
      ...(split ? { split } : {}),
      ...(prerequisites === undefined ? {} : { prerequisites }),
    };
  };

  return flagRows.map((f) => {
    const choice = parts.choices.get(f.ulid);
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

/** The project's segments, ordered by key. */
export function compileSegments(rows: readonly SegmentRow[]): CompiledSegment[] {
  return [...rows].sort(byKey).map((s) => ({
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
}

/** The newest revision that changed each flag, and the segments (the rows without a flag). */
export function changeRevisionsOf(rows: readonly RevisionChangeRow[]): ChangeRevisions {
  const flags = new Map<string, number>();
  let segments = 0;
  for (const row of rows) {
    const at = Number(row.revision ?? 0);
    if (row.flag_ulid === null) segments = at;
    else flags.set(row.flag_ulid, at);
  }
  return { flags, segments };
}

/**
 * The newest revision in (`since`, `revision`] that changed each flag, by flag ulid; undefined
 * when the range holds a change that concerns more than flags or a revision without a row (the
 * whole environment is reloaded then).
 */
export function changedFlagRevisions(rows: readonly RevisionChangeRow[], since: number, revision: number): Map<string, number> | undefined {
  const recorded = new Set(rows.map((r) => Number(r.revision)));
  if (recorded.size !== revision - since || rows.some((r) => r.flag_ulid === null)) return undefined;
  const changedAt = new Map<string, number>();
  for (const row of rows) {
    const ulid = row.flag_ulid as string;
    changedAt.set(ulid, Math.max(changedAt.get(ulid) ?? 0, Number(row.revision)));
  }
  return changedAt;
}
