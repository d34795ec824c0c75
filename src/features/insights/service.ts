import { auditActionByOperation } from '../../audit/actions.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { decodeSketch, estimateDistinct } from '../../runtime/distinct-sketch.js';
import { hourOf } from '../../runtime/telemetry-buffer.js';
import type { Db } from '../../storage/db.js';
import type { FlagType } from '../flags/store-types.js';
import type { LookupStore } from '../shared/lookup.js';
import type { Auditor } from '../shared/transactions.js';
import type { InsightsStore } from './store-types.js';

export interface FlagInsights {
  flag_key: string;
  environment_key: string;
  last_retrieved_at: string | null;
  last_used_at: string | null;
  last_evaluated_at: string | null;
  last_updated_at: string | null;
  retrieved_count: number;
  used_count: number;
  evaluated_count: number;
}

export interface StaleFlag {
  key: string;
  name: string;
  last_used_at: string | null;
  last_updated_at: string;
  created_at: string;
}

export interface DefaultValueReports {
  missing_defaults: Array<{ flag_key: string; count: number; last_seen_at: string }>;
  unknown_flags: Array<{ flag_key: string; declared_type: FlagType; count: number; last_seen_at: string }>;
}

export interface ContextAttributes {
  context_types: Array<{ type: string; count: number }>;
  attributes: Array<{ key: string; count: number; values: Array<{ value: string; count: number }> }>;
}

/** Most frequent values listed per attribute (specs/management.yaml, listContextAttributes). */
export const VALUES_PER_ATTRIBUTE = 100;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface FlagEvaluationHours {
  hours: number;
  buckets: Array<{ hour: string; value: string; count: number }>;
  total_24h: number;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What InsightsService is built from. */
export interface InsightsServiceDeps {
  /** The pool: every insight is a read. */
  db: Db;
  lookups: LookupStore;
  store: InsightsStore;
  clock: Clock;
}

/**
 * Insights (specs/management.yaml, tag Insights): freshness and counters per flag and environment, stale flags,
 * default-value reports and observed context attributes. Reads what the telemetry flusher wrote.
 */
export class InsightsService {
  constructor(private readonly deps: InsightsServiceDeps) {}

  private async findEnvironment(principal: ManagementPrincipal, params: { projectKey: string; environmentKey: string }) {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, params.projectKey);
    const environment = await this.deps.lookups.findEnvironment(this.deps.db, principal.access, project, params.environmentKey);
    return { project, environment };
  }

  private action(operationId: string, fallback: string): string {
    return auditActionByOperation[operationId] ?? fallback;
  }

  async flagInsights(
    principal: ManagementPrincipal,
    params: { projectKey: string; flagKey: string; environmentKey: string },
    audit: Pick<Auditor, 'describe'>,
  ): Promise<FlagInsights> {
    const { project, flag, environment } = await this.deps.lookups.findFlagEnvironment(this.deps.db, principal.access, params);
    audit.describe({
      action: this.action('getFlagInsights', 'flag.insights_read'),
      subjectType: 'flag',
      subjectUlid: flag.ulid,
      subjectLabel: flag.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    const telemetry = await this.deps.store.flagTelemetry(this.deps.db, flag.ulid, environment.ulid);
    const updated = (await this.deps.store.lastUpdated(this.deps.db, [flag.ulid], environment.ulid)).get(flag.ulid) ?? null;
    const stored = telemetry?.last_updated_at ?? null;
    return {
      flag_key: flag.key,
      environment_key: environment.key,
      last_retrieved_at: telemetry?.last_retrieved_at ?? null,
      last_used_at: telemetry?.last_used_at ?? null,
      last_evaluated_at: telemetry?.last_evaluated_at ?? null,
      last_updated_at: updated !== null && (stored === null || updated > stored) ? updated : stored,
      retrieved_count: telemetry?.retrieved_count ?? 0,
      used_count: telemetry?.used_count ?? 0,
      evaluated_count: telemetry?.evaluated_count ?? 0,
    };
  }

  /** Distinct contexts per UTC day and variant of the flag's splits, the last `days` days (today included). */
  async splitExposures(
    principal: ManagementPrincipal,
    params: { projectKey: string; flagKey: string; environmentKey: string },
    days: number,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<Array<{ day: string; variant: string; contexts: number }>> {
    const { project, flag, environment } = await this.deps.lookups.findFlagEnvironment(this.deps.db, principal.access, params);
    audit.describe({
      action: this.action('listSplitExposures', 'flag.insights_read'),
      subjectType: 'flag',
      subjectUlid: flag.ulid,
      subjectLabel: flag.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    const fromDay = new Date(this.deps.clock.now().getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const records = await this.deps.store.exposures(this.deps.db, flag.ulid, environment.ulid, fromDay);
    return records
      .map((r) => ({ day: r.day, variant: r.variant, contexts: estimateDistinct(decodeSketch(r.registers)) }))
      .sort((a, b) => byText(b.day, a.day) || byText(a.variant, b.variant));
  }

  /** Evaluations per UTC hour and served value, the last `hours` hours (the current one included), and the last 24 h's total. */
  async evaluationHours(
    principal: ManagementPrincipal,
    params: { projectKey: string; flagKey: string; environmentKey: string },
    hours: number,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<FlagEvaluationHours> {
    const { project, flag, environment } = await this.deps.lookups.findFlagEnvironment(this.deps.db, principal.access, params);
    audit.describe({
      action: this.action('listFlagEvaluationHours', 'flag.insights_read'),
      subjectType: 'flag',
      subjectUlid: flag.ulid,
      subjectLabel: flag.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    const currentHour = Math.floor(this.deps.clock.now().getTime() / HOUR_MS) * HOUR_MS;
    const hourFrom = (back: number) => hourOf(new Date(currentHour - back * HOUR_MS).toISOString());
    const records = await this.deps.store.evaluationHours(this.deps.db, flag.ulid, environment.ulid, hourFrom(Math.max(hours, 24) - 1));
    const since24h = hourFrom(23);
    const since = hourFrom(hours - 1);
    let total = 0;
    for (const r of records) if (r.hour >= since24h) total += r.count;
    return {
      hours,
      buckets: records
        .filter((r) => r.hour >= since && r.count > 0)
        .sort((a, b) => byText(a.hour, b.hour) || byText(a.value, b.value))
        .map((r) => ({ hour: r.hour, value: r.value, count: r.count })),
      total_24h: total,
    };
  }

  /** Flags not permanent and not used in the environment for `days` days (never used: created before). */
  async staleFlags(
    principal: ManagementPrincipal,
    params: { projectKey: string; environmentKey: string },
    days: number,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<StaleFlag[]> {
    const { project, environment } = await this.findEnvironment(principal, params);
    audit.describe({
      action: this.action('listStaleFlags', 'flag.stale_listed'),
      subjectType: 'environment',
      subjectUlid: environment.ulid,
      subjectLabel: environment.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    const cutoff = new Date(this.deps.clock.now().getTime() - days * DAY_MS).toISOString();
    const flags = (await this.deps.store.projectFlags(this.deps.db, project.ulid)).filter((f) => !f.permanent);
    const lastUsed = await this.deps.store.lastUsed(this.deps.db, environment.ulid);
    const stale = flags.filter((f) => {
      const used = lastUsed.get(f.ulid) ?? null;
      return used === null ? f.created_at < cutoff : used < cutoff;
    });
    const updated = await this.deps.store.lastUpdated(
      this.deps.db,
      stale.map((f) => f.ulid),
      environment.ulid,
    );
    return stale
      .map((f) => ({
        key: f.key,
        name: f.name,
        last_used_at: lastUsed.get(f.ulid) ?? null,
        last_updated_at: updated.get(f.ulid) ?? f.updated_at,
        created_at: f.created_at,
      }))
      .sort((a, b) => {
        if (a.last_used_at !== b.last_used_at) {
          if (a.last_used_at === null) return -1;
          if (b.last_used_at === null) return 1;
          return byText(a.last_used_at, b.last_used_at);
        }
        return byText(a.key, b.key);
      });
  }

  async defaultValueReports(
    principal: ManagementPrincipal,
    params: { projectKey: string; environmentKey: string },
    audit: Pick<Auditor, 'describe'>,
  ): Promise<DefaultValueReports> {
    const { project, environment } = await this.findEnvironment(principal, params);
    audit.describe({
      action: this.action('listDefaultValueReports', 'flag.default_value_reports_read'),
      subjectType: 'environment',
      subjectUlid: environment.ulid,
      subjectLabel: environment.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    const keys = new Set((await this.deps.store.projectFlags(this.deps.db, project.ulid)).map((f) => f.key));
    const reports = (await this.deps.store.defaultReports(this.deps.db, environment.ulid)).sort(
      (a, b) => byText(b.last_seen_at, a.last_seen_at) || byText(a.flag_key, b.flag_key),
    );
    return {
      // A report names the state when it was seen: a flag deleted since, or created since, moves out.
      missing_defaults: reports
        .filter((r) => r.kind === 'missing_default' && keys.has(r.flag_key))
        .map((r) => ({ flag_key: r.flag_key, count: r.count, last_seen_at: r.last_seen_at })),
      unknown_flags: reports
        .filter((r) => r.kind === 'unknown_flag' && !keys.has(r.flag_key))
        .map((r) => ({ flag_key: r.flag_key, declared_type: r.declared_type ?? 'json', count: r.count, last_seen_at: r.last_seen_at })),
    };
  }

  async contextAttributes(
    principal: ManagementPrincipal,
    params: { projectKey: string; environmentKey: string },
    audit: Pick<Auditor, 'describe'>,
  ): Promise<ContextAttributes> {
    const { project, environment } = await this.findEnvironment(principal, params);
    audit.describe({
      action: this.action('listContextAttributes', 'context_attribute.listed'),
      subjectType: 'environment',
      subjectUlid: environment.ulid,
      subjectLabel: environment.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    const rows = await this.deps.store.contextObservations(this.deps.db, environment.ulid);
    const byCount =
      <T extends { count: number }>(name: (x: T) => string) =>
      (a: T, b: T) =>
        b.count - a.count || byText(name(a), name(b));
    const values = new Map<string, Array<{ value: string; count: number }>>();
    for (const r of rows) {
      if (r.kind !== 'value') continue;
      const list = values.get(r.name) ?? [];
      list.push({ value: r.value, count: r.count });
      values.set(r.name, list);
    }
    return {
      context_types: rows
        .filter((r) => r.kind === 'type')
        .map((r) => ({ type: r.name, count: r.count }))
        .sort(byCount((x) => x.type)),
      attributes: rows
        .filter((r) => r.kind === 'attribute')
        .map((r) => ({
          key: r.name,
          count: r.count,
          values: (values.get(r.name) ?? []).sort(byCount((x) => x.value)).slice(0, VALUES_PER_ATTRIBUTE),
        }))
        .sort(byCount((x) => x.key)),
    };
  }
}
