import type { Db } from '../../storage/db.js';
import { chunks } from '../../storage/chunks.js';
import { bool } from '../shared/lookup.js';
import type {
  ContextObservationRecord,
  DefaultReportRecord,
  EvaluationHourRecord,
  ExposureRecord,
  FlagTelemetryRecord,
  InsightsStore,
  ProjectFlagRecord,
} from './store-types.js';

function later(map: Map<string, string>, key: string, value: string | null | undefined): void {
  if (!value) return;
  const current = map.get(key);
  if (current === undefined || value > current) map.set(key, value);
}

export class KnexInsightsStore implements InsightsStore {
  async flagTelemetry(db: Db, flagUlid: string, environmentUlid: string): Promise<FlagTelemetryRecord | undefined> {
    const row = await db('flag_telemetry')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid })
      .first(
        'last_retrieved_at',
        'last_used_at',
        'last_evaluated_at',
        'last_updated_at',
        'retrieved_count',
        'used_count',
        'evaluated_count',
      );
    if (!row) return undefined;
    return {
      last_retrieved_at: row.last_retrieved_at ?? null,
      last_used_at: row.last_used_at ?? null,
      last_evaluated_at: row.last_evaluated_at ?? null,
      last_updated_at: row.last_updated_at ?? null,
      retrieved_count: Number(row.retrieved_count),
      used_count: Number(row.used_count),
      evaluated_count: Number(row.evaluated_count),
    };
  }

  async lastUsed(db: Db, environmentUlid: string): Promise<Map<string, string | null>> {
    const rows: Array<{ flag_ulid: string; last_used_at: string | null }> = await db('flag_telemetry')
      .where('environment_ulid', environmentUlid)
      .select('flag_ulid', 'last_used_at');
    return new Map(rows.map((r) => [r.flag_ulid, r.last_used_at ?? null]));
  }

  async lastUpdated(db: Db, flagUlids: readonly string[], environmentUlid: string): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    for (const part of chunks(flagUlids)) {
      const flags: Array<{ ulid: string; updated_at: string }> = await db('flags').whereIn('ulid', part).select('ulid', 'updated_at');
      for (const f of flags) later(result, f.ulid, f.updated_at);

      const values = (await db('flag_values')
        .whereIn('flag_ulid', part)
        .groupBy('flag_ulid')
        .select('flag_ulid')
        .max({ m: 'updated_at' })) as Array<{ flag_ulid: string; m: string | null }>;
      for (const v of values) later(result, v.flag_ulid, v.m);

      const targets = (await db('targets')
        .where('environment_ulid', environmentUlid)
        .whereIn('flag_ulid', part)
        .groupBy('flag_ulid')
        .select('flag_ulid')
        .max({ m: 'updated_at' })) as Array<{ flag_ulid: string; m: string | null }>;
      for (const t of targets) later(result, t.flag_ulid, t.m);

      const rules = (await db('rules as r')
        .join('targets as t', 't.ulid', 'r.target_ulid')
        .where('t.environment_ulid', environmentUlid)
        .whereIn('t.flag_ulid', part)
        .groupBy('t.flag_ulid')
        .select('t.flag_ulid as flag_ulid')
        .max({ m: 'r.updated_at' })) as Array<{ flag_ulid: string; m: string | null }>;
      for (const r of rules) later(result, r.flag_ulid, r.m);
    }
    return result;
  }

  async projectFlags(db: Db, projectUlid: string): Promise<ProjectFlagRecord[]> {
    const rows = await db('flags')
      .where('project_ulid', projectUlid)
      .select('ulid', 'key', 'name', 'permanent', 'created_at', 'updated_at');
    return rows.map((r) => ({
      ulid: r.ulid,
      key: r.key,
      name: r.name,
      permanent: bool(r.permanent),
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }

  async defaultReports(db: Db, environmentUlid: string): Promise<DefaultReportRecord[]> {
    const rows = await db('default_value_reports')
      .where('environment_ulid', environmentUlid)
      .select('kind', 'flag_key', 'declared_type', 'count', 'last_seen_at');
    return rows.map((r) => ({
      kind: r.kind,
      flag_key: r.flag_key,
      declared_type: r.declared_type ?? null,
      count: Number(r.count),
      last_seen_at: r.last_seen_at,
    }));
  }

  async contextObservations(db: Db, environmentUlid: string): Promise<ContextObservationRecord[]> {
    const rows = await db('context_observations').where('environment_ulid', environmentUlid).select('kind', 'name', 'value', 'count');
    return rows.map((r) => ({ kind: r.kind, name: r.name, value: r.value ?? '', count: Number(r.count) }));
  }

  async exposures(db: Db, flagUlid: string, environmentUlid: string, fromDay: string): Promise<ExposureRecord[]> {
    const rows = await db('split_exposures')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid })
      .where('day', '>=', fromDay)
      .select('day', 'variant', 'registers');
    return rows.map((r) => ({ day: String(r.day), variant: String(r.variant), registers: String(r.registers) }));
  }

  async evaluationHours(db: Db, flagUlid: string, environmentUlid: string, fromHour: string): Promise<EvaluationHourRecord[]> {
    const rows = await db('evaluation_hours')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid })
      .where('hour', '>=', fromHour)
      .select('hour', 'value', 'count');
    return rows.map((r) => ({ hour: String(r.hour), value: String(r.value), count: Number(r.count) }));
  }
}
