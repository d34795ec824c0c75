import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateByUlid } from '../../storage/paginate-by-ulid.js';
import { type Dialect, hasRowLocks } from '../../storage/database.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import { bumpProjectRevisions } from '../../storage/revisions.js';
import { duplicateKey } from './errors.js';
import type { SegmentRecord, SegmentRuleRecord, SegmentsStore } from './store-types.js';
import { isTransaction, type Db } from '../../storage/db.js';

interface SegmentRow {
  ulid: string;
  project_ulid: string;
  key: string;
  name: string;
  description: string | null;
  included: string;
  excluded: string;
  rules: string;
  created_at: string;
  updated_at: string;
}

const columns = ['ulid', 'project_ulid', 'key', 'name', 'description', 'included', 'excluded', 'rules', 'created_at', 'updated_at'];

function jsonArray<T>(text: string): T[] {
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

function toRecord(row: SegmentRow): SegmentRecord {
  return {
    ulid: row.ulid,
    project_ulid: row.project_ulid,
    key: row.key,
    name: row.name,
    description: row.description ?? null,
    included: jsonArray<string>(row.included),
    excluded: jsonArray<string>(row.excluded),
    rules: jsonArray<SegmentRuleRecord>(row.rules),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The stored form: rules as `[{criteria: [{selector, sub_selector, comparer, values}]}]` (CompiledSegment). */
function toRow(s: SegmentRecord): SegmentRow {
  return {
    ulid: s.ulid,
    project_ulid: s.project_ulid,
    key: s.key,
    name: s.name,
    description: s.description,
    included: JSON.stringify(s.included),
    excluded: JSON.stringify(s.excluded),
    rules: JSON.stringify(
      s.rules.map((r) => ({
        criteria: r.criteria.map((c) => ({ selector: c.selector, sub_selector: c.sub_selector, comparer: c.comparer, values: c.values })),
      })),
    ),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** LIKE pattern for `"key"` inside a criterion's JSON values, with `!` as the escape character. */
function quotedKeyPattern(key: string): string {
  return `%${JSON.stringify(key).replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

export class KnexSegmentsStore implements SegmentsStore {
  constructor(private readonly dialect: Dialect) {}

  listSegments(db: Db, projectUlid: string, page: PageRequest): Promise<Page<SegmentRecord>> {
    const query = db('segments').where('project_ulid', projectUlid).select(columns);
    return paginateByUlid<SegmentRow & Record<string, unknown>, SegmentRecord>(query, 'ulid', `segments:${projectUlid}`, page, toRecord);
  }

  async findSegment(db: Db, projectUlid: string, key: string, options: { lock?: boolean } = {}): Promise<SegmentRecord | undefined> {
    const query = db('segments').where({ project_ulid: projectUlid, key }).first(columns);
    if (options.lock && isTransaction(db) && hasRowLocks(this.dialect)) query.forUpdate();
    const row = (await query) as SegmentRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async insertSegment(trx: Knex.Transaction, segment: SegmentRecord): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('segments').insert(toRow(segment));
      },
      { unique_violation: () => duplicateKey(segment.key) },
    );
  }

  async updateSegment(trx: Knex.Transaction, segment: SegmentRecord): Promise<void> {
    const { ulid: _u, project_ulid: _p, key: _k, created_at: _c, ...changes } = toRow(segment);
    await trx('segments').where('ulid', segment.ulid).update(changes);
  }

  async deleteSegment(trx: Knex.Transaction, segmentUlid: string): Promise<void> {
    await trx('criterion_segments').where('segment_ulid', segmentUlid).delete();
    await trx('segments').where('ulid', segmentUlid).delete();
  }

  async referencingFlagKeys(trx: Knex.Transaction, segment: Pick<SegmentRecord, 'ulid' | 'key' | 'project_ulid'>): Promise<string[]> {
    // Links written with the rule, and (should a copy of rules ever skip the links) the
    // segment key inside a segment criterion's values.
    const query = trx('criteria')
      .join('rules', 'rules.ulid', 'criteria.rule_ulid')
      .join('targets', 'targets.ulid', 'rules.target_ulid')
      .join('flags', 'flags.ulid', 'targets.flag_ulid')
      .where('flags.project_ulid', segment.project_ulid)
      .whereNot('targets.status', 'expired')
      .where((q) => {
        q.whereIn('criteria.ulid', trx('criterion_segments').where('segment_ulid', segment.ulid).select('criterion_ulid')).orWhere(
          (inner) => {
            inner
              .where('criteria.selector', 'segment')
              .whereRaw("?? like ? escape '!'", ['criteria.values', quotedKeyPattern(segment.key)]);
          },
        );
      })
      .orderBy('flags.key');
    // Locked (exclusively: docs/databases.md) where rows lock; PostgreSQL refuses FOR UPDATE with DISTINCT, so the keys
    // (in order) are made distinct here.
    if (hasRowLocks(this.dialect)) query.select('flags.key').forUpdate();
    else query.distinct('flags.key');
    const rows = (await query) as { key: string }[];
    return [...new Set(rows.map((r) => r.key))];
  }

  bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string): Promise<void> {
    return bumpProjectRevisions(trx, projectUlid);
  }
}
