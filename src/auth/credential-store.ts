import type { Db } from '../storage/db.js';
import type { EnvironmentKeyKind, Role, Scope, Tier } from './principal.js';

export interface AccountRow {
  ulid: string;
  name: string;
  email: string;
  role: Role;
}

export interface CredentialRecord {
  type: 'personal_access_token' | 'management_token';
  ulid: string;
  name: string;
  digest: string;
  expiresAt: string | null;
  revokedAt: string | null;
  account: AccountRow;
  scopes: Scope[] | null;
  tier: Tier;
  /** Management token grants: project ulids, and environment ulids by project ulid. */
  grants: { projects: string[]; environments: Array<{ projectUlid: string; environmentUlid: string }> } | null;
  /** Projects a member account was given (null for owner and admin). */
  accountProjects: string[] | null;
}

export interface EnvironmentKeyRecord {
  ulid: string;
  kind: EnvironmentKeyKind;
  digest: string;
  revokedAt: string | null;
  environmentUlid: string;
  environmentKey: string;
  projectUlid: string;
}

/** Storage interface for credential lookups (knex implementation below, fake in tests). */
export interface CredentialStore {
  findManagementCredential(db: Db, digest: string): Promise<CredentialRecord | undefined>;
  /** Every active environment key, for the in-memory key cache. */
  listActiveEnvironmentKeys(db: Db): Promise<EnvironmentKeyRecord[]>;
  /** A cheap text that changes whenever a key is created, revoked or changed: the key cache polls it. */
  environmentKeysSignature(db: Db): Promise<string>;
}

export class KnexCredentialStore implements CredentialStore {
  async findManagementCredential(db: Db, digest: string): Promise<CredentialRecord | undefined> {
    const pat = await db('personal_access_tokens as t')
      .join('accounts as a', 'a.ulid', 't.account_ulid')
      .where('t.digest', digest)
      .first(
        't.ulid',
        't.name',
        't.digest',
        't.expires_at',
        't.revoked_at',
        'a.ulid as account_ulid',
        'a.name as account_name',
        'a.email',
        'a.role',
      );
    if (pat) {
      return {
        type: 'personal_access_token',
        ulid: pat.ulid,
        name: pat.name,
        digest: pat.digest,
        expiresAt: pat.expires_at,
        revokedAt: pat.revoked_at,
        account: { ulid: pat.account_ulid, name: pat.account_name, email: pat.email, role: pat.role },
        scopes: null,
        tier: 'elevated',
        grants: null,
        accountProjects: await this.accountProjects(db, pat.account_ulid, pat.role),
      };
    }
    const mgt = await db('management_tokens as t')
      .join('accounts as a', 'a.ulid', 't.account_ulid')
      .where('t.digest', digest)
      .first(
        't.ulid',
        't.name',
        't.digest',
        't.expires_at',
        't.revoked_at',
        't.scopes',
        't.tier',
        'a.ulid as account_ulid',
        'a.name as account_name',
        'a.email',
        'a.role',
      );
    if (!mgt) return undefined;
    const grantRows: Array<{ project_ulid: string; environment_ulid: string | null }> = await db('management_token_grants')
      .where('token_ulid', mgt.ulid)
      .select('project_ulid', 'environment_ulid');
    return {
      type: 'management_token',
      ulid: mgt.ulid,
      name: mgt.name,
      digest: mgt.digest,
      expiresAt: mgt.expires_at,
      revokedAt: mgt.revoked_at,
      account: { ulid: mgt.account_ulid, name: mgt.account_name, email: mgt.email, role: mgt.role },
      scopes: JSON.parse(mgt.scopes) as Scope[],
      tier: mgt.tier,
      grants:
        grantRows.length === 0
          ? null
          : {
              projects: grantRows.filter((g) => g.environment_ulid === null).map((g) => g.project_ulid),
              environments: grantRows
                .filter((g) => g.environment_ulid !== null)
                .map((g) => ({ projectUlid: g.project_ulid, environmentUlid: g.environment_ulid as string })),
            },
      accountProjects: await this.accountProjects(db, mgt.account_ulid, mgt.role),
    };
  }

  private async accountProjects(db: Db, accountUlid: string, role: Role): Promise<string[] | null> {
    if (role !== 'member') return null;
    const rows: Array<{ project_ulid: string }> = await db('account_projects').where('account_ulid', accountUlid).select('project_ulid');
    return rows.map((r) => r.project_ulid);
  }

  async listActiveEnvironmentKeys(db: Db): Promise<EnvironmentKeyRecord[]> {
    const rows = await db('environment_keys as k')
      .join('environments as e', 'e.ulid', 'k.environment_ulid')
      .whereNull('k.revoked_at')
      .select('k.ulid', 'k.kind', 'k.digest', 'k.revoked_at', 'e.ulid as environment_ulid', 'e.key as environment_key', 'e.project_ulid');
    return rows.map(toKeyRecord);
  }

  async environmentKeysSignature(db: Db): Promise<string> {
    // The revoked count moves on every revocation even when updated_at does not (two changes in
    // one millisecond, or an instance whose clock lags behind the one that wrote the newest key).
    const row = (await db('environment_keys').count({ n: '*' }).count({ r: 'revoked_at' }).max({ m: 'updated_at' }).first()) as
      | { n: number | string; r: number | string; m: string | null }
      | undefined;
    return `${row?.n ?? 0}|${row?.r ?? 0}|${row?.m ?? ''}`;
  }
}

function toKeyRecord(row: Record<string, string | null>): EnvironmentKeyRecord {
  return {
    ulid: row.ulid as string,
    kind: row.kind as EnvironmentKeyKind,
    digest: row.digest as string,
    revokedAt: row.revoked_at ?? null,
    environmentUlid: row.environment_ulid as string,
    environmentKey: row.environment_key as string,
    projectUlid: row.project_ulid as string,
  };
}
