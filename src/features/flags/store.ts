import { deleteSplitsOfTargets } from '../shared/split-store.js';
import { targetsRequiring, type RequiringTarget } from '../prerequisites/references-store.js';
import type { Knex } from 'knex';
import { ValidationError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateByUlid } from '../../storage/paginate-by-ulid.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import { hasRowLocks, SQLITE_UNICODE_LOWER, type Dialect } from '../../storage/database.js';
import { bumpProjectRevisions } from '../../storage/revisions.js';
import { bool } from '../shared/lookup.js';
import {
  flagListName,
  type FlagChanges,
  type FlagListFilter,
  type FlagRecord,
  type FlagStore,
  type FlagType,
  type FlagValueInsert,
} from './store-types.js';
import type { Db } from '../../storage/db.js';

const flagColumns = [
  'ulid',
  'project_ulid',
  'key',
  'name',
  'type',
  'description',
  'permanent',
  'include_in_mobile',
  'include_in_client',
  'tags',
  'created_at',
  'updated_at',
] as const;

export function toFlagRecord(row: Record<string, unknown>): FlagRecord {
  return {
    ulid: String(row.ulid),
    project_ulid: String(row.project_ulid),
    key: String(row.key),
    name: String(row.name),
    type: row.type as FlagType,
    description: (row.description as string | null) ?? null,
    permanent: bool(row.permanent),
    include_in_mobile: bool(row.include_in_mobile),
    include_in_client: bool(row.include_in_client),
    tags: JSON.parse(String(row.tags ?? '[]')) as string[],
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

/** LIKE pattern matching `text` anywhere, with `!` as the escape character (same on both dialects). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, '!$&')}%`;
}

export const duplicateFlagKey = (key: string) =>
  ValidationError.field('key', `A flag with the key "${key}" already exists in this project.`, 'already_exists');

export class KnexFlagStore implements FlagStore {
  constructor(private readonly dialect: Dialect) {}

  listFlags(db: Db, projectUlid: string, filter: FlagListFilter, page: PageRequest): Promise<Page<FlagRecord>> {
    const query = db('flags')
      .where('project_ulid', projectUlid)
      .select(...flagColumns);
    if (filter.type) query.where('type', filter.type);
    // Tags hold no character JSON escapes, so `"tag"` appears in the stored list exactly when it is one of them.
    if (filter.tag) query.whereRaw(`?? LIKE ? ESCAPE '!'`, ['tags', `%"${filter.tag.replace(/[!%_]/g, '!$&')}"%`]);
    if (filter.search !== undefined && filter.search !== '') {
      // Lower case on both sides: the column may carry a binary collation (utf8mb4_bin on
      // MariaDB), and SQLite's own LOWER() folds ASCII letters only, as PostgreSQL's does under
      // the columns' "C" collation: there it folds under ICU's root collation instead.
      const pattern = containsPattern(filter.search);
      const [column, value] =
        this.dialect === 'sqlite'
          ? [`${SQLITE_UNICODE_LOWER}(??)`, `${SQLITE_UNICODE_LOWER}(?)`]
          : this.dialect === 'postgres'
            ? ['LOWER(?? COLLATE "und-x-icu")', 'LOWER(CAST(? AS text) COLLATE "und-x-icu")']
            : ['LOWER(??)', 'LOWER(?)'];
      query.where((w) =>
        w
          .whereRaw(`${column} LIKE ${value} ESCAPE '!'`, ['key', pattern])
          .orWhereRaw(`${column} LIKE ${value} ESCAPE '!'`, ['name', pattern]),
      );
    }
    return paginateByUlid(query, 'ulid', flagListName(projectUlid), page, toFlagRecord);
  }

  async findFlag(db: Db, projectUlid: string, key: string): Promise<FlagRecord | undefined> {
    const row = await db('flags')
      .where({ project_ulid: projectUlid, key })
      .first(...flagColumns);
    return row ? toFlagRecord(row) : undefined;
  }

  async insertFlag(trx: Knex.Transaction, flag: FlagRecord): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('flags').insert({ ...flag, tags: JSON.stringify(flag.tags) });
      },
      { unique_violation: () => duplicateFlagKey(flag.key) },
    );
  }

  async insertValues(trx: Knex.Transaction, values: FlagValueInsert[]): Promise<void> {
    if (values.length > 0) await trx('flag_values').insert(values);
  }

  async lockFlag(trx: Knex.Transaction, projectUlid: string, key: string): Promise<FlagRecord | undefined> {
    const rows = await this.lockFlags(trx, projectUlid, [key]);
    return rows[0];
  }

  async lockFlags(trx: Knex.Transaction, projectUlid: string, keys: string[]): Promise<FlagRecord[]> {
    if (keys.length === 0) return [];
    const query = trx('flags')
      .where('project_ulid', projectUlid)
      .whereIn('key', keys)
      .select(...flagColumns);
    // Ulid order: concurrent bulk deletes lock rows in the same order, so they cannot deadlock.
    query.orderBy('ulid');
    if (hasRowLocks(this.dialect)) query.forUpdate();
    return (await query).map(toFlagRecord);
  }

  async updateFlag(trx: Knex.Transaction, ulid: string, changes: FlagChanges): Promise<void> {
    const { tags, ...rest } = changes;
    await trx('flags')
      .where('ulid', ulid)
      .update({ ...rest, ...(tags === undefined ? {} : { tags: JSON.stringify(tags) }) });
  }

  requiredBy(trx: Knex.Transaction, ulids: readonly string[]): Promise<Map<string, RequiringTarget[]>> {
    return targetsRequiring(trx, ulids);
  }

  async deleteFlags(trx: Knex.Transaction, ulids: string[]): Promise<void> {
    if (ulids.length === 0) return;
    // Children first, so the result does not depend on foreign-key cascades being enabled.
    const targets = (db: Db) => db('targets').select('ulid').whereIn('flag_ulid', ulids);
    const rules = (db: Db) => db('rules').select('ulid').whereIn('target_ulid', targets(db));
    const criteria = (db: Db) => db('criteria').select('ulid').whereIn('rule_ulid', rules(db));
    await trx('criterion_segments').whereIn('criterion_ulid', criteria(trx)).delete();
    await trx('target_prerequisites').whereIn('target_ulid', targets(trx)).delete();
    // Prerequisites on these flags that remain belong to expired targets (the service refused the others).
    await trx('target_prerequisites').whereIn('required_flag_ulid', ulids).delete();
    await trx('criteria').whereIn('rule_ulid', rules(trx)).delete();
    await deleteSplitsOfTargets(trx, targets);
    await trx('rules').whereIn('target_ulid', targets(trx)).delete();
    await trx('targets').whereIn('flag_ulid', ulids).delete();
    await trx('flag_values').whereIn('flag_ulid', ulids).delete();
    await trx('flag_telemetry').whereIn('flag_ulid', ulids).delete();
    await trx('flags').whereIn('ulid', ulids).delete();
  }

  bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string, flagUlids: readonly string[]): Promise<void> {
    return bumpProjectRevisions(trx, projectUlid, flagUlids);
  }
}
