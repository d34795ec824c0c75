import type { Knex } from 'knex';

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

/** Keeps IN lists well below every driver's parameter limit. */
const chunkSize = 500;

async function inChunks<T>(ids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += chunkSize) rows.push(...(await read(ids.slice(i, i + chunkSize))));
  return rows;
}

const bool = (value: unknown) => Boolean(value);

/** Set-based reads of one project's configuration: a fixed number of queries per 500 flags. */
export class ConfigurationExportStore {
  constructor(private readonly db: Knex) {}

  async environments(projectUlid: string): Promise<EnvironmentRow[]> {
    const rows = await this.db('environments')
      .where('project_ulid', projectUlid)
      .orderBy('ulid')
      .select('ulid', 'key', 'name', 'description', 'color', 'comments_required', 'confirmation_required');
    return rows.map((r) => ({ ...r, comments_required: bool(r.comments_required), confirmation_required: bool(r.confirmation_required) }));
  }

  async projectDescription(projectUlid: string): Promise<string> {
    const row = await this.db('projects').where('ulid', projectUlid).first('description');
    return (row?.description as string | null) ?? '';
  }

  async flags(projectUlid: string): Promise<FlagRow[]> {
    const rows = await this.db('flags')
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

  async values(flagUlids: readonly string[]): Promise<ValueRow[]> {
    const rows = await inChunks(flagUlids, (chunk) =>
      this.db('flag_values').whereIn('flag_ulid', chunk).orderBy('ulid').select('ulid', 'flag_ulid', 'display', 'is_default'),
    );
    return rows.map((r) => ({ ...r, is_default: bool(r.is_default) }));
  }

  /** The newest published target of each flag in each of the environments. */
  async servingTargets(flagUlids: readonly string[], environmentUlids: readonly string[]): Promise<ServingTargetRow[]> {
    if (environmentUlids.length === 0) return [];
    const rows = await inChunks(flagUlids, (chunk) =>
      this.db('targets')
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

  async rules(targetUlids: readonly string[]): Promise<RuleRow[]> {
    return inChunks(targetUlids, (chunk) =>
      this.db('rules')
        .whereIn('target_ulid', chunk)
        .orderBy(['target_ulid', 'position'])
        .select('ulid', 'target_ulid', 'value_ulid', 'description'),
    );
  }

  async criteria(ruleUlids: readonly string[]): Promise<CriterionRow[]> {
    const rows = await inChunks(ruleUlids, (chunk) =>
      this.db('criteria')
        .whereIn('rule_ulid', chunk)
        .orderBy(['rule_ulid', 'position'])
        .select('rule_ulid', 'selector', 'sub_selector', 'comparer', 'values'),
    );
    return rows.map((r) => ({ ...r, values: JSON.parse(r.values as string) as string[] }));
  }
}
