import type { Knex } from 'knex';
import type { Scope, Tier } from '../../auth/principal.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import type { Db } from '../../storage/db.js';

/** Grants as the API shows them: project and environment keys. */
export interface TokenGrants {
  projects: string[];
  environments: Array<{ project: string; environment: string }>;
}

/** A management token as the API shows it, without its secret. */
export interface ManagementToken {
  ulid: string;
  name: string;
  scopes: Scope[];
  tier: Tier;
  grants: TokenGrants;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface ManagementTokenRecord {
  ulid: string;
  account_ulid: string;
  name: string;
  /** SHA-256 hex digest of the secret; the secret itself is never stored. */
  digest: string;
  scopes: Scope[];
  tier: Tier;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One grant row: a whole project (environment null) or one environment of it. */
export interface GrantRow {
  project_ulid: string;
  project_key: string;
  environment_ulid: string | null;
  environment_key: string | null;
}

/** What is about to be deleted, for revoking tokens that would be left with no grant at all. */
export type GrantTarget = { projectUlid: string } | { environmentUlid: string };

export interface ManagementTokenStore {
  listPage(db: Db, page: PageRequest): Promise<Page<ManagementToken>>;
  find(db: Db, ulid: string): Promise<ManagementToken | undefined>;
  /** Throws a field-keyed 422 on `grants` when a granted project or environment vanished meanwhile. */
  insert(trx: Knex.Transaction, record: ManagementTokenRecord, grants: GrantRow[]): Promise<void>;
  /** Sets revoked_at unless already set; false when nothing changed. */
  revoke(trx: Knex.Transaction, ulid: string, now: string): Promise<boolean>;
  /**
   * Revokes every active token all of whose grants lie inside `target`. Deleting the target
   * deletes those grant rows (cascade), and a token without grant rows would reach every
   * project: it must reach nothing instead. Returns the revoked ulids.
   */
  revokeTokensConfinedTo(trx: Knex.Transaction, target: GrantTarget, now: string): Promise<string[]>;
}

export const tokenListName = 'tokens';

export function grantsView(rows: GrantRow[]): TokenGrants {
  return {
    projects: rows.filter((g) => g.environment_ulid === null).map((g) => g.project_key),
    environments: rows
      .filter((g) => g.environment_ulid !== null)
      .map((g) => ({ project: g.project_key, environment: g.environment_key as string })),
  };
}

/** Whether a grant row lies inside what is about to be deleted. */
export function grantInside(grant: Pick<GrantRow, 'project_ulid' | 'environment_ulid'>, target: GrantTarget): boolean {
  return 'projectUlid' in target ? grant.project_ulid === target.projectUlid : grant.environment_ulid === target.environmentUlid;
}
