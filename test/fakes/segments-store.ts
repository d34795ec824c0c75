import type { Knex } from 'knex';
import type { Db } from '../../src/storage/db.js';
import type { Transactor } from '../../src/features/shared/transactions.js';
import { FakeLookupStore } from './lookup-store.js';
import { fakeTransactor } from './transactor.js';
import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../../src/http/pagination.js';
import type { ProjectRef } from '../../src/features/shared/lookup.js';
import { duplicateKey } from '../../src/features/segments/errors.js';
import type { SegmentRecord, SegmentsStore } from '../../src/features/segments/store-types.js';

interface State {
  projects: ProjectRef[];
  /** Environment revisions by project. */
  revisions: Record<string, number>;
  segments: SegmentRecord[];
  /** Rule criteria naming segments: which flag, and the status of the rule's target. */
  references: { segment_ulid: string; flag_key: string; target_status: string }[];
}

/** In-memory SegmentsStore for the service's unit tests; transactions roll back on error. */
export class FakeSegmentsStore implements SegmentsStore {
  state: State = { projects: [], revisions: {}, segments: [], references: [] };

  /** The path lookups over this fake's projects. */
  readonly lookups = new FakeLookupStore(() => this.state);

  async listSegments(_db: Db, projectUlid: string, page: PageRequest): Promise<Page<SegmentRecord>> {
    const list = `segments:${projectUlid}`;
    const cursor = page.cursor ? decodeCursor(page.cursor, list) : undefined;
    const all = this.state.segments.filter((s) => s.project_ulid === projectUlid).sort((a, b) => (a.ulid < b.ulid ? -1 : 1));
    let start = 0;
    let end = all.length;
    if (cursor?.d === 'n') start = all.findIndex((s) => s.ulid > cursor.u);
    if (cursor?.d === 'p') end = all.findIndex((s) => s.ulid >= cursor.u);
    if (start < 0) start = all.length;
    if (end < 0) end = all.length;
    if (cursor?.d === 'p') start = Math.max(0, end - page.per_page);
    const data = all.slice(start, Math.min(end, start + page.per_page));
    const first = data[0];
    const last = data[data.length - 1];
    return {
      data: structuredClone(data),
      meta: {
        per_page: page.per_page,
        next_cursor: last && start + data.length < all.length ? encodeCursor({ l: list, u: last.ulid, d: 'n' }) : null,
        prev_cursor: first && start > 0 ? encodeCursor({ l: list, u: first.ulid, d: 'p' }) : null,
      },
    };
  }

  async findSegment(_db: Db, projectUlid: string, key: string): Promise<SegmentRecord | undefined> {
    const found = this.state.segments.find((s) => s.project_ulid === projectUlid && s.key === key);
    return found ? structuredClone(found) : undefined;
  }

  /** Runs the service's work all or nothing, like the database: a failing `work` leaves the state as it was. */
  readonly tx: Transactor = fakeTransactor(() => {
    const saved = structuredClone(this.state);
    return () => {
      this.state = saved;
    };
  });

  async insertSegment(_trx: Knex.Transaction, segment: SegmentRecord): Promise<void> {
    const s = this.state;
    if (s.segments.some((x) => x.project_ulid === segment.project_ulid && x.key === segment.key)) throw duplicateKey(segment.key);
    s.segments.push(structuredClone(segment));
  }

  async updateSegment(_trx: Knex.Transaction, segment: SegmentRecord): Promise<void> {
    const s = this.state;
    s.segments = s.segments.map((x) =>
      x.ulid === segment.ulid ? { ...structuredClone(segment), key: x.key, project_ulid: x.project_ulid, created_at: x.created_at } : x,
    );
  }

  async deleteSegment(_trx: Knex.Transaction, segmentUlid: string): Promise<void> {
    const s = this.state;
    s.segments = s.segments.filter((x) => x.ulid !== segmentUlid);
    s.references = s.references.filter((r) => r.segment_ulid !== segmentUlid);
  }

  async referencingFlagKeys(_trx: Knex.Transaction, segment: Pick<SegmentRecord, 'ulid'>): Promise<string[]> {
    const keys = this.state.references
      .filter((r) => r.segment_ulid === segment.ulid && r.target_status !== 'expired')
      .map((r) => r.flag_key);
    return [...new Set(keys)].sort();
  }

  async bumpProjectRevisions(_trx: Knex.Transaction, projectUlid: string): Promise<void> {
    const r = this.state.revisions;
    r[projectUlid] = (r[projectUlid] ?? 0) + 1;
  }
}
