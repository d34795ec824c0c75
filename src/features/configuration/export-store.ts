import type { Db } from '../../storage/db.js';
import { inChunks } from '../../storage/chunks.js';
import { readSplits } from '../shared/split-store.js';
import type { SplitRecord } from '../shared/splits.js';

/** Rows the export reads, in the order the document lists them. */
export interface EnvironmentRow {
  ulid: string;
  key: string;
  name: string;
  description: string | null;
  color: string;
  comments_required: boolean;
  confirmation_required: boolean;
}

export interface FlagRow {
  ulid: string;
  key: string;
  name: string;
  type: 'boolean' | 'number' | 'string' | 'json';
  description: string | null;
  permanent: boolean;
  include_in_mobile: boolean;
  include_in_client: boolean;
  tags: string[];
}

export interface ValueRow {
  ulid: string;
  flag_ulid: string;
  display: string;
  is_default: boolean;
}

export interface ServingTargetRow {
  ulid: string;
  flag_ulid: string;
  environment_ulid: string;
  value_ulid: string;
  comment: string | null;
  rollout_mode: 'manual' | 'automatic' | null;
  rollout_percentage: number | null;
  rollout_status: string | null;
}

export interface RuleRow {
  ulid: string;
  target_ulid: string;
  value_ulid: string;
  description: string;
}

export interface CriterionRow {
  rule_ulid: string;
  selector: 'attribute' | 'context' | 'segment';
  sub_selector: string | null;
  comparer: string;
  values: string[];
}

const bool = (value: unknown) => Boolean(value);

/** Set-based reads of one project's configuration: a fixed number of queries per 500 flags. */
export interface PrerequisiteRow {
  target_ulid: string;
  flag_key: string;
  value_ulids: string[];
}

export class ConfigurationExportStore {
  async environments(db: Db, projectUlid: string): Promise<EnvironmentRow[]> {
    const rows = await db('environments')
      .where('project_ulid', projectUlid)
      .orderBy('ulid')
      .select('ulid', 'key', 'name', 'description', 'color', 'comments_required', 'confirmation_required');
    return rows.map((r) => ({ ...r, comments_required: bool(r.comments_required), confirmation_required: bool(r.confirmation_required) }));
  }

  async projectDescription(db: Db, projectUlid: string): Promise<string> {
    const row = await db('projects').where('ulid', projectUlid).first('description');
    return (row?.description as string | null) ?? '';
  }

  async flags(db: Db, projectUlid: string): Promise<FlagRow[]> {
    const rows = await db('flags')
      .where('project_ulid', projectUlid)
      .orderBy('key')
      .select('ulid', 'key', 'name', 'type', 'description', 'permanent', 'include_in_mobile', 'include_in_client', 'tags');
    return rows.map((r) => ({
      ...r,
      tags: JSON.parse(String(r.tags ?? '[]')) as string[],
      permanent: bool(r.permanent),
      include_in_mobile: bool(r.include_in_mobile),
      include_in_client: bool(r.include_in_client),
    }));
  }

  async values(db: Db, flagUlids: readonly string[]): Promise<ValueRow[]> {
    const rows = await inChunks(flagUlids, (chunk) =>
      db('flag_values').whereIn('flag_ulid', chunk).orderBy('ulid').select('ulid', 'flag_ulid', 'display', 'is_default'),
    );
    return rows.map((r) => ({ ...r, is_default: bool(r.is_default) }));
  }

  /** The newest published target of each flag in each of the environments. */
  async servingTargets(db: Db, flagUlids: readonly string[], environmentUlids: readonly string[]): Promise<ServingTargetRow[]> {
    if (environmentUlids.length === 0) return [];
    const rows = await inChunks(flagUlids, (chunk) =>
      db('targets')
        .whereIn('flag_ulid', chunk)
        .whereIn('environment_ulid', environmentUlids as string[])
        .where('status', 'published')
        .orderBy([
          { column: 'published_at', order: 'desc' },
          { column: 'ulid', order: 'desc' },
        ])
        .select('ulid', 'flag_ulid', 'environment_ulid', 'value_ulid', 'comment', 'rollout_mode', 'rollout_percentage', 'rollout_status'),
    );
    const newest = new Map<string, ServingTargetRow>();
    for (const row of rows as ServingTargetRow[]) {
      const slot = `${row.flag_ulid}/${row.environment_ulid}`;
      if (!newest.has(slot)) newest.set(slot, row);
    }
    return [...newest.values()];
  }

  /** Prerequisites of these targets, in the order they are checked (features/prerequisites). */
  async prerequisites(db: Db, targetUlids: readonly string[]): Promise<PrerequisiteRow[]> {
    const rows = (await inChunks(targetUlids, (chunk) =>
      db('target_prerequisites as p')
        .join('flags as f', 'f.ulid', 'p.required_flag_ulid')
        .whereIn('p.target_ulid', chunk)
        .orderBy(['p.target_ulid', 'p.position'])
        .select('p.target_ulid', 'f.key as flag_key', 'p.value_ulids'),
    )) as { target_ulid: string; flag_key: string; value_ulids: string }[];
    return rows.map((r) => ({ target_ulid: r.target_ulid, flag_key: r.flag_key, value_ulids: JSON.parse(r.value_ulids) as string[] }));
  }

  /** The flags these targets require (their prerequisites' flags), each once. */
  async requiredFlagUlids(db: Db, targetUlids: readonly string[]): Promise<string[]> {
    const rows = (await inChunks(targetUlids, (chunk) =>
      db('target_prerequisites').whereIn('target_ulid', chunk).distinct('required_flag_ulid'),
    )) as { required_flag_ulid: string }[];
    return [...new Set(rows.map((r) => r.required_flag_ulid))];
  }

  async rules(db: Db, targetUlids: readonly string[]): Promise<RuleRow[]> {
    return inChunks(targetUlids, (chunk) =>
      db('rules')
        .whereIn('target_ulid', chunk)
        .orderBy(['target_ulid', 'position'])
        .select('ulid', 'target_ulid', 'value_ulid', 'description'),
    );
  }

  /** The splits of these targets and rules, by owner ulid. */
  splits(db: Db, ownerUlids: readonly string[]): Promise<Map<string, SplitRecord>> {
    return readSplits(db, ownerUlids);
  }

  async criteria(db: Db, ruleUlids: readonly string[]): Promise<CriterionRow[]> {
    const rows = await inChunks(ruleUlids, (chunk) =>
      db('criteria')
        .whereIn('rule_ulid', chunk)
        .orderBy(['rule_ulid', 'position'])
        .select('rule_ulid', 'selector', 'sub_selector', 'comparer', 'values'),
    );
    return rows.map((r) => ({ ...r, values: JSON.parse(r.values as string) as string[] }));
  }
}
