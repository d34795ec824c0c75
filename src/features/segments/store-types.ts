import type { Knex } from 'knex';
import type { ResourceAccess } from '../../auth/principal.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import type { NormalisedCriterion } from '../rules/criteria.js';
import type { ProjectRef } from '../shared/lookup.js';

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

export interface SegmentsReader {
  /** The project of the path, with the caller's grants applied (NotFoundError otherwise). */
  resolveProject(access: ResourceAccess, projectKey: string): Promise<ProjectRef>;
  /** The project's segments in creation order, keyset-paginated. */
  listSegments(projectUlid: string, page: PageRequest): Promise<Page<SegmentRecord>>;
  /** `lock`: take the segment's row lock for the rest of the transaction (writers only). */
  findSegment(projectUlid: string, key: string, options?: { lock?: boolean }): Promise<SegmentRecord | undefined>;
}

export interface SegmentsWriter extends SegmentsReader {
  /** The database transaction, for the audit entry committed with the change. */
  readonly trx: Knex.Transaction;
  /** Throws ValidationError on `key` when the project already has a segment with that key. */
  insertSegment(segment: SegmentRecord): Promise<void>;
  /** Replaces everything but ulid, project, key and created_at. */
  updateSegment(segment: SegmentRecord): Promise<void>;
  deleteSegment(segmentUlid: string): Promise<void>;
  /**
   * Keys of the flags whose draft, scheduled or published targets have a rule criterion naming
   * the segment (expired targets are history and never served again). Reads the latest
   * committed rows, so a rule written concurrently is not missed.
   */
  referencingFlagKeys(segment: Pick<SegmentRecord, 'ulid' | 'key' | 'project_ulid'>): Promise<string[]>;
  /** Segments can change what every environment of the project serves. */
  bumpProjectRevisions(projectUlid: string): Promise<void>;
}

export interface SegmentsStore extends SegmentsReader {
  /** Runs `work` atomically: everything it wrote rolls back when it throws. */
  transaction<T>(work: (writer: SegmentsWriter) => Promise<T>): Promise<T>;
}
