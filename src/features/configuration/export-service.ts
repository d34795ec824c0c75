import type { components } from '../../../generated/management.js';
import { hasScope, type ManagementPrincipal } from '../../auth/principal.js';
import { ForbiddenError, NotFoundError } from '../../http/errors.js';
import type { PageRequest } from '../../http/pagination.js';
import type { Db } from '../../storage/db.js';
import type { LookupStore } from '../shared/lookup.js';
import type { SplitRecord } from '../shared/splits.js';
import type { SegmentRecord, SegmentsStore } from '../segments/store-types.js';
import type { Auditor } from '../shared/transactions.js';
import type {
  ConfigurationExportStore,
  CriterionRow,
  EnvironmentRow,
  PrerequisiteRow,
  FlagRow,
  RuleRow,
  ServingTargetRow,
  ValueRow,
} from './export-store.js';

type Schemas = components['schemas'];
export type ProjectConfiguration = Schemas['ProjectConfiguration'];
type ConfigurationServing = Schemas['ConfigurationServing'];
type CriterionWrite = Schemas['CriterionWrite'];

export interface ExportOptions {
  /** Environment keys to export; undefined exports every environment the caller can see. */
  environments?: string[];
  /** What the export is for, named in a refusal ("Planning a configuration file needs..."). */
  purpose?: string;
  /** The database to read: the pool when absent, or an apply's or a promote's transaction (each plans inside its own). */
  db?: Db;
}

/** Comparers that take no values: the file leaves `values` out, as the rule bodies do. */
const valueless = new Set(['isnull', 'notnull']);

function toCriterion(row: Pick<CriterionRow, 'selector' | 'sub_selector' | 'comparer' | 'values'>): CriterionWrite {
  return {
    selector: row.selector,
    comparer: row.comparer as CriterionWrite['comparer'],
    ...(row.sub_selector === null ? {} : { sub_selector: row.sub_selector }),
    ...(valueless.has(row.comparer) ? {} : { values: row.values }),
  };
}

/** Segment rules compare only attributes and context identifiers (the store guarantees it). */
function toSegmentCriterion(row: Parameters<typeof toCriterion>[0]): Schemas['SegmentCriterionWrite'] {
  return toCriterion(row) as Schemas['SegmentCriterionWrite'];
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** What ConfigurationExportService is built from: the pool it reads unless an export names another database (`db`). */
export interface ConfigurationExportServiceDeps {
  db: Db;
  lookups: LookupStore;
  store: ConfigurationExportStore;
  segments: SegmentsStore;
}

/**
 * Builds a project's `ProjectConfiguration`: everything named by key, lists in a fixed order
 * and nothing time-dependent, so an unchanged project always exports to the same bytes.
 */
export class ConfigurationExportService {
  constructor(private readonly deps: ConfigurationExportServiceDeps) {}

  async export(
    principal: ManagementPrincipal,
    projectKey: string,
    options: ExportOptions,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<ProjectConfiguration> {
    const db = options.db ?? this.deps.db;
    if (!hasScope(principal, 'targets:read')) {
      throw new ForbiddenError(
        `${options.purpose ?? 'Exporting a project'} needs the targets:read scope as well as flags:read.`,
        'targets:read',
      );
    }
    const { store, segments } = this.deps;
    const project = await this.deps.lookups.findProject(db, principal.access, projectKey);
    audit.describe({
      action: 'project.exported',
      subjectType: 'project',
      subjectUlid: project.ulid,
      subjectLabel: project.key,
      projectUlid: project.ulid,
    });
    const environments = this.selectEnvironments(
      (await store.environments(db, project.ulid)).filter((e) => principal.access.canSeeEnvironment(project.ulid, e.ulid)),
      options.environments,
    );
    const flags = await store.flags(db, project.ulid);
    const flagUlids = flags.map((f) => f.ulid);
    const values = await store.values(db, flagUlids);
    const targets = await store.servingTargets(
      db,
      flagUlids,
      environments.map((e) => e.ulid),
    );
    const rules = await store.rules(
      db,
      targets.map((t) => t.ulid),
    );
    const criteria = await store.criteria(
      db,
      rules.map((r) => r.ulid),
    );
    const splits = await store.splits(db, [...targets.map((t) => t.ulid), ...rules.map((r) => r.ulid)]);
    const prerequisites = await store.prerequisites(
      db,
      targets.map((t) => t.ulid),
    );

    const serving = new ServingBuilder(values, environments, rules, criteria, splits, prerequisites);
    const targetsByFlag = groupBy(targets, (t) => t.flag_ulid);
    const valuesByFlag = groupBy(values, (v) => v.flag_ulid);
    return {
      version: 1,
      project: { key: project.key, name: project.name, description: await store.projectDescription(db, project.ulid) },
      environments: environments.map(({ ulid: _ulid, ...settings }) => settings),
      segments: (await this.allSegments(db, segments, project.ulid)).sort(byKey).map((s) => ({
        key: s.key,
        name: s.name,
        description: s.description,
        included: s.included,
        excluded: s.excluded,
        rules: s.rules.map((r) => ({ criteria: r.criteria.map(toSegmentCriterion) })),
      })),
      flags: flags.map((flag) => this.flag(flag, valuesByFlag.get(flag.ulid) ?? [], targetsByFlag.get(flag.ulid) ?? [], serving)),
    };
  }

  private selectEnvironments(visible: EnvironmentRow[], wanted: string[] | undefined): EnvironmentRow[] {
    if (wanted === undefined) return visible;
    const byEnvironmentKey = new Map(visible.map((e) => [e.key, e]));
    for (const key of wanted) if (!byEnvironmentKey.has(key)) throw new NotFoundError(`Environment "${key}" not found.`);
    return visible.filter((e) => wanted.includes(e.key));
  }

  private async allSegments(db: Db, reader: SegmentsStore, projectUlid: string): Promise<SegmentRecord[]> {
    const segments: SegmentRecord[] = [];
    let page: PageRequest = { per_page: 100 };
    for (;;) {
      const result = await reader.listSegments(db, projectUlid, page);
      segments.push(...result.data);
      if (!result.meta.next_cursor) return segments;
      page = { per_page: 100, cursor: result.meta.next_cursor };
    }
  }

  private flag(flag: FlagRow, values: ValueRow[], targets: ServingTargetRow[], serving: ServingBuilder): Schemas['ConfigurationFlag'] {
    const environments: Record<string, ConfigurationServing> = {};
    for (const entry of serving.forFlag(targets)) environments[entry.environmentKey] = entry.serving;
    return {
      key: flag.key,
      name: flag.name,
      type: flag.type,
      description: flag.description,
      permanent: flag.permanent,
      include_in_mobile: flag.include_in_mobile,
      include_in_client: flag.include_in_client,
      // Left out when empty, so files written before tags existed export unchanged.
      ...(flag.tags.length > 0 ? { tags: flag.tags } : {}),
      values: values.map((v) => ({ value: v.display, default: v.is_default })),
      environments,
    };
  }
}

/** Turns serving targets into the file's per-environment entries, in environment order. */
export class ServingBuilder {
  private readonly displayByValue: Map<string, string>;
  private readonly environmentOrder: Map<string, { key: string; index: number }>;
  private readonly rulesByTarget: Map<string, RuleRow[]>;
  private readonly criteriaByRule: Map<string, CriterionRow[]>;
  private readonly prerequisitesByTarget: Map<string, PrerequisiteRow[]>;

  constructor(
    values: ValueRow[],
    environments: EnvironmentRow[],
    rules: RuleRow[],
    criteria: CriterionRow[],
    private readonly splits: ReadonlyMap<string, SplitRecord>,
    prerequisites: PrerequisiteRow[],
  ) {
    this.prerequisitesByTarget = groupBy(prerequisites, (p) => p.target_ulid);
    this.displayByValue = new Map(values.map((v) => [v.ulid, v.display]));
    this.environmentOrder = new Map(environments.map((e, index) => [e.ulid, { key: e.key, index }]));
    this.rulesByTarget = groupBy(rules, (r) => r.target_ulid);
    this.criteriaByRule = groupBy(criteria, (c) => c.rule_ulid);
  }

  forFlag(targets: ServingTargetRow[]): { environmentKey: string; serving: ConfigurationServing }[] {
    return targets
      .map((target) => ({ target, environment: this.environmentOrder.get(target.environment_ulid) }))
      .filter(
        (entry): entry is { target: ServingTargetRow; environment: { key: string; index: number } } => entry.environment !== undefined,
      )
      .sort((a, b) => a.environment.index - b.environment.index)
      .map(({ target, environment }) => ({ environmentKey: environment.key, serving: this.serving(target) }));
  }

  /** One target's serving configuration (its rollout only while in progress). */
  serving(target: ServingTargetRow): ConfigurationServing {
    const rolling = target.rollout_status === 'active' || target.rollout_status === 'paused';
    const baseSplit = this.split(target.ulid);
    return {
      // The publish comment is history (the audit log keeps it), not configuration: plan never
      // compares it, so export leaves it out and an applied file exports as it was written.
      value: this.display(target.value_ulid),
      // A split only where there is one, so files without splits export as before.
      ...(baseSplit === undefined ? {} : { split: baseSplit }),
      rules: (this.rulesByTarget.get(target.ulid) ?? []).map((rule) => {
        const split = this.split(rule.ulid);
        return {
          description: rule.description,
          value: this.display(rule.value_ulid),
          criteria: (this.criteriaByRule.get(rule.ulid) ?? []).map(toCriterion),
          ...(split === undefined ? {} : { split }),
        };
      }),
      // Left out when there are none, so files written before prerequisites export unchanged.
      ...this.prerequisitesOf(target),
      rollout:
        rolling && target.rollout_mode !== null && target.rollout_percentage !== null
          ? { mode: target.rollout_mode, percentage: target.rollout_percentage, status: target.rollout_status as 'active' | 'paused' }
          : null,
    };
  }

  private split(ownerUlid: string): Schemas['ConfigurationSplit'] | undefined {
    const split = this.splits.get(ownerUlid);
    if (split === undefined) return undefined;
    return {
      ...(split.attribute === null ? {} : { attribute: split.attribute }),
      shares: split.shares.map((s) => ({ value: this.display(s.value_ulid), weight: s.weight })),
    };
  }

  private prerequisitesOf(target: ServingTargetRow): Pick<ConfigurationServing, 'prerequisites'> {
    const list = this.prerequisitesByTarget.get(target.ulid) ?? [];
    if (list.length === 0) return {};
    return { prerequisites: list.map((p) => ({ flag: p.flag_key, values: p.value_ulids.map((v) => this.display(v)) })) };
  }

  private display(valueUlid: string): string {
    const display = this.displayByValue.get(valueUlid);
    // Values are cascaded with their flag, so a target's value is always among the flag's values.
    if (display === undefined) throw new Error(`value ${valueUlid} of a serving target is missing`);
    return display;
  }
}
