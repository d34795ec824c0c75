import type { Knex } from 'knex';
import type { Db } from '../../src/storage/db.js';
import type { Transactor } from '../../src/features/shared/transactions.js';
import { FakeLookupStore } from './lookup-store.js';
import { fakeTransactor } from './transactor.js';
import type { EnvironmentRef, FlagRef, ProjectRef } from '../../src/features/shared/lookup.js';
import { duplicateDisplay } from '../../src/features/flag-values/store.js';
import type { FlagValueRecord, FlagValueStore, ValueUsage } from '../../src/features/flag-values/store-types.js';

/** The fake names environments by key alone; their ulids follow from the key. */
export const fakeEnvironmentUlid = (key: string) => `env_fake_${key}`;

interface State {
  projects: ProjectRef[];
  environments: EnvironmentRef[];
  flags: FlagRef[];
  values: FlagValueRecord[];
  /** Targets and rules pointing at values, as the usage check sees them. */
  targets: Array<{ value_ulid: string; status: string; environment_key: string }>;
  rules: Array<{ value_ulid: string; target_status: string; environment_key: string }>;
  /** Live targets of other flags whose prerequisites list a value. */
  prerequisites: Array<{ value_ulid: string; flag_key: string; environment_key: string }>;
  /** Revision per project (stands for "every environment of the project"). */
  revisions: Record<string, number>;
}

/** In-memory FlagValueStore for the service's unit tests: same contract, no database. */
export class FakeFlagValueStore implements FlagValueStore {
  state: State = { projects: [], environments: [], flags: [], values: [], targets: [], rules: [], prerequisites: [], revisions: {} };

  /** The path lookups over this fake's projects, flags and environments. */
  readonly lookups = new FakeLookupStore(() => this.state);

  async listValues(_db: Db, flagUlid: string): Promise<FlagValueRecord[]> {
    return this.state.values
      .filter((v) => v.flag_ulid === flagUlid)
      .sort((a, b) => (a.ulid < b.ulid ? -1 : 1))
      .map((v) => ({ ...v }));
  }

  /** Runs the service's work all or nothing, like the database: a failing `work` leaves the state as it was. */
  readonly tx: Transactor = fakeTransactor(() => {
    const before = structuredClone(this.state);
    return () => {
      this.state = before;
    };
  });

  async lockFlag(_trx: Knex.Transaction, flagUlid: string): Promise<boolean> {
    return this.state.flags.some((f) => f.ulid === flagUlid);
  }

  async hasDefault(_trx: Knex.Transaction, flagUlid: string): Promise<boolean> {
    return this.state.values.some((v) => v.flag_ulid === flagUlid && v.is_default);
  }

  async findValue(_trx: Knex.Transaction, flagUlid: string, valueUlid: string): Promise<FlagValueRecord | undefined> {
    const value = this.state.values.find((v) => v.flag_ulid === flagUlid && v.ulid === valueUlid);
    return value && { ...value };
  }

  private assertUnique(flagUlid: string, digest: string, except?: string): void {
    if (this.state.values.some((v) => v.flag_ulid === flagUlid && v.display_digest === digest && v.ulid !== except)) {
      throw duplicateDisplay();
    }
  }

  async insertValue(_trx: Knex.Transaction, value: FlagValueRecord): Promise<void> {
    this.assertUnique(value.flag_ulid, value.display_digest);
    this.state.values.push({ ...value });
  }

  async updateDisplay(_trx: Knex.Transaction, valueUlid: string, display: string, digest: string, updatedAt: string): Promise<void> {
    const value = this.state.values.find((v) => v.ulid === valueUlid);
    if (!value) return;
    this.assertUnique(value.flag_ulid, digest, valueUlid);
    Object.assign(value, { display, display_digest: digest, updated_at: updatedAt });
  }

  async setDefault(_trx: Knex.Transaction, flagUlid: string, valueUlid: string, updatedAt: string): Promise<void> {
    for (const value of this.state.values) {
      if (value.flag_ulid !== flagUlid) continue;
      const isDefault = value.ulid === valueUlid;
      if (value.is_default !== isDefault) Object.assign(value, { is_default: isDefault, updated_at: updatedAt });
    }
  }

  async usage(_trx: Knex.Transaction, valueUlid: string): Promise<ValueUsage> {
    return {
      targets: this.state.targets
        .filter((t) => t.value_ulid === valueUlid)
        .map(({ status, environment_key }) => ({ status, environment_key, environment_ulid: fakeEnvironmentUlid(environment_key) })),
      rules: this.state.rules
        .filter((r) => r.value_ulid === valueUlid)
        .map(({ target_status, environment_key }) => ({
          target_status,
          environment_key,
          environment_ulid: fakeEnvironmentUlid(environment_key),
        })),
      prerequisites: this.state.prerequisites
        .filter((p) => p.value_ulid === valueUlid)
        .map(({ flag_key, environment_key }) => ({ flag_key, environment_key, environment_ulid: fakeEnvironmentUlid(environment_key) }))
        .sort((a, b) => (a.flag_key < b.flag_key ? -1 : a.flag_key > b.flag_key ? 1 : a.environment_key < b.environment_key ? -1 : 1)),
    };
  }

  async deleteValue(_trx: Knex.Transaction, valueUlid: string): Promise<void> {
    this.state.values = this.state.values.filter((v) => v.ulid !== valueUlid);
  }

  async bumpProjectRevisions(_trx: Knex.Transaction, projectUlid: string): Promise<void> {
    this.state.revisions[projectUlid] = (this.state.revisions[projectUlid] ?? 0) + 1;
  }
}
