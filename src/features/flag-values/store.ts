import { targetsListingValue } from '../shared/prerequisite-references.js';
import type { Knex } from 'knex';
import type { ResourceAccess } from '../../auth/principal.js';
import { ValidationError } from '../../http/errors.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import type { Dialect } from '../../storage/database.js';
import { bumpProjectRevisions } from '../../storage/revisions.js';
import { inTransaction } from '../../storage/transaction.js';
import { bool, findEnvironment, findFlag, findProject, type EnvironmentRef, type FlagRef, type ProjectRef } from '../shared/lookup.js';
import type { FlagValueRecord, FlagValueStore, FlagValueStoreTx, ValueUsage } from './store-types.js';

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
  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
  ) {}

  findProject(access: ResourceAccess, projectKey: string): Promise<ProjectRef> {
    return findProject(this.knex, access, projectKey);
  }

  findFlag(project: ProjectRef, flagKey: string): Promise<FlagRef> {
    return findFlag(this.knex, project, flagKey);
  }

  findEnvironment(access: ResourceAccess, project: ProjectRef, environmentKey: string): Promise<EnvironmentRef> {
    return findEnvironment(this.knex, access, project, environmentKey);
  }

  async listValues(flagUlid: string): Promise<FlagValueRecord[]> {
    const rows = await this.knex('flag_values')
      .where('flag_ulid', flagUlid)
      .orderBy('ulid')
      .select(...valueColumns);
    return rows.map(toValueRecord);
  }

  transaction<T>(work: (tx: FlagValueStoreTx) => Promise<T>): Promise<T> {
    return inTransaction(this.knex, (trx) => work(new KnexFlagValueStoreTx(trx, this.dialect)));
  }
}

class KnexFlagValueStoreTx implements FlagValueStoreTx {
  constructor(
    readonly handle: Knex.Transaction,
    private readonly dialect: Dialect,
  ) {}

  private get mysql(): boolean {
    return this.dialect === 'mysql';
  }

  async lockFlag(flagUlid: string): Promise<boolean> {
    const query = this.handle('flags').where('ulid', flagUlid).first('ulid');
    if (this.mysql) query.forUpdate();
    return (await query) !== undefined;
  }

  async hasDefault(flagUlid: string): Promise<boolean> {
    const row = await this.handle('flag_values').where({ flag_ulid: flagUlid, is_default: true }).first('ulid');
    return row !== undefined;
  }

  async findValue(flagUlid: string, valueUlid: string): Promise<FlagValueRecord | undefined> {
    const query = this.handle('flag_values')
      .where({ flag_ulid: flagUlid, ulid: valueUlid })
      .first(...valueColumns);
    if (this.mysql) query.forUpdate();
    const row = await query;
    return row ? toValueRecord(row) : undefined;
  }

  async insertValue(value: FlagValueRecord): Promise<void> {
    await translateStorageErrors(
      async () => {
        await this.handle('flag_values').insert(value);
      },
      { unique_violation: duplicateDisplay },
    );
  }

  async updateDisplay(valueUlid: string, display: string, digest: string, updatedAt: string): Promise<void> {
    await translateStorageErrors(
      async () => {
        await this.handle('flag_values').where('ulid', valueUlid).update({ display, display_digest: digest, updated_at: updatedAt });
      },
      { unique_violation: duplicateDisplay },
    );
  }

  async setDefault(flagUlid: string, valueUlid: string, updatedAt: string): Promise<void> {
    await this.handle('flag_values')
      .where({ flag_ulid: flagUlid, is_default: true })
      .whereNot('ulid', valueUlid)
      .update({ is_default: false, updated_at: updatedAt });
    await this.handle('flag_values').where('ulid', valueUlid).update({ is_default: true, updated_at: updatedAt });
  }

  /** Rules and targets whose split serves the value. */
  private splitOwnersOf(valueUlid: string): Knex.QueryBuilder {
    return this.handle('split_shares').where('value_ulid', valueUlid).select('owner_ulid');
  }

  async usage(valueUlid: string): Promise<ValueUsage> {
    const targets = this.handle('targets as t')
      .join('environments as e', 'e.ulid', 't.environment_ulid')
      // Its own value, or a value of its base split.
      .where((q) => q.where('t.value_ulid', valueUlid).orWhereIn('t.ulid', this.splitOwnersOf(valueUlid)))
      .orderBy('t.ulid')
      .select('t.status', 'e.key as environment_key');
    const rules = this.handle('rules as r')
      .join('targets as t', 't.ulid', 'r.target_ulid')
      .join('environments as e', 'e.ulid', 't.environment_ulid')
      .where((q) => q.where('r.value_ulid', valueUlid).orWhereIn('r.ulid', this.splitOwnersOf(valueUlid)))
      .orderBy('r.ulid')
      .select('t.status as target_status', 'e.key as environment_key');
    // Locking reads see the latest committed rows and keep new references out until commit.
    if (this.mysql) {
      targets.forShare();
      rules.forShare();
    }
    return { targets: await targets, rules: await rules, prerequisites: await targetsListingValue(this.handle, valueUlid) };
  }

  async deleteValue(valueUlid: string): Promise<void> {
    await this.handle('flag_values').where('ulid', valueUlid).delete();
  }

  bumpProjectRevisions(projectUlid: string, flagUlids: readonly string[]): Promise<void> {
    return bumpProjectRevisions(this.handle, projectUlid, flagUlids);
  }
}
