import type { RequiringTarget } from '../../src/features/prerequisites/references-store.js';
import type { Knex } from 'knex';
import type { Db } from '../../src/storage/db.js';
import type { Transactor } from '../../src/features/shared/transactions.js';
import { FakeLookupStore } from './lookup-store.js';
import { fakeTransactor } from './transactor.js';
import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../../src/http/pagination.js';
import type { ProjectRef } from '../../src/features/shared/lookup.js';
import { duplicateFlagKey } from '../../src/features/flags/store.js';
import type { FlagChanges, FlagListFilter, FlagRecord, FlagStore, FlagValueInsert } from '../../src/features/flags/store-types.js';

interface State {
  projects: ProjectRef[];
  flags: FlagRecord[];
  values: FlagValueInsert[];
  /** Revision per project (stands for "every environment of the project"). */
  revisions: Record<string, number>;
  /** Flag ulids whose targeting (targets, rules...) exists; removed with the flag. */
  targeting: Record<string, number>;
  /** Live targets of `requiring` flags whose prerequisites name the `required` flag. */
  requirements: Array<{ required: string; requiring: string; target: RequiringTarget }>;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** In-memory FlagStore for the service's unit tests: same contract, no database. */
export class FakeFlagStore implements FlagStore {
  state: State = { projects: [], flags: [], values: [], revisions: {}, targeting: {}, requirements: [] };

  addProject(project: ProjectRef): void {
    this.state.projects.push(project);
    this.state.revisions[project.ulid] = 1;
  }

  /** The path lookups over this fake's projects. */
  readonly lookups = new FakeLookupStore(() => this.state);

  async listFlags(_db: Db, projectUlid: string, filter: FlagListFilter, page: PageRequest): Promise<Page<FlagRecord>> {
    const list = `flags:${projectUlid}`;
    const search = filter.search?.toLowerCase();
    let rows = this.state.flags
      .filter((f) => f.project_ulid === projectUlid)
      .filter((f) => !filter.type || f.type === filter.type)
      .filter((f) => !filter.tag || f.tags.includes(filter.tag))
      .filter((f) => !search || f.key.toLowerCase().includes(search) || f.name.toLowerCase().includes(search))
      .sort((a, b) => (a.ulid < b.ulid ? -1 : 1));
    const all = rows;
    const cursor = page.cursor ? decodeCursor(page.cursor, list) : undefined;
    if (cursor?.d === 'p') {
      rows = rows.filter((f) => f.ulid < cursor.u);
      const data = rows.slice(Math.max(0, rows.length - page.per_page));
      return this.page(list, data, page, rows.length > page.per_page, true);
    }
    if (cursor) rows = rows.filter((f) => f.ulid > cursor.u);
    const data = rows.slice(0, page.per_page);
    const hasPrev = cursor !== undefined && data[0] !== undefined && all.some((f) => f.ulid < (data[0] as FlagRecord).ulid);
    return this.page(list, data, page, hasPrev, rows.length > page.per_page);
  }

  private page(list: string, data: FlagRecord[], page: PageRequest, hasPrev: boolean, hasNext: boolean): Page<FlagRecord> {
    const first = data[0];
    const last = data[data.length - 1];
    return {
      data: data.map((f) => ({ ...f })),
      meta: {
        per_page: page.per_page,
        next_cursor: hasNext && last ? encodeCursor({ l: list, u: last.ulid, d: 'n' }) : null,
        prev_cursor: hasPrev && first ? encodeCursor({ l: list, u: first.ulid, d: 'p' }) : null,
      },
    };
  }

  async findFlag(_db: Db, projectUlid: string, key: string): Promise<FlagRecord | undefined> {
    const flag = this.state.flags.find((f) => f.project_ulid === projectUlid && f.key === key);
    return flag && { ...flag };
  }

  /** Runs the service's work all or nothing, like the database: a failing `work` leaves the state as it was. */
  readonly tx: Transactor = fakeTransactor(() => {
    const before = structuredClone(this.state);
    return () => {
      this.state = before;
    };
  });

  async insertFlag(_trx: Knex.Transaction, flag: FlagRecord): Promise<void> {
    if (this.state.flags.some((f) => f.project_ulid === flag.project_ulid && f.key === flag.key)) {
      throw duplicateFlagKey(flag.key);
    }
    this.state.flags.push({ ...flag, tags: [...flag.tags] });
  }

  async insertValues(_trx: Knex.Transaction, values: FlagValueInsert[]): Promise<void> {
    this.state.values.push(...values.map((v) => ({ ...v })));
  }

  async lockFlag(_trx: Knex.Transaction, projectUlid: string, key: string): Promise<FlagRecord | undefined> {
    return (await this.lockFlags(_trx, projectUlid, [key]))[0];
  }

  async lockFlags(_trx: Knex.Transaction, projectUlid: string, keys: string[]): Promise<FlagRecord[]> {
    return this.state.flags.filter((f) => f.project_ulid === projectUlid && keys.includes(f.key)).map((f) => ({ ...f }));
  }

  async updateFlag(_trx: Knex.Transaction, ulid: string, changes: FlagChanges): Promise<void> {
    const flag = this.state.flags.find((f) => f.ulid === ulid);
    if (flag) Object.assign(flag, changes);
  }

  async requiredBy(_trx: Knex.Transaction, ulids: readonly string[]): Promise<Map<string, RequiringTarget[]>> {
    const out = new Map<string, RequiringTarget[]>();
    const requirements = this.state.requirements
      .filter((r) => ulids.includes(r.required) && !ulids.includes(r.requiring))
      .sort((a, b) => byText(a.target.flag_key, b.target.flag_key) || byText(a.target.environment_key, b.target.environment_key));
    for (const { required, target } of requirements) {
      const list = out.get(required) ?? [];
      if (!list.some((t) => t.flag_key === target.flag_key && t.environment_key === target.environment_key)) list.push({ ...target });
      out.set(required, list);
    }
    return out;
  }

  async deleteFlags(_trx: Knex.Transaction, ulids: string[]): Promise<void> {
    this.state.flags = this.state.flags.filter((f) => !ulids.includes(f.ulid));
    this.state.values = this.state.values.filter((v) => !ulids.includes(v.flag_ulid));
    for (const ulid of ulids) delete this.state.targeting[ulid];
    // A deleted flag's targets go with it, and with them what they required.
    this.state.requirements = this.state.requirements.filter((r) => !ulids.includes(r.requiring) && !ulids.includes(r.required));
  }

  async bumpProjectRevisions(_trx: Knex.Transaction, projectUlid: string): Promise<void> {
    this.state.revisions[projectUlid] = (this.state.revisions[projectUlid] ?? 0) + 1;
  }
}
