import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Dialect } from '../storage/database.js';
import { storageFailureOf } from '../storage/db-errors.js';
import type {
  ContextObservationDelta,
  DefaultReportDelta,
  EvaluationHourDelta,
  FlagTelemetryDelta,
  TelemetryBatch,
} from './telemetry-buffer.js';
import type { Db } from '../storage/db.js';

/** Writes drained telemetry batches. */
export interface TelemetryStore {
  /** Writes the batch; returns the part that could not be written (to retry later). */
  write(batch: TelemetryBatch): Promise<TelemetryBatch>;
}

/** Bounds of the context observations kept per environment (rule-editor suggestions). */
export const contextObservationLimits = {
  types: 50,
  attributes: 200,
  valuesPerAttribute: 500,
};

const ROWS_PER_STATEMENT = 200;

interface UpsertSpec {
  table: string;
  keys: string[];
  /** Columns added to the stored value on conflict. */
  add: string[];
  /** Timestamp columns that keep the later value on conflict. */
  latest: string[];
  /** Columns replaced on conflict unless the new value is null. */
  replace?: string[];
}

/**
 * `INSERT ... ON CONFLICT DO UPDATE` (SQLite, PostgreSQL) / `ON DUPLICATE KEY UPDATE` (MySQL) adding
 * counters and keeping the later timestamps, so concurrent instances aggregate correctly.
 */
async function upsert(db: Db, dialect: Dialect, spec: UpsertSpec, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const mysql = dialect === 'mysql';
  const q = (name: string) => (mysql ? `\`${name}\`` : `"${name}"`);
  const columns = Object.keys(rows[0]!);
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  const bindings: unknown[] = [];
  for (const row of rows) for (const c of columns) bindings.push(row[c]);
  const table = q(spec.table);
  const old = (c: string) => (mysql ? q(c) : `${table}.${q(c)}`);
  const incoming = (c: string) => (mysql ? `VALUES(${q(c)})` : `excluded.${q(c)}`);
  const sets = [
    ...spec.add.map((c) => `${q(c)} = ${old(c)} + ${incoming(c)}`),
    ...spec.latest.map(
      (c) =>
        `${q(c)} = CASE WHEN ${incoming(c)} IS NULL THEN ${old(c)} WHEN ${old(c)} IS NULL OR ${incoming(c)} > ${old(c)} THEN ${incoming(c)} ELSE ${old(c)} END`,
    ),
    ...(spec.replace ?? []).map((c) => `${q(c)} = COALESCE(${incoming(c)}, ${old(c)})`),
  ];
  const insert = `INSERT INTO ${table} (${columns.map(q).join(', ')}) VALUES ${rows.map(() => placeholders).join(', ')}`;
  const conflict = mysql
    ? ` ON DUPLICATE KEY UPDATE ${sets.join(', ')}`
    : ` ON CONFLICT (${spec.keys.map(q).join(', ')}) DO UPDATE SET ${sets.join(', ')}`;
  await db.raw(insert + conflict, bindings as Knex.RawBinding[]);
}

function chunk<T>(items: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const flagSpec: UpsertSpec = {
  table: 'flag_telemetry',
  keys: ['flag_ulid', 'environment_ulid'],
  add: ['retrieved_count', 'used_count', 'evaluated_count'],
  latest: ['last_retrieved_at', 'last_used_at', 'last_evaluated_at'],
};

const reportSpec: UpsertSpec = {
  table: 'default_value_reports',
  keys: ['environment_ulid', 'kind', 'flag_key'],
  add: ['count'],
  latest: ['last_seen_at'],
  replace: ['declared_type'],
};

const contextSpec: UpsertSpec = {
  table: 'context_observations',
  keys: ['environment_ulid', 'kind', 'name', 'value'],
  add: ['count'],
  latest: ['last_seen_at'],
};

const evaluationHourSpec: UpsertSpec = {
  table: 'evaluation_hours',
  keys: ['environment_ulid', 'flag_ulid', 'hour', 'value_digest'],
  add: ['count'],
  latest: [],
};

export class KnexTelemetryStore implements TelemetryStore {
  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
  ) {}

  async write(batch: TelemetryBatch): Promise<TelemetryBatch> {
    const failed: TelemetryBatch = { flags: [], defaultReports: [], contexts: [], evaluationHours: [] };
    failed.flags = await this.writeChunks(batch.flags, flagSpec, flagRow);
    failed.defaultReports = await this.writeChunks(batch.defaultReports, reportSpec, reportRow);
    failed.contexts = await this.writeContexts(batch.contexts);
    failed.evaluationHours = await this.writeChunks(batch.evaluationHours, evaluationHourSpec, evaluationHourRow);
    return failed;
  }

  private async writeChunks<T>(deltas: T[], spec: UpsertSpec, toRow: (delta: T) => Record<string, unknown>): Promise<T[]> {
    const failed: T[] = [];
    for (const part of chunk(deltas)) {
      try {
        await upsert(this.knex, this.dialect, spec, part.map(toRow));
      } catch (error) {
        if (storageFailureOf(error) !== 'foreign_key_violation') {
          failed.push(...part);
          continue;
        }
        // A flag or environment deleted since the event: write the others one by one.
        for (const delta of part) {
          try {
            await upsert(this.knex, this.dialect, spec, [toRow(delta)]);
          } catch (rowError) {
            if (storageFailureOf(rowError) !== 'foreign_key_violation') failed.push(delta);
          }
        }
      }
    }
    return failed;
  }

  /**
   * Context observations, bounded per environment: observations already stored always add up;
   * new context types, attribute names and values are inserted only while the environment holds
   * fewer than `contextObservationLimits` of them (the most frequent in the batch first).
   */
  private async writeContexts(deltas: ContextObservationDelta[]): Promise<ContextObservationDelta[]> {
    const byEnvironment = new Map<string, ContextObservationDelta[]>();
    for (const d of deltas) {
      const list = byEnvironment.get(d.environmentUlid) ?? [];
      list.push(d);
      byEnvironment.set(d.environmentUlid, list);
    }
    const failed: ContextObservationDelta[] = [];
    for (const [environmentUlid, list] of byEnvironment) {
      try {
        const accepted = await this.admitContexts(environmentUlid, list);
        failed.push(...(await this.writeChunks(accepted, contextSpec, contextRow)));
      } catch {
        failed.push(...list);
      }
    }
    return failed;
  }

  private async admitContexts(environmentUlid: string, list: ContextObservationDelta[]): Promise<ContextObservationDelta[]> {
    const stored = await this.knex('context_observations')
      .where('environment_ulid', environmentUlid)
      .whereIn('kind', ['type', 'attribute'])
      .select('kind', 'name');
    const types = new Set(stored.filter((r) => r.kind === 'type').map((r) => r.name as string));
    const attributes = new Set(stored.filter((r) => r.kind === 'attribute').map((r) => r.name as string));

    const valueNames = [...new Set(list.filter((d) => d.kind === 'value').map((d) => d.name))];
    const valueCounts = new Map<string, number>();
    const storedValues = new Set<string>();
    for (const names of chunk(valueNames)) {
      const counts = (await this.knex('context_observations')
        .where({ environment_ulid: environmentUlid, kind: 'value' })
        .whereIn('name', names)
        .groupBy('name')
        .select('name')
        .count({ n: '*' })) as Array<{ name: string; n: number | string }>;
      for (const row of counts) valueCounts.set(row.name, Number(row.n));
      const candidates = [...new Set(list.filter((d) => d.kind === 'value' && names.includes(d.name)).map((d) => d.value))];
      for (const values of chunk(candidates)) {
        const existing = await this.knex('context_observations')
          .where({ environment_ulid: environmentUlid, kind: 'value' })
          .whereIn('name', names)
          .whereIn('value', values)
          .select('name', 'value');
        for (const row of existing) storedValues.add(`${row.name as string}\u0000${row.value as string}`);
      }
    }

    const accepted: ContextObservationDelta[] = [];
    // The most frequent new entries get the free slots.
    const ordered = [...list].sort((a, b) => b.count - a.count);
    for (const d of ordered) {
      if (d.kind === 'type') {
        if (types.has(d.name)) accepted.push(d);
        else if (types.size < contextObservationLimits.types) {
          types.add(d.name);
          accepted.push(d);
        }
      } else if (d.kind === 'attribute') {
        if (attributes.has(d.name)) accepted.push(d);
        else if (attributes.size < contextObservationLimits.attributes) {
          attributes.add(d.name);
          accepted.push(d);
        }
      }
    }
    for (const d of ordered) {
      if (d.kind !== 'value' || !attributes.has(d.name)) continue;
      const key = `${d.name}\u0000${d.value}`;
      if (storedValues.has(key)) {
        accepted.push(d);
        continue;
      }
      const count = valueCounts.get(d.name) ?? 0;
      if (count < contextObservationLimits.valuesPerAttribute) {
        valueCounts.set(d.name, count + 1);
        storedValues.add(key);
        accepted.push(d);
      }
    }
    return accepted;
  }
}

function flagRow(d: FlagTelemetryDelta): Record<string, unknown> {
  return {
    flag_ulid: d.flagUlid,
    environment_ulid: d.environmentUlid,
    last_retrieved_at: d.lastRetrievedAt,
    last_used_at: d.lastUsedAt,
    last_evaluated_at: d.lastEvaluatedAt,
    retrieved_count: d.retrieved,
    used_count: d.used,
    evaluated_count: d.evaluated,
  };
}

function reportRow(d: DefaultReportDelta): Record<string, unknown> {
  return {
    environment_ulid: d.environmentUlid,
    flag_key: d.flagKey,
    kind: d.kind,
    declared_type: d.declaredType,
    count: d.count,
    last_seen_at: d.lastSeenAt,
  };
}

function contextRow(d: ContextObservationDelta): Record<string, unknown> {
  return {
    environment_ulid: d.environmentUlid,
    kind: d.kind,
    name: d.name,
    value: d.value,
    count: d.count,
    last_seen_at: d.lastSeenAt,
  };
}

function evaluationHourRow(d: EvaluationHourDelta): Record<string, unknown> {
  return {
    environment_ulid: d.environmentUlid,
    flag_ulid: d.flagUlid,
    hour: d.hour,
    value_digest: createHash('sha256').update(d.value).digest('hex'),
    value: d.value,
    count: d.count,
  };
}
