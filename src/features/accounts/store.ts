import type { Knex } from 'knex';
import type { Role } from '../../auth/principal.js';
import { NotFoundError, ValidationError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateByUlid } from '../../storage/paginate-by-ulid.js';
import { type Dialect, hasRowLocks } from '../../storage/database.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import type { Db } from '../../storage/db.js';
import {
  accountListName,
  type Account,
  type AccountRecord,
  type AccountStore,
  type PersonalToken,
  type PersonalTokenRecord,
} from './store-types.js';

const columns = ['ulid', 'name', 'email', 'role', 'password_temporary_until', 'created_at', 'updated_at'] as const;

/** Whether the account has a password, without reading the hash. */
const hasPassword = (db: Db) => db.raw('(case when password_hash is null then 0 else 1 end) as has_password');

export function emailTaken(): ValidationError {
  return ValidationError.field('email', 'The email has already been taken.', 'already_exists');
}

export class KnexAccountStore implements AccountStore {
  constructor(private readonly dialect: Dialect) {}

  async listPage(db: Db, page: PageRequest): Promise<Page<Account>> {
    const result = await paginateByUlid(
      db('accounts').select(...columns, hasPassword(db)),
      'ulid',
      accountListName,
      page,
      (row: Record<string, unknown>) => row,
    );
    const projects = await this.projectsOf(
      db,
      result.data.map((r) => String(r.ulid)),
    );
    return { data: result.data.map((row) => toAccount(row, projects.get(String(row.ulid)) ?? [])), meta: result.meta };
  }

  async find(db: Db, ulid: string): Promise<Account | undefined> {
    const row = await db('accounts')
      .where('ulid', ulid)
      .first(...columns, hasPassword(db));
    if (!row) return undefined;
    return toAccount(row, (await this.projectsOf(db, [ulid])).get(ulid) ?? []);
  }

  async count(db: Db): Promise<number> {
    const row = (await db('accounts').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  async insert(trx: Knex.Transaction, record: AccountRecord, projectUlids: string[]): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('accounts').insert(record);
      },
      { unique_violation: emailTaken },
    );
    if (projectUlids.length === 0) return;
    await translateStorageErrors(
      async () => {
        await trx('account_projects').insert(projectUlids.map((p) => ({ account_ulid: record.ulid, project_ulid: p })));
      },
      { foreign_key_violation: () => ValidationError.field('projects', 'A project was deleted meanwhile.', 'reference_not_found') },
    );
  }

  async update(
    trx: Knex.Transaction,
    ulid: string,
    change: { name: string; role: Role; updated_at: string },
    projectUlids: string[],
  ): Promise<boolean> {
    if ((await trx('accounts').where('ulid', ulid).update(change)) === 0) return false;
    await trx('account_projects').where('account_ulid', ulid).delete();
    if (projectUlids.length === 0) return true;
    await translateStorageErrors(
      async () => {
        await trx('account_projects').insert(projectUlids.map((p) => ({ account_ulid: ulid, project_ulid: p })));
      },
      { foreign_key_violation: () => ValidationError.field('projects', 'A project was deleted meanwhile.') },
    );
    return true;
  }

  async lockOwners(trx: Knex.Transaction): Promise<string[]> {
    const query = trx('accounts').where('role', 'owner').select('ulid');
    if (hasRowLocks(this.dialect)) query.forUpdate();
    const rows: Array<{ ulid: string }> = await query;
    return rows.map((r) => r.ulid);
  }

  async delete(trx: Knex.Transaction, ulid: string): Promise<boolean> {
    // Its console sessions end here, in the same transaction: a deleted account's cookie is refused
    // from the next request on, whatever the foreign keys do.
    await trx('console_sessions').where('account_ulid', ulid).delete();
    return (await trx('accounts').where('ulid', ulid).delete()) > 0;
  }

  async insertPersonalToken(trx: Knex.Transaction, record: PersonalTokenRecord): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('personal_access_tokens').insert(record);
      },
      // The account was deleted by a request that committed first.
      { foreign_key_violation: () => new NotFoundError('Account not found.') },
    );
  }

  async findPersonalToken(db: Db, accountUlid: string, ulid: string): Promise<PersonalToken | undefined> {
    const row = await db('personal_access_tokens')
      .where({ account_ulid: accountUlid, ulid })
      .first('ulid', 'account_ulid', 'name', 'expires_at', 'revoked_at', 'created_at');
    return row ?? undefined;
  }

  async revokePersonalToken(trx: Knex.Transaction, ulid: string, now: string): Promise<boolean> {
    const changed = await trx('personal_access_tokens')
      .where('ulid', ulid)
      .whereNull('revoked_at')
      .update({ revoked_at: now, updated_at: now });
    return changed > 0;
  }

  private async projectsOf(db: Db, accountUlids: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (accountUlids.length === 0) return map;
    const rows: Array<{ account_ulid: string; key: string }> = await db('account_projects as ap')
      .join('projects as p', 'p.ulid', 'ap.project_ulid')
      .whereIn('ap.account_ulid', accountUlids)
      .orderBy('p.ulid')
      .select('ap.account_ulid', 'p.key');
    for (const row of rows) map.set(row.account_ulid, [...(map.get(row.account_ulid) ?? []), row.key]);
    return map;
  }
}

function toAccount(row: Record<string, unknown>, projects: string[]): Account {
  return {
    ulid: String(row.ulid),
    name: String(row.name),
    email: String(row.email),
    role: row.role as Role,
    projects,
    password_status: row.password_temporary_until ? 'temporary' : Number(row.has_password) === 1 ? 'set' : 'none',
    password_temporary_until: (row.password_temporary_until as string | null) ?? null,
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}
