import type { Knex } from 'knex';
import type { Role } from '../../auth/principal.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import type { Db } from '../../storage/db.js';

/** An account as the API shows it. */
export interface Account {
  ulid: string;
  name: string;
  email: string;
  role: Role;
  /** Keys of a member's projects; empty for owners and admins. */
  projects: string[];
  /** The console password: none yet, temporary (until password_temporary_until), or the person's own. */
  password_status: 'none' | 'temporary' | 'set';
  password_temporary_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface AccountRecord {
  ulid: string;
  name: string;
  email: string;
  role: Role;
  created_at: string;
  updated_at: string;
}

export interface PersonalTokenRecord {
  ulid: string;
  account_ulid: string;
  name: string;
  /** SHA-256 hex digest of the secret. */
  digest: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PersonalToken {
  ulid: string;
  account_ulid: string;
  name: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface AccountStore {
  listPage(db: Db, page: PageRequest): Promise<Page<Account>>;
  find(db: Db, ulid: string): Promise<Account | undefined>;
  count(db: Db): Promise<number>;
  /** Throws a field-keyed 422 on `email` when the address is taken. */
  insert(trx: Knex.Transaction, record: AccountRecord, projectUlids: string[]): Promise<void>;
  /** Sets name and role and replaces the member's projects; false when the account is gone. */
  update(
    trx: Knex.Transaction,
    ulid: string,
    change: { name: string; role: Role; updated_at: string },
    projectUlids: string[],
  ): Promise<boolean>;
  /** Ulids of every owner account, locked until the transaction ends (MySQL). */
  lockOwners(trx: Knex.Transaction): Promise<string[]>;
  /** Deletes the account with its console sessions, personal access tokens and management tokens. */
  delete(trx: Knex.Transaction, ulid: string): Promise<boolean>;
  insertPersonalToken(trx: Knex.Transaction, record: PersonalTokenRecord): Promise<void>;
  findPersonalToken(db: Db, accountUlid: string, ulid: string): Promise<PersonalToken | undefined>;
  revokePersonalToken(trx: Knex.Transaction, ulid: string, now: string): Promise<boolean>;
}

export const accountListName = 'accounts';
