import type { Knex } from 'knex';
import type { Role } from '../../auth/principal.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateInMemory, type Db, type Snapshotting } from '../projects/admin-common.js';
import type { FakeProjectStore } from '../projects/fake-store.js';
import { emailTaken } from './store.js';
import {
  accountListName,
  type Account,
  type AccountRecord,
  type AccountStore,
  type PersonalToken,
  type PersonalTokenRecord,
} from './store-types.js';

/** In-memory AccountStore for the service unit tests; project keys come from a fake project store. */
export class FakeAccountStore implements AccountStore, Snapshotting {
  accounts = new Map<string, { record: AccountRecord; projects: string[] }>();
  tokens = new Map<string, PersonalTokenRecord>();

  constructor(private readonly projects?: FakeProjectStore) {}

  snapshot(): () => void {
    const accounts = new Map([...this.accounts].map(([k, v]) => [k, { record: { ...v.record }, projects: [...v.projects] }]));
    const tokens = new Map([...this.tokens].map(([k, v]) => [k, { ...v }]));
    return () => {
      this.accounts = accounts;
      this.tokens = tokens;
    };
  }

  async listPage(_db: Db, page: PageRequest): Promise<Page<Account>> {
    return paginateInMemory([...this.accounts.values()].map((a) => this.view(a)), accountListName, page);
  }

  async find(_db: Db, ulid: string): Promise<Account | undefined> {
    const entry = this.accounts.get(ulid);
    return entry && this.view(entry);
  }

  async count(): Promise<number> {
    return this.accounts.size;
  }

  async insert(_trx: Knex.Transaction, record: AccountRecord, projectUlids: string[]): Promise<void> {
    if ([...this.accounts.values()].some((a) => a.record.email === record.email)) throw emailTaken();
    this.accounts.set(record.ulid, { record: { ...record }, projects: [...projectUlids] });
  }

  async update(_trx: Knex.Transaction, ulid: string, change: { name: string; role: Role; updated_at: string }, projectUlids: string[]): Promise<boolean> {
    const entry = this.accounts.get(ulid);
    if (!entry) return false;
    entry.record = { ...entry.record, ...change };
    entry.projects = [...projectUlids];
    return true;
  }

  async lockOwners(): Promise<string[]> {
    return [...this.accounts.values()].filter((a) => a.record.role === 'owner').map((a) => a.record.ulid);
  }

  async delete(_trx: Knex.Transaction, ulid: string): Promise<boolean> {
    const existed = this.accounts.delete(ulid);
    for (const [tokenUlid, token] of this.tokens) if (token.account_ulid === ulid) this.tokens.delete(tokenUlid);
    return existed;
  }

  async insertPersonalToken(_trx: Knex.Transaction, record: PersonalTokenRecord): Promise<void> {
    this.tokens.set(record.ulid, { ...record });
  }

  async findPersonalToken(_db: Db, accountUlid: string, ulid: string): Promise<PersonalToken | undefined> {
    const t = this.tokens.get(ulid);
    if (!t || t.account_ulid !== accountUlid) return undefined;
    return { ulid: t.ulid, account_ulid: t.account_ulid, name: t.name, expires_at: t.expires_at, revoked_at: t.revoked_at, created_at: t.created_at };
  }

  async revokePersonalToken(_trx: Knex.Transaction, ulid: string, now: string): Promise<boolean> {
    const t = this.tokens.get(ulid);
    if (!t || t.revoked_at !== null) return false;
    t.revoked_at = now;
    t.updated_at = now;
    return true;
  }

  private view(entry: { record: AccountRecord; projects: string[] }): Account {
    const keys = [...entry.projects].sort().map((u) => this.projects?.rows.get(u)?.key).filter((k): k is string => k !== undefined);
    // The fake keeps no passwords: the console-session store owns them.
    return { ...entry.record, projects: keys, password_status: 'none', password_temporary_until: null };
  }
}
