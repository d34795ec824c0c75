import type { Knex } from 'knex';
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
  findManagementCredential(digest: string): Promise<CredentialRecord | undefined>;
  findEnvironmentKey(digest: string): Promise<EnvironmentKeyRecord | undefined>;
  /** Every active environment key, for the in-memory key cache. */
  listActiveEnvironmentKeys(): Promise<EnvironmentKeyRecord[]>;
}

export class KnexCredentialStore implements CredentialStore {
  constructor(private readonly knex: Knex) {}

  async findManagementCredential(digest: string): Promise<CredentialRecord | undefined> {
    const pat = await this.knex('personal_access_tokens as t')
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
        accountProjects: await this.accountProjects(pat.account_ulid, pat.role),
      };
    }
    const mgt = await this.knex('management_tokens as t')
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
    const grantRows: Array<{ project_ulid: string; environment_ulid: string | null }> = await this.knex('management_token_grants')
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
      accountProjects: await this.accountProjects(mgt.account_ulid, mgt.role),
    };
  }

  private async accountProjects(accountUlid: string, role: Role): Promise<string[] | null> {
    if (role !== 'member') return null;
    const rows: Array<{ project_ulid: string }> = await this.knex('account_projects')
      .where('account_ulid', accountUlid)
      .select('project_ulid');
    return rows.map((r) => r.project_ulid);
  }

  async findEnvironmentKey(digest: string): Promise<EnvironmentKeyRecord | undefined> {
    const row = await this.environmentKeyQuery().where('k.digest', digest).first();
    return row ? toKeyRecord(row) : undefined;
  }

  async listActiveEnvironmentKeys(): Promise<EnvironmentKeyRecord[]> {
    const rows = await this.environmentKeyQuery().whereNull('k.revoked_at');
    return rows.map(toKeyRecord);
  }

  private environmentKeyQuery() {
    return this.knex('environment_keys as k')
      .join('environments as e', 'e.ulid', 'k.environment_ulid')
      .select('k.ulid', 'k.kind', 'k.digest', 'k.revoked_at', 'e.ulid as environment_ulid', 'e.key as environment_key', 'e.project_ulid');
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
