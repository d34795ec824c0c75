import type { Knex } from 'knex';
import type { EnvironmentKeyKind } from '../../auth/principal.js';
import { NotFoundError } from '../../http/errors.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import type { Db } from '../../storage/db.js';
import type { EnvironmentKey, EnvironmentKeyRecord, EnvironmentKeyStore } from './store-types.js';

const columns = ['ulid', 'kind', 'name', 'masked_key', 'created_at', 'revoked_at'] as const;

export class KnexEnvironmentKeyStore implements EnvironmentKeyStore {
  async listForEnvironment(db: Db, environmentUlid: string): Promise<EnvironmentKey[]> {
    const rows = await db('environment_keys')
      .where('environment_ulid', environmentUlid)
      .orderBy('ulid')
      .select(...columns);
    return rows.map(toKey);
  }

  async find(db: Db, environmentUlid: string, ulid: string): Promise<EnvironmentKey | undefined> {
    const row = await db('environment_keys')
      .where({ environment_ulid: environmentUlid, ulid })
      .first(...columns);
    return row ? toKey(row) : undefined;
  }

  async insert(trx: Knex.Transaction, record: EnvironmentKeyRecord): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('environment_keys').insert(record);
      },
      // The environment was deleted by a request that committed first.
      { foreign_key_violation: () => new NotFoundError('Environment not found.') },
    );
  }

  async revoke(trx: Knex.Transaction, ulid: string, now: string): Promise<boolean> {
    return (await trx('environment_keys').where('ulid', ulid).whereNull('revoked_at').update({ revoked_at: now, updated_at: now })) > 0;
  }
}

function toKey(row: Record<string, unknown>): EnvironmentKey {
  return {
    ulid: String(row.ulid),
    kind: row.kind as EnvironmentKeyKind,
    name: String(row.name),
    masked_key: String(row.masked_key),
    created_at: String(row.created_at),
    revoked_at: (row.revoked_at as string | null) ?? null,
  };
}
