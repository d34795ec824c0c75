import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import type { NormalisedCriterion } from '../rules/criteria.js';
import type { Db } from '../../storage/db.js';

export interface SegmentRuleRecord {
  criteria: NormalisedCriterion[];
}

export interface SegmentRecord {
  ulid: string;
  project_ulid: string;
  key: string;
  name: string;
  description: string | null;
  included: string[];
  excluded: string[];
  rules: SegmentRuleRecord[];
  created_at: string;
  updated_at: string;
}

/** Each method takes the `Db` it runs on: the pool for reads, the service's transaction for writes. */
export interface SegmentsStore {
  /** The project's segments in creation order, keyset-paginated. */
  listSegments(db: Db, projectUlid: string, page: PageRequest): Promise<Page<SegmentRecord>>;
  /** `lock`: take the segment's row lock for the rest of the transaction (when `db` is one). */
  findSegment(db: Db, projectUlid: string, key: string, options?: { lock?: boolean }): Promise<SegmentRecord | undefined>;
  /** Throws ValidationError on `key` when the project already has a segment with that key. */
  insertSegment(trx: Knex.Transaction, segment: SegmentRecord): Promise<void>;
  /** Replaces everything but ulid, project, key and created_at. */
  updateSegment(trx: Knex.Transaction, segment: SegmentRecord): Promise<void>;
  deleteSegment(trx: Knex.Transaction, segmentUlid: string): Promise<void>;
  /**
   * Keys of the flags whose draft, scheduled or published targets have a rule criterion naming
   * the segment (expired targets are history and never served again). Reads the latest
   * committed rows, so a rule written concurrently is not missed.
   */
  referencingFlagKeys(trx: Knex.Transaction, segment: Pick<SegmentRecord, 'ulid' | 'key' | 'project_ulid'>): Promise<string[]>;
  /** Segments can change what every environment of the project serves. */
  bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string): Promise<void>;
}
