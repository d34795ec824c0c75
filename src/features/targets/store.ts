import type { Knex } from 'knex';
import { newId } from '../../ids.js';
import { type Dialect, hasRowLocks } from '../../storage/database.js';
import { bumpEnvironmentRevision } from '../../storage/revisions.js';
import { bool } from '../shared/lookup.js';
import type { LockedEnvironment, TargetCondition, TargetPatch, TargetRecord, TargetScope, TargetStore } from './store-types.js';
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

export class KnexTargetStore implements TargetStore {
  constructor(private readonly dialect: Dialect) {}

  async list(db: Db, flagUlid: string, environmentUlid: string): Promise<TargetRecord[]> {
    const rows = await db('targets')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'ulid', order: 'desc' },
      ])
      .select(...columns);
    return withSplits(db, rows.map(toRecord));
  }

  find(db: Db, flagUlid: string, environmentUlid: string, targetUlid: string) {
    return findTarget(db, flagUlid, environmentUlid, targetUlid, false);
  }

  /** MySQL and PostgreSQL: SQLite has one writer at a time and no FOR UPDATE. */
  private get locking(): boolean {
    return hasRowLocks(this.dialect);
  }

  async lockFlagTargets(trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<LockedEnvironment | undefined> {
    // The flag's row, not the environment's: the environment's row takes every change's revision
    // bump (storage/revisions.ts), and a lock on it would queue the changes of every flag of the
    // environment behind each other for their whole transactions.
    if (this.locking && !(await trx('flags').where('ulid', flagUlid).forUpdate().first('ulid'))) return undefined;
    const row = await trx('environments').where('ulid', environmentUlid).first('ulid', 'comments_required', 'confirmation_required');
    if (!row) return undefined;
    return {
      ulid: row.ulid,
      comments_required: bool(row.comments_required),
      confirmation_required: bool(row.confirmation_required),
    };
  }

  findLocked(trx: Knex.Transaction, flagUlid: string, environmentUlid: string, targetUlid: string) {
    // A locking read sees the latest committed row whatever the transaction's snapshot.
    return findTarget(trx, flagUlid, environmentUlid, targetUlid, this.locking);
  }

  async listPublished(trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<TargetRecord[]> {
    const query = trx('targets')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid, status: 'published' })
      .orderBy([
        { column: 'published_at', order: 'desc' },
        { column: 'ulid', order: 'desc' },
      ])
      .select(...columns);
    if (this.locking) query.forUpdate();
    return withSplits(trx, (await query).map(toRecord));
  }

  async latestPublishedAt(trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<string | null> {
    const row = await trx('targets')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid })
      .whereNotNull('published_at')
      .max({ latest: 'published_at' })
      .first();
    return (row?.latest as string | null | undefined) ?? null;
  }

  async insert(trx: Knex.Transaction, record: TargetRecord): Promise<void> {
    const { split, ...row } = record;
    await trx('targets').insert(row);
    if (split) await writeSplit(trx, record.ulid, split);
  }

  async updateIf(trx: Knex.Transaction, targetUlid: string, condition: TargetCondition, patch: TargetPatch): Promise<boolean> {
    const { split, ...row } = patch;
    const query = trx('targets').where('ulid', targetUlid);
    applyCondition(query, condition);
    const changed = await query.update(row);
    if (Number(changed) !== 1) return false;
    if ('split' in patch) await writeSplit(trx, targetUlid, split ?? null);
    return true;
  }

  async deleteIf(trx: Knex.Transaction, targetUlid: string, condition: TargetCondition): Promise<boolean> {
    const ruleUlids = trx('rules').where('target_ulid', targetUlid).select('ulid');
    const criterionUlids = trx('criteria').whereIn('rule_ulid', ruleUlids).select('ulid');
    const query = trx('targets').where('ulid', targetUlid);
    applyCondition(query, condition);
    // Check first, then remove the rows explicitly (the foreign keys cascade too).
    const present = await query.clone().first('ulid');
    if (!present) return false;
    await trx('criterion_segments').whereIn('criterion_ulid', criterionUlids).delete();
    const ruleRows = (await ruleUlids.clone()) as { ulid: string }[];
    await deleteSplits(trx, [targetUlid, ...ruleRows.map((r) => r.ulid)]);
    await trx('criteria').whereIn('rule_ulid', ruleUlids).delete();
    await trx('rules').where('target_ulid', targetUlid).delete();
    const deleted = await query.delete();
    return Number(deleted) === 1;
  }

  async expire(trx: Knex.Transaction, targetUlids: readonly string[], now: string): Promise<void> {
    if (targetUlids.length === 0) return;
    await trx('targets')
      .whereIn('ulid', [...targetUlids])
      .where('status', 'published')
      // An expired target's rollout is over (specs/management.yaml, rollout lifecycle).
      .update({
        status: 'expired',
        rollout_status: trx.raw("CASE WHEN rollout_status IN ('active', 'paused') THEN 'completed' ELSE rollout_status END"),
        updated_at: now,
      });
  }

  async defaultValueUlid(trx: Knex.Transaction, flagUlid: string): Promise<string | undefined> {
    const row = await trx('flag_values')
      .where({ flag_ulid: flagUlid })
      .orderBy([
        { column: 'is_default', order: 'desc' },
        { column: 'ulid', order: 'asc' },
      ])
      .first('ulid', 'is_default');
    return row && bool(row.is_default) ? (row.ulid as string) : undefined;
  }

  async valueBelongsToFlag(trx: Knex.Transaction, valueUlid: string, flagUlid: string): Promise<boolean> {
    const query = trx('flag_values').where({ ulid: valueUlid, flag_ulid: flagUlid }).first('ulid');
    // Locked (exclusively: docs/databases.md): a racing deleteFlagValue waits for this transaction and then sees the reference.
    if (this.locking) query.forUpdate();
    return (await query) !== undefined;
  }

  async copyRules(trx: Knex.Transaction, fromTargetUlid: string, toTargetUlid: string, now: string): Promise<void> {
    // The target's prerequisites go with its rules (features/prerequisites).
    const prerequisites = await trx('target_prerequisites').where('target_ulid', fromTargetUlid).select('*');
    if (prerequisites.length > 0) {
      await trx('target_prerequisites').insert(prerequisites.map((p: Record<string, unknown>) => ({ ...p, target_ulid: toTargetUlid })));
    }
    const rules = await trx('rules')
      .where('target_ulid', fromTargetUlid)
      .orderBy([{ column: 'position' }, { column: 'ulid' }])
      .select('*');
    const ruleMap = new Map<string, string>();
    const newRules = rules.map((rule: Record<string, unknown>) => {
      const ulid = newId('rule');
      ruleMap.set(String(rule.ulid), ulid);
      return { ...rule, ulid, target_ulid: toTargetUlid, created_at: now, updated_at: now };
    });
    if (newRules.length > 0) await trx('rules').insert(newRules);
    await copySplits(trx, new Map([[fromTargetUlid, toTargetUlid], ...ruleMap]));
    if (rules.length === 0) return;

    const criteria = await trx('criteria')
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
    for (let i = 0; i < newCriteria.length; i += 50) await trx('criteria').insert(newCriteria.slice(i, i + 50));

    const links = await trx('criterion_segments')
      .whereIn('criterion_ulid', [...criterionMap.keys()])
      .select('*');
    const newLinks = links.map((link: Record<string, unknown>) => ({
      ...link,
      criterion_ulid: criterionMap.get(String(link.criterion_ulid)),
    }));
    for (let i = 0; i < newLinks.length; i += 500) await trx('criterion_segments').insert(newLinks.slice(i, i + 500));
  }

  bumpRevision(trx: Knex.Transaction, environmentUlid: string, flagUlid: string): Promise<void> {
    return bumpEnvironmentRevision(trx, environmentUlid, [flagUlid]);
  }

  private scoped(db: Db): Knex.QueryBuilder {
    return db('targets as t')
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

  async dueScheduled(db: Db, now: string, limit: number): Promise<TargetScope[]> {
    const rows = await this.scoped(db)
      .where('t.status', 'scheduled')
      .where('t.scheduled_at', '<=', now)
      .orderBy([{ column: 't.scheduled_at' }, { column: 't.ulid' }])
      .limit(limit);
    return rows.map((row: Record<string, unknown>) => this.toScope(row));
  }

  async dueRolloutSteps(db: Db, startedBefore: string, limit: number): Promise<TargetScope[]> {
    const rows = await this.scoped(db)
      .where({ 't.status': 'published', 't.rollout_mode': 'automatic', 't.rollout_status': 'active' })
      .whereNotNull('t.rollout_step_started_at')
      .where('t.rollout_step_started_at', '<=', startedBefore)
      .orderBy([{ column: 't.rollout_step_started_at' }, { column: 't.ulid' }])
      .limit(limit);
    return rows.map((row: Record<string, unknown>) => this.toScope(row));
  }

  async lastSystemFailure(db: Db, targetUlid: string, action: string): Promise<boolean> {
    const row = await db('audit_entries').where('subject_ulid', targetUlid).orderBy('ulid', 'desc').first('action', 'actor_type', 'result');
    return row !== undefined && row.action === action && row.actor_type === 'system' && row.result !== 'success';
  }
}
