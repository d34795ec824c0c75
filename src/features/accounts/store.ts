import type { Knex } from 'knex';
import type { Role } from '../../auth/principal.js';
import { NotFoundError, ValidationError } from '../../http/errors.js';
import { paginateByUlid, type Page, type PageRequest } from '../../http/pagination.js';
import type { Dialect } from '../../storage/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../storage/db-errors.js';
import type { Db } from '../projects/admin-common.js';
import {
  accountListName,
  type Account,
  type AccountRecord,
  type AccountStore,
  type PersonalToken,
  type PersonalTokenRecord,
} from './store-types.js';

const columns = ['ulid', 'name', 'email', 'role', 'created_at', 'updated_at'] as const;

export function emailTaken(): ValidationError {
  return ValidationError.field('email', 'The email has already been taken.', 'already_exists');
}

export class KnexAccountStore implements AccountStore {
  constructor(private readonly dialect: Dialect) {}

  async listPage(db: Db, page: PageRequest): Promise<Page<Account>> {
    const result = await paginateByUlid(db('accounts').select(...columns), 'ulid', accountListName, page, (row: Record<string, unknown>) => row);
    const projects = await this.projectsOf(db, result.data.map((r) => String(r.ulid)));
    return { data: result.data.map((row) => toAccount(row, projects.get(String(row.ulid)) ?? [])), meta: result.meta };
  }

  async find(db: Db, ulid: string): Promise<Account | undefined> {
    const row = await db('accounts').where('ulid', ulid).first(...columns);
    if (!row) return undefined;
    return toAccount(row, (await this.projectsOf(db, [ulid])).get(ulid) ?? []);
  }

  async count(db: Db): Promise<number> {
    const row = (await db('accounts').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  async insert(trx: Knex.Transaction, record: AccountRecord, projectUlids: string[]): Promise<void> {
    try {
      await trx('accounts').insert(record);
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    if (projectUlids.length === 0) return;
    try {
      await trx('account_projects').insert(projectUlids.map((p) => ({ account_ulid: record.ulid, project_ulid: p })));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw ValidationError.field('projects', 'A project was deleted meanwhile.', 'reference_not_found');
      throw error;
    }
  }

  async lockOwners(trx: Knex.Transaction): Promise<string[]> {
    const query = trx('accounts').where('role', 'owner').select('ulid');
    if (this.dialect === 'mysql') query.forUpdate();
    const rows: Array<{ ulid: string }> = await query;
    return rows.map((r) => r.ulid);
  }

  async delete(trx: Knex.Transaction, ulid: string): Promise<boolean> {
    return (await trx('accounts').where('ulid', ulid).delete()) > 0;
  }

  async insertPersonalToken(trx: Knex.Transaction, record: PersonalTokenRecord): Promise<void> {
    try {
      await trx('personal_access_tokens').insert(record);
    } catch (error) {
      // The account was deleted by a request that committed first.
      if (isForeignKeyViolation(error)) throw new NotFoundError('Account not found.');
      throw error;
    }
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
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}
