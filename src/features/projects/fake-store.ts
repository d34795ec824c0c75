import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateInMemory, type Db, type Snapshotting } from './admin-common.js';
import { keyTaken } from './store.js';
import { projectListName, type Project, type ProjectStore } from './store-types.js';

/** In-memory ProjectStore for the service unit tests. */
export class FakeProjectStore implements ProjectStore, Snapshotting {
  rows = new Map<string, Project>();
  /** Called by delete, so tests can model the database's cascades. */
  onDelete: (ulid: string) => void = () => {};

  snapshot(): () => void {
    const copy = new Map([...this.rows].map(([k, v]) => [k, { ...v }]));
    return () => {
      this.rows = copy;
    };
  }

  async listPage(_db: Db, page: PageRequest, visible: string[] | null): Promise<Page<Project>> {
    const items = [...this.rows.values()].filter((p) => visible === null || visible.includes(p.ulid));
    return paginateInMemory(items.map((p) => ({ ...p })), projectListName, page);
  }

  async allUlids(): Promise<string[]> {
    return [...this.rows.keys()];
  }

  async findByKey(_db: Db, key: string): Promise<Project | undefined> {
    const found = [...this.rows.values()].find((p) => p.key === key);
    return found && { ...found };
  }

  async insert(_trx: Knex.Transaction, project: Project): Promise<void> {
    if ([...this.rows.values()].some((p) => p.key === project.key)) throw keyTaken();
    this.rows.set(project.ulid, { ...project });
  }

  async update(_trx: Knex.Transaction, ulid: string, patch: Pick<Project, 'name' | 'description' | 'updated_at'>): Promise<boolean> {
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
