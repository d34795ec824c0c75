import type { Knex } from 'knex';
import type { Role } from '../../auth/principal.js';
import type { Db } from '../../storage/db.js';

/** The oldest owner and their oldest personal access token: who a start-up import acts as. */
export interface StartupOwner {
  account: { ulid: string; name: string; email: string; role: Role };
  token: { ulid: string; name: string };
}

/**
 * The SQL of the start-up work (first start, bootstrap.ts; VEXIL_IMPORT_FILE,
 * configuration/import-file.ts; npm run reset-owner) that no feature store holds.
 */
export class KnexStartupStore {
  /** The lease row `name` exists afterwards (a second insert is ignored). */
  async ensureLease(db: Db, name: string): Promise<void> {
    await db('job_leases').insert({ name, holder: null, expires_at: null }).onConflict('name').ignore();
  }

  /** Writes the lease row, which takes its lock (MySQL row lock, SQLite write lock) until the transaction ends. */
  async takeLease(trx: Knex.Transaction, name: string, holder: string, at: string): Promise<void> {
    await trx('job_leases').where('name', name).update({ holder, expires_at: at });
  }

  async projectCount(db: Db): Promise<number> {
    const row = (await db('projects').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  /** Gives the account a temporary console password (its hash), leaving everything else as it is. */
  async setTemporaryPassword(trx: Knex.Transaction, accountUlid: string, hash: string, until: string): Promise<void> {
    await trx('accounts').where('ulid', accountUlid).update({ password_hash: hash, password_temporary_until: until });
  }

  /** The first owner account made (npm run reset-owner gives it new secrets). */
  async oldestOwnerAccount(db: Db): Promise<StartupOwner['account'] | undefined> {
    return (await db('accounts').where('role', 'owner').orderBy('ulid').first('ulid', 'name', 'email', 'role')) as
      | StartupOwner['account']
      | undefined;
  }

  async oldestOwner(db: Db): Promise<StartupOwner | undefined> {
    const account = await this.oldestOwnerAccount(db);
    if (!account) return undefined;
    const token = (await db('personal_access_tokens').where('account_ulid', account.ulid).orderBy('ulid').first('ulid', 'name')) as
      | StartupOwner['token']
      | undefined;
    return token ? { account, token } : undefined;
  }
}
