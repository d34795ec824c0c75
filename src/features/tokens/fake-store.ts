import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateInMemory, type Db, type Snapshotting } from '../projects/admin-common.js';
import {
  grantInside,
  grantsView,
  tokenListName,
  type GrantRow,
  type GrantTarget,
  type ManagementToken,
  type ManagementTokenRecord,
  type ManagementTokenStore,
} from './store-types.js';

/** In-memory ManagementTokenStore for the service unit tests. */
export class FakeManagementTokenStore implements ManagementTokenStore, Snapshotting {
  rows = new Map<string, { record: ManagementTokenRecord; grants: GrantRow[] }>();

  snapshot(): () => void {
    const copy = new Map(
      [...this.rows].map(([k, v]) => [k, { record: { ...v.record }, grants: v.grants.map((g) => ({ ...g })) }]),
    );
    return () => {
      this.rows = copy;
    };
  }

  /** What the database's cascade does to grant rows when a project or environment goes. */
  dropGrants(target: GrantTarget): void {
    for (const entry of this.rows.values()) entry.grants = entry.grants.filter((g) => !grantInside(g, target));
  }

  async listPage(_db: Db, page: PageRequest): Promise<Page<ManagementToken>> {
    return paginateInMemory([...this.rows.values()].map(view), tokenListName, page);
  }

  async find(_db: Db, ulid: string): Promise<ManagementToken | undefined> {
    const entry = this.rows.get(ulid);
    return entry && view(entry);
  }

  async insert(_trx: Knex.Transaction, record: ManagementTokenRecord, grants: GrantRow[]): Promise<void> {
    this.rows.set(record.ulid, { record: { ...record }, grants: grants.map((g) => ({ ...g })) });
  }

  async revoke(_trx: Knex.Transaction, ulid: string, now: string): Promise<boolean> {
    const entry = this.rows.get(ulid);
    if (!entry || entry.record.revoked_at !== null) return false;
    entry.record.revoked_at = now;
    entry.record.updated_at = now;
    return true;
  }

  async revokeTokensConfinedTo(_trx: Knex.Transaction, target: GrantTarget, now: string): Promise<string[]> {
    const confined: string[] = [];
    for (const [ulid, entry] of this.rows) {
      if (entry.grants.some((g) => grantInside(g, target)) && entry.grants.every((g) => grantInside(g, target))) {
        confined.push(ulid);
        if (entry.record.revoked_at === null) {
          entry.record.revoked_at = now;
          entry.record.updated_at = now;
        }
      }
    }
    return confined;
  }
}

function view(entry: { record: ManagementTokenRecord; grants: GrantRow[] }): ManagementToken {
  const r = entry.record;
  return {
    ulid: r.ulid,
    name: r.name,
    scopes: [...r.scopes],
    tier: r.tier,
    grants: grantsView(entry.grants),
    expires_at: r.expires_at,
    revoked_at: r.revoked_at,
    created_at: r.created_at,
  };
}
