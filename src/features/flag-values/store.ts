import { targetsListingValue } from '../prerequisites/references-store.js';
import type { Knex } from 'knex';
import { ValidationError } from '../../http/errors.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import { type Dialect, hasRowLocks } from '../../storage/database.js';
import { bumpProjectRevisions } from '../../storage/revisions.js';
import type { Db } from '../../storage/db.js';
import { bool } from '../shared/lookup.js';
import type { FlagValueRecord, FlagValueStore, ValueUsage } from './store-types.js';

const valueColumns = ['ulid', 'flag_ulid', 'display', 'display_digest', 'is_default', 'created_at', 'updated_at'] as const;

function toValueRecord(row: Record<string, unknown>): FlagValueRecord {
  return {
    ulid: String(row.ulid),
    flag_ulid: String(row.flag_ulid),
    display: String(row.display),
    display_digest: String(row.display_digest),
    is_default: bool(row.is_default),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export const duplicateDisplay = () =>
  ValidationError.field('display', 'The flag already has this value (values are compared after normalisation).', 'already_exists');

export class KnexFlagValueStore implements FlagValueStore {
  constructor(private readonly dialect: Dialect) {}

  async listValues(db: Db, flagUlid: string): Promise<FlagValueRecord[]> {
    const rows = await db('flag_values')
      .where('flag_ulid', flagUlid)
      .orderBy('ulid')
      .select(...valueColumns);
    return rows.map(toValueRecord);
  }

  private get mysql(): boolean {
    return hasRowLocks(this.dialect);
  }

  async lockFlag(trx: Knex.Transaction, flagUlid: string): Promise<boolean> {
    const query = trx('flags').where('ulid', flagUlid).first('ulid');
    if (this.mysql) query.forUpdate();
    return (await query) !== undefined;
  }

  async hasDefault(trx: Knex.Transaction, flagUlid: string): Promise<boolean> {
    const row = await trx('flag_values').where({ flag_ulid: flagUlid, is_default: true }).first('ulid');
    return row !== undefined;
  }

  async findValue(trx: Knex.Transaction, flagUlid: string, valueUlid: string): Promise<FlagValueRecord | undefined> {
    const query = trx('flag_values')
      .where({ flag_ulid: flagUlid, ulid: valueUlid })
      .first(...valueColumns);
    if (this.mysql) query.forUpdate();
    const row = await query;
    return row ? toValueRecord(row) : undefined;
  }

  async insertValue(trx: Knex.Transaction, value: FlagValueRecord): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('flag_values').insert(value);
      },
      { unique_violation: duplicateDisplay },
    );
  }

  async updateDisplay(trx: Knex.Transaction, valueUlid: string, display: string, digest: string, updatedAt: string): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('flag_values').where('ulid', valueUlid).update({ display, display_digest: digest, updated_at: updatedAt });
      },
      { unique_violation: duplicateDisplay },
    );
  }

  async setDefault(trx: Knex.Transaction, flagUlid: string, valueUlid: string, updatedAt: string): Promise<void> {
    await trx('flag_values')
      .where({ flag_ulid: flagUlid, is_default: true })
      .whereNot('ulid', valueUlid)
      .update({ is_default: false, updated_at: updatedAt });
    await trx('flag_values').where('ulid', valueUlid).update({ is_default: true, updated_at: updatedAt });
  }

  /** Rules and targets whose split serves the value. */
  private splitOwnersOf(trx: Knex.Transaction, valueUlid: string): Knex.QueryBuilder {
    return trx('split_shares').where('value_ulid', valueUlid).select('owner_ulid');
  }

  async usage(trx: Knex.Transaction, valueUlid: string): Promise<ValueUsage> {
    const targets = trx('targets as t')
      .join('environments as e', 'e.ulid', 't.environment_ulid')
      // Its own value, or a value of its base split.
      .where((q) => q.where('t.value_ulid', valueUlid).orWhereIn('t.ulid', this.splitOwnersOf(trx, valueUlid)))
      .orderBy('t.ulid')
      .select('t.status', 'e.key as environment_key', 'e.ulid as environment_ulid');
    const rules = trx('rules as r')
      .join('targets as t', 't.ulid', 'r.target_ulid')
      .join('environments as e', 'e.ulid', 't.environment_ulid')
      .where((q) => q.where('r.value_ulid', valueUlid).orWhereIn('r.ulid', this.splitOwnersOf(trx, valueUlid)))
      .orderBy('r.ulid')
      .select('t.status as target_status', 'e.key as environment_key', 'e.ulid as environment_ulid');
    // Locking reads see the latest committed rows and keep new references out until commit
    // (exclusive locks, which every engine takes: docs/databases.md).
    if (this.mysql) {
      targets.forUpdate();
      rules.forUpdate();
    }
    return { targets: await targets, rules: await rules, prerequisites: await targetsListingValue(trx, valueUlid) };
  }

  async deleteValue(trx: Knex.Transaction, valueUlid: string): Promise<void> {
    await trx('flag_values').where('ulid', valueUlid).delete();
  }

  bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string, flagUlids: readonly string[]): Promise<void> {
    return bumpProjectRevisions(trx, projectUlid, flagUlids);
  }
}
