import type { Knex } from 'knex';
import type { Scope, Tier } from '../../auth/principal.js';
import { UnauthorizedError, ValidationError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateByUlid } from '../../storage/paginate-by-ulid.js';
import { translateStorageErrors } from '../../storage/db-errors.js';
import type { Db } from '../../storage/db.js';
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

const columns = ['ulid', 'name', 'scopes', 'tier', 'expires_at', 'revoked_at', 'created_at'] as const;

export class KnexManagementTokenStore implements ManagementTokenStore {
  async listPage(db: Db, page: PageRequest): Promise<Page<ManagementToken>> {
    const result = await paginateByUlid(
      db('management_tokens').select(...columns),
      'ulid',
      tokenListName,
      page,
      (row: Record<string, unknown>) => row,
    );
    const grants = await this.grantsOf(
      db,
      result.data.map((r) => String(r.ulid)),
    );
    return { data: result.data.map((row) => toToken(row, grants.get(String(row.ulid)) ?? [])), meta: result.meta };
  }

  async find(db: Db, ulid: string): Promise<ManagementToken | undefined> {
    const row = await db('management_tokens')
      .where('ulid', ulid)
      .first(...columns);
    if (!row) return undefined;
    const grants = await this.grantsOf(db, [ulid]);
    return toToken(row, grants.get(ulid) ?? []);
  }

  async insert(trx: Knex.Transaction, record: ManagementTokenRecord, grants: GrantRow[]): Promise<void> {
    await translateStorageErrors(
      async () => {
        await trx('management_tokens').insert({ ...record, scopes: JSON.stringify(record.scopes) });
      },
      // The creating account was deleted by a request that committed first.
      { foreign_key_violation: () => new UnauthorizedError('Invalid bearer token.', 'auth.invalid_token') },
    );
    if (grants.length === 0) return;
    await translateStorageErrors(
      async () => {
        await trx('management_token_grants').insert(
          grants.map((g) => ({ token_ulid: record.ulid, project_ulid: g.project_ulid, environment_ulid: g.environment_ulid })),
        );
      },
      {
        foreign_key_violation: () =>
          ValidationError.field('grants', 'A granted project or environment was deleted meanwhile.', 'reference_not_found'),
      },
    );
  }

  async revoke(trx: Knex.Transaction, ulid: string, now: string): Promise<boolean> {
    const changed = await trx('management_tokens').where('ulid', ulid).whereNull('revoked_at').update({ revoked_at: now, updated_at: now });
    return changed > 0;
  }

  async revokeTokensConfinedTo(trx: Knex.Transaction, target: GrantTarget, now: string): Promise<string[]> {
    const touched = trx('management_token_grants').distinct('token_ulid');
    if ('projectUlid' in target) touched.where('project_ulid', target.projectUlid);
    else touched.where('environment_ulid', target.environmentUlid);
    const candidates: string[] = (await touched).map((r: { token_ulid: string }) => r.token_ulid);
    if (candidates.length === 0) return [];
    const rows: Array<{ token_ulid: string; project_ulid: string; environment_ulid: string | null }> = await trx('management_token_grants')
      .whereIn('token_ulid', candidates)
      .select('token_ulid', 'project_ulid', 'environment_ulid');
    const confined = candidates.filter((ulid) => rows.filter((r) => r.token_ulid === ulid).every((r) => grantInside(r, target)));
    if (confined.length === 0) return [];
    await trx('management_tokens').whereIn('ulid', confined).whereNull('revoked_at').update({ revoked_at: now, updated_at: now });
    return confined;
  }

  private async grantsOf(db: Db, tokenUlids: string[]): Promise<Map<string, GrantRow[]>> {
    const map = new Map<string, GrantRow[]>();
    if (tokenUlids.length === 0) return map;
    const rows: Array<GrantRow & { token_ulid: string }> = await db('management_token_grants as g')
      .join('projects as p', 'p.ulid', 'g.project_ulid')
      .leftJoin('environments as e', 'e.ulid', 'g.environment_ulid')
      .whereIn('g.token_ulid', tokenUlids)
      .orderBy('g.id')
      .select('g.token_ulid', 'g.project_ulid', 'p.key as project_key', 'g.environment_ulid', 'e.key as environment_key');
    for (const row of rows) {
      const list = map.get(row.token_ulid) ?? [];
      list.push(row);
      map.set(row.token_ulid, list);
    }
    return map;
  }
}

function toToken(row: Record<string, unknown>, grants: GrantRow[]): ManagementToken {
  return {
    ulid: String(row.ulid),
    name: String(row.name),
    scopes: JSON.parse(String(row.scopes)) as Scope[],
    tier: row.tier as Tier,
    grants: grantsView(grants),
    expires_at: (row.expires_at as string | null) ?? null,
    revoked_at: (row.revoked_at as string | null) ?? null,
    created_at: String(row.created_at),
  };
}
