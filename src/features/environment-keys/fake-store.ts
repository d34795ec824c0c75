import type { Knex } from 'knex';
import type { Db, Snapshotting } from '../projects/admin-common.js';
import type { EnvironmentKey, EnvironmentKeyRecord, EnvironmentKeyStore } from './store-types.js';

/** In-memory EnvironmentKeyStore for the service unit tests. */
export class FakeEnvironmentKeyStore implements EnvironmentKeyStore, Snapshotting {
  rows = new Map<string, EnvironmentKeyRecord>();

  snapshot(): () => void {
    const copy = new Map([...this.rows].map(([k, v]) => [k, { ...v }]));
    return () => {
      this.rows = copy;
    };
  }

  async listForEnvironment(_db: Db, environmentUlid: string): Promise<EnvironmentKey[]> {
    return [...this.rows.values()]
      .filter((k) => k.environment_ulid === environmentUlid)
      .sort((a, b) => (a.ulid < b.ulid ? -1 : 1))
      .map(toKey);
  }

  async find(_db: Db, environmentUlid: string, ulid: string): Promise<EnvironmentKey | undefined> {
    const row = this.rows.get(ulid);
    return row && row.environment_ulid === environmentUlid ? toKey(row) : undefined;
  }

  async insert(_trx: Knex.Transaction, record: EnvironmentKeyRecord): Promise<void> {
    if ([...this.rows.values()].some((k) => k.digest === record.digest)) throw new Error('duplicate digest');
    this.rows.set(record.ulid, { ...record });
  }

  async revoke(_trx: Knex.Transaction, ulid: string, now: string): Promise<boolean> {
    const row = this.rows.get(ulid);
    if (!row || row.revoked_at !== null) return false;
    row.revoked_at = now;
    row.updated_at = now;
    return true;
  }
}

function toKey(row: EnvironmentKeyRecord): EnvironmentKey {
  return { ulid: row.ulid, kind: row.kind, name: row.name, masked_key: row.masked_key, created_at: row.created_at, revoked_at: row.revoked_at };
}
