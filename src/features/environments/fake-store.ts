import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateInMemory, type Db, type Snapshotting } from '../projects/admin-common.js';
import { keyTaken } from '../projects/store.js';
import { toEnvironment } from './store.js';
import {
  environmentListName,
  type Environment,
  type EnvironmentPatch,
  type EnvironmentRecord,
  type EnvironmentStore,
} from './store-types.js';

/** In-memory EnvironmentStore for the service unit tests. */
export class FakeEnvironmentStore implements EnvironmentStore, Snapshotting {
  rows = new Map<string, EnvironmentRecord>();
  onDelete: (ulid: string) => void = () => {};

  snapshot(): () => void {
    const copy = new Map([...this.rows].map(([k, v]) => [k, { ...v }]));
    return () => {
      this.rows = copy;
    };
  }

  /** What the database's cascade does when a project goes. */
  deleteProject(projectUlid: string): void {
    for (const [ulid, row] of this.rows) if (row.project_ulid === projectUlid) this.rows.delete(ulid);
  }

  async listPage(_db: Db, projectUlid: string, page: PageRequest, visible: string[] | null): Promise<Page<Environment>> {
    const items = [...this.rows.values()]
      .filter((e) => e.project_ulid === projectUlid && (visible === null || visible.includes(e.ulid)))
      .map(toEnvironment);
    return paginateInMemory(items, environmentListName(projectUlid), page);
  }

  async ulidsOfProject(_db: Db, projectUlid: string): Promise<string[]> {
    return [...this.rows.values()].filter((e) => e.project_ulid === projectUlid).map((e) => e.ulid);
  }

  async findByKey(_db: Db, projectUlid: string, key: string): Promise<EnvironmentRecord | undefined> {
    const found = [...this.rows.values()].find((e) => e.project_ulid === projectUlid && e.key === key);
    return found && { ...found };
  }

  async insert(_trx: Knex.Transaction, environment: EnvironmentRecord): Promise<void> {
    if ([...this.rows.values()].some((e) => e.project_ulid === environment.project_ulid && e.key === environment.key)) {
      throw keyTaken();
    }
    this.rows.set(environment.ulid, { ...environment });
  }

  async update(_trx: Knex.Transaction, ulid: string, patch: EnvironmentPatch): Promise<boolean> {
    const row = this.rows.get(ulid);
    if (!row) return false;
    Object.assign(row, patch);
    return true;
  }

  async delete(_trx: Knex.Transaction, ulid: string): Promise<boolean> {
    const existed = this.rows.delete(ulid);
    if (existed) this.onDelete(ulid);
    return existed;
  }
}
