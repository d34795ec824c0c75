import type { Knex } from 'knex';
import { newId } from '../../ids.js';
import type { Dialect } from '../../storage/database.js';
import { bumpEnvironmentRevision } from '../../storage/revisions.js';
import { inTransaction } from '../../storage/transaction.js';
import { bool } from '../shared/lookup.js';
import type {
  LockedEnvironment,
  TargetCondition,
  TargetPatch,
  TargetRecord,
  TargetScope,
  TargetStore,
  TargetTransaction,
} from './store-types.js';
import type { Db } from '../../storage/db.js';
import { copySplits, deleteSplits, readSplits, writeSplit } from '../shared/split-store.js';

/** The records with their base splits. */
async function withSplits(db: Db, records: TargetRecord[]): Promise<TargetRecord[]> {
  if (records.length === 0) return records;
  const splits = await readSplits(
    db,
    records.map((r) => r.ulid),
  );
  for (const r of records) r.split = splits.get(r.ulid) ?? null;
  return records;
}

const columns = [
  'ulid',
  'flag_ulid',
  'environment_ulid',
  'value_ulid',
  'status',
  'comment',
  'scheduled_at',
  'published_at',
  'rollout_percentage',
  'rollout_mode',
  'rollout_status',
  'rollout_step_started_at',
  'created_at',
  'updated_at',
] as const;

function toRecord(row: Record<string, unknown>): TargetRecord {
  return {
    ulid: String(row.ulid),
    flag_ulid: String(row.flag_ulid),
    environment_ulid: String(row.environment_ulid),
    value_ulid: String(row.value_ulid),
    status: row.status as TargetRecord['status'],
    comment: (row.comment as string | null) ?? null,
    scheduled_at: (row.scheduled_at as string | null) ?? null,
    published_at: (row.published_at as string | null) ?? null,
    rollout_percentage: row.rollout_percentage === null || row.rollout_percentage === undefined ? null : Number(row.rollout_percentage),
    rollout_mode: (row.rollout_mode as TargetRecord['rollout_mode']) ?? null,
    rollout_status: (row.rollout_status as TargetRecord['rollout_status']) ?? null,
    rollout_step_started_at: (row.rollout_step_started_at as string | null) ?? null,
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

function applyCondition(query: Knex.QueryBuilder, condition: TargetCondition): Knex.QueryBuilder {
  if (condition.status) query.whereIn('status', [...condition.status]);
  if (condition.rollout_status) {
    const values = condition.rollout_status.filter((s): s is NonNullable<typeof s> => s !== null);
    const withNull = condition.rollout_status.includes(null);
    query.where((q) => {
      if (values.length > 0) q.whereIn('rollout_status', values);
      else q.whereRaw('1 = 0');
      if (withNull) q.orWhereNull('rollout_status');
    });
  }
  if (condition.rollout_step_started_at !== undefined) {
    if (condition.rollout_step_started_at === null) query.whereNull('rollout_step_started_at');
    else query.where('rollout_step_started_at', condition.rollout_step_started_at);
  }
  return query;
}

async function findTarget(db: Db, flagUlid: string, environmentUlid: string, targetUlid: string, lock: boolean) {
  const query = db('targets')
    .where({ ulid: targetUlid, flag_ulid: flagUlid, environment_ulid: environmentUlid })
    .first(...columns);
  if (lock) query.forUpdate();
  const row = await query;
  return row ? (await withSplits(db, [toRecord(row)]))[0] : undefined;
}

class KnexTargetTransaction implements TargetTransaction {
  constructor(
    readonly trx: Knex.Transaction,
    private readonly dialect: Dialect,
  ) {}

  /** MySQL only: SQLite has one writer at a time and no FOR UPDATE. */
  private get locking(): boolean {
    return this.dialect === 'mysql';
  }

  async lockEnvironment(environmentUlid: string): Promise<LockedEnvironment | undefined> {
    const query = this.trx('environments').where('ulid', environmentUlid).first('ulid', 'comments_required', 'confirmation_required');
    if (this.locking) query.forUpdate();
    const row = await query;
    if (!row) return undefined;
    return {
      ulid: row.ulid,
      comments_required: bool(row.comments_required),
      confirmation_required: bool(row.confirmation_required),
    };
  }

  find(flagUlid: string, environmentUlid: string, targetUlid: string) {
    // A locking read sees the latest committed row whatever the transaction's snapshot.
    return findTarget(this.trx, flagUlid, environmentUlid, targetUlid, this.locking);
  }

  async listPublished(flagUlid: string, environmentUlid: string): Promise<TargetRecord[]> {
    const query = this.trx('targets')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid, status: 'published' })
      .orderBy([
        { column: 'published_at', order: 'desc' },
        { column: 'ulid', order: 'desc' },
      ])
      .select(...columns);
    if (this.locking) query.forUpdate();
    return withSplits(this.trx, (await query).map(toRecord));
  }

  async latestPublishedAt(flagUlid: string, environmentUlid: string): Promise<string | null> {
    const row = await this.trx('targets')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid })
      .whereNotNull('published_at')
      .max({ latest: 'published_at' })
      .first();
    return (row?.latest as string | null | undefined) ?? null;
  }

  async insert(record: TargetRecord): Promise<void> {
    const { split, ...row } = record;
    await this.trx('targets').insert(row);
    if (split) await writeSplit(this.trx, record.ulid, split);
  }

  async updateIf(targetUlid: string, condition: TargetCondition, patch: TargetPatch): Promise<boolean> {
    const { split, ...row } = patch;
    const query = this.trx('targets').where('ulid', targetUlid);
    applyCondition(query, condition);
    const changed = await query.update(row);
    if (Number(changed) !== 1) return false;
    if ('split' in patch) await writeSplit(this.trx, targetUlid, split ?? null);
    return true;
  }

  async deleteIf(targetUlid: string, condition: TargetCondition): Promise<boolean> {
    const ruleUlids = this.trx('rules').where('target_ulid', targetUlid).select('ulid');
    const criterionUlids = this.trx('criteria').whereIn('rule_ulid', ruleUlids).select('ulid');
    const query = this.trx('targets').where('ulid', targetUlid);
    applyCondition(query, condition);
    // Check first, then remove the rows explicitly (the foreign keys cascade too).
    const present = await query.clone().first('ulid');
    if (!present) return false;
    await this.trx('criterion_segments').whereIn('criterion_ulid', criterionUlids).delete();
    const ruleRows = (await ruleUlids.clone()) as { ulid: string }[];
    await deleteSplits(this.trx, [targetUlid, ...ruleRows.map((r) => r.ulid)]);
    await this.trx('criteria').whereIn('rule_ulid', ruleUlids).delete();
    await this.trx('rules').where('target_ulid', targetUlid).delete();
    const deleted = await query.delete();
    return Number(deleted) === 1;
  }

  async expire(targetUlids: readonly string[], now: string): Promise<void> {
    if (targetUlids.length === 0) return;
    await this.trx('targets')
      .whereIn('ulid', [...targetUlids])
      .where('status', 'published')
      // An expired target's rollout is over (specs/management.yaml, rollout lifecycle).
      .update({
        status: 'expired',
        rollout_status: this.trx.raw("CASE WHEN rollout_status IN ('active', 'paused') THEN 'completed' ELSE rollout_status END"),
        updated_at: now,
      });
  }

  async defaultValueUlid(flagUlid: string): Promise<string | undefined> {
    const row = await this.trx('flag_values')
      .where({ flag_ulid: flagUlid })
      .orderBy([
        { column: 'is_default', order: 'desc' },
        { column: 'ulid', order: 'asc' },
      ])
      .first('ulid', 'is_default');
    return row && bool(row.is_default) ? (row.ulid as string) : undefined;
  }

  async valueBelongsToFlag(valueUlid: string, flagUlid: string): Promise<boolean> {
    const query = this.trx('flag_values').where({ ulid: valueUlid, flag_ulid: flagUlid }).first('ulid');
    // Share lock: a racing deleteFlagValue waits for this transaction and then sees the reference.
    if (this.locking) query.forShare();
    return (await query) !== undefined;
  }

  async copyRules(fromTargetUlid: string, toTargetUlid: string, now: string): Promise<void> {
    // The target's prerequisites go with its rules (features/prerequisites).
    const prerequisites = await this.trx('target_prerequisites').where('target_ulid', fromTargetUlid).select('*');
    if (prerequisites.length > 0) {
      await this.trx('target_prerequisites').insert(
        prerequisites.map((p: Record<string, unknown>) => ({ ...p, target_ulid: toTargetUlid })),
      );
    }
    const rules = await this.trx('rules')
      .where('target_ulid', fromTargetUlid)
      .orderBy([{ column: 'position' }, { column: 'ulid' }])
      .select('*');
    const ruleMap = new Map<string, string>();
    const newRules = rules.map((rule: Record<string, unknown>) => {
      const ulid = newId('rule');
      ruleMap.set(String(rule.ulid), ulid);
      return { ...rule, ulid, target_ulid: toTargetUlid, created_at: now, updated_at: now };
    });
    if (newRules.length > 0) await this.trx('rules').insert(newRules);
    await copySplits(this.trx, new Map([[fromTargetUlid, toTargetUlid], ...ruleMap]));
    if (rules.length === 0) return;

    const criteria = await this.trx('criteria')
      .whereIn('rule_ulid', [...ruleMap.keys()])
      .orderBy([{ column: 'position' }, { column: 'ulid' }])
      .select('*');
    if (criteria.length === 0) return;
    const criterionMap = new Map<string, string>();
    const newCriteria = criteria.map((criterion: Record<string, unknown>) => {
      const ulid = newId('criterion');
      criterionMap.set(String(criterion.ulid), ulid);
      return { ...criterion, ulid, rule_ulid: ruleMap.get(String(criterion.rule_ulid)) };
    });
    // Chunked: a rule may have up to 50 criteria, each with up to 1000 values (large rows).
    for (let i = 0; i < newCriteria.length; i += 50) await this.trx('criteria').insert(newCriteria.slice(i, i + 50));

    const links = await this.trx('criterion_segments')
      .whereIn('criterion_ulid', [...criterionMap.keys()])
      .select('*');
    const newLinks = links.map((link: Record<string, unknown>) => ({
      ...link,
      criterion_ulid: criterionMap.get(String(link.criterion_ulid)),
    }));
    for (let i = 0; i < newLinks.length; i += 500) await this.trx('criterion_segments').insert(newLinks.slice(i, i + 500));
  }

  bumpRevision(environmentUlid: string, flagUlid: string): Promise<void> {
    return bumpEnvironmentRevision(this.trx, environmentUlid, [flagUlid]);
  }
}

export class KnexTargetStore implements TargetStore {
  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
  ) {}

  async list(flagUlid: string, environmentUlid: string): Promise<TargetRecord[]> {
    const rows = await this.knex('targets')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'ulid', order: 'desc' },
      ])
      .select(...columns);
    return withSplits(this.knex, rows.map(toRecord));
  }

  find(flagUlid: string, environmentUlid: string, targetUlid: string) {
    return findTarget(this.knex, flagUlid, environmentUlid, targetUlid, false);
  }

  transaction<T>(work: (tx: TargetTransaction) => Promise<T>): Promise<T> {
    return inTransaction(this.knex, (trx) => work(new KnexTargetTransaction(trx, this.dialect)));
  }

  private scoped(): Knex.QueryBuilder {
    return this.knex('targets as t')
      .join('flags as f', 'f.ulid', 't.flag_ulid')
      .join('environments as e', 'e.ulid', 't.environment_ulid')
      .join('projects as p', 'p.ulid', 'f.project_ulid')
      .select(
        ...columns.map((c) => `t.${c}`),
        'p.ulid as project_ulid',
        'p.key as project_key',
        'f.key as flag_key',
        'e.key as environment_key',
      );
  }

  private toScope(row: Record<string, unknown>): TargetScope {
    return {
      target: toRecord(row),
      projectUlid: String(row.project_ulid),
      projectKey: String(row.project_key),
      flagKey: String(row.flag_key),
      environmentKey: String(row.environment_key),
    };
  }

  async dueScheduled(now: string, limit: number): Promise<TargetScope[]> {
    const rows = await this.scoped()
      .where('t.status', 'scheduled')
      .where('t.scheduled_at', '<=', now)
      .orderBy([{ column: 't.scheduled_at' }, { column: 't.ulid' }])
      .limit(limit);
    return rows.map((row: Record<string, unknown>) => this.toScope(row));
  }

  async dueRolloutSteps(startedBefore: string, limit: number): Promise<TargetScope[]> {
    const rows = await this.scoped()
      .where({ 't.status': 'published', 't.rollout_mode': 'automatic', 't.rollout_status': 'active' })
      .whereNotNull('t.rollout_step_started_at')
      .where('t.rollout_step_started_at', '<=', startedBefore)
      .orderBy([{ column: 't.rollout_step_started_at' }, { column: 't.ulid' }])
      .limit(limit);
    return rows.map((row: Record<string, unknown>) => this.toScope(row));
  }

  async lastSystemFailure(targetUlid: string, action: string): Promise<boolean> {
    const row = await this.knex('audit_entries')
      .where('subject_ulid', targetUlid)
      .orderBy('ulid', 'desc')
      .first('action', 'actor_type', 'result');
    return row !== undefined && row.action === action && row.actor_type === 'system' && row.result !== 'success';
  }
}
