import type { components } from '../../../generated/management.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { FieldErrorList, NotFoundError, UnprocessableError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { normaliseCriteria, type CriterionInput } from '../rules/criteria.js';
import type { LookupStore } from '../shared/lookup.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import { duplicateKey } from './errors.js';
import type { SegmentRecord, SegmentRuleRecord, SegmentsStore } from './store-types.js';

/** Body of updateSegment (full replacement); omitted lists are empty, an omitted description null. */
export interface SegmentUpdateInput {
  name: string;
  description?: string | null;
  included?: string[];
  excluded?: string[];
  rules?: { criteria: CriterionInput[] }[];
}

export interface SegmentCreateInput extends SegmentUpdateInput {
  key: string;
}

type SegmentCriterion = components['schemas']['SegmentCriterion'];

/** The API form of a segment. */
export interface SegmentView {
  ulid: string;
  key: string;
  name: string;
  description: string | null;
  included: string[];
  excluded: string[];
  rules: { criteria: SegmentCriterion[] }[];
  created_at: string;
  updated_at: string;
}

export function toSegmentView(s: SegmentRecord): SegmentView {
  return {
    ulid: s.ulid,
    key: s.key,
    name: s.name,
    description: s.description,
    included: s.included,
    excluded: s.excluded,
    rules: s.rules.map((r) => ({
      // Stored as validated on write: a segment's selectors are attribute or context, its comparers documented ones.
      criteria: r.criteria.map((c) => ({
        selector: c.selector as SegmentCriterion['selector'],
        sub_selector: c.sub_selector,
        comparer: c.comparer as SegmentCriterion['comparer'],
        values: c.values,
      })),
    })),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** What SegmentsService is built from. */
export interface SegmentsServiceDeps {
  /** The pool, for reads outside a change. */
  db: Db;
  tx: Transactor;
  /** The path lookups. */
  lookups: LookupStore;
  store: SegmentsStore;
  clock: Clock;
}

/**
 * Segments of a project (specs/management.yaml, tag Segments). Targeting rules name segments by key; a segment
 * change alters what every environment of the project serves wherever a published rule names it,
 * so every change bumps all the project's environment revisions in its transaction.
 */
export class SegmentsService {
  constructor(private readonly deps: SegmentsServiceDeps) {}

  async list(
    principal: ManagementPrincipal,
    projectKey: string,
    page: PageRequest,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<Page<SegmentView>> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    audit.describe({ action: 'segment.listed', projectUlid: project.ulid });
    const result = await this.deps.store.listSegments(this.deps.db, project.ulid, page);
    return { data: result.data.map(toSegmentView), meta: result.meta };
  }

  async get(
    principal: ManagementPrincipal,
    projectKey: string,
    segmentKey: string,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<SegmentView> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    const segment = await this.deps.store.findSegment(this.deps.db, project.ulid, segmentKey);
    if (!segment) throw notFound(segmentKey);
    audit.describe(subject(segment, 'segment.read'));
    return toSegmentView(segment);
  }

  async create(principal: ManagementPrincipal, projectKey: string, body: SegmentCreateInput, audit: Auditor): Promise<SegmentView> {
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const project = await this.deps.lookups.findProject(trx, principal.access, projectKey);
      audit.describe({ action: 'segment.created', projectUlid: project.ulid });
      const fields = checkBody(body);
      if (await store.findSegment(trx, project.ulid, body.key)) throw duplicateKey(body.key);
      const now = this.deps.clock.now().toISOString();
      const segment: SegmentRecord = {
        ulid: newId('segment'),
        project_ulid: project.ulid,
        key: body.key,
        ...fields,
        created_at: now,
        updated_at: now,
      };
      await store.insertSegment(trx, segment);
      await store.bumpProjectRevisions(trx, project.ulid);
      await audit.commit(trx, { ...subject(segment, 'segment.created'), changes: { after: toSegmentView(segment) } });
      return toSegmentView(segment);
    });
  }

  /** PUT: full replacement; the key never changes. */
  async update(
    principal: ManagementPrincipal,
    projectKey: string,
    segmentKey: string,
    body: SegmentUpdateInput,
    audit: Auditor,
  ): Promise<SegmentView> {
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const project = await this.deps.lookups.findProject(trx, principal.access, projectKey);
      audit.describe({ action: 'segment.updated', projectUlid: project.ulid });
      const current = await store.findSegment(trx, project.ulid, segmentKey, { lock: true });
      if (!current) throw notFound(segmentKey);
      audit.describe(subject(current, 'segment.updated'));
      const segment: SegmentRecord = { ...current, ...checkBody(body), updated_at: this.deps.clock.now().toISOString() };
      await store.updateSegment(trx, segment);
      await store.bumpProjectRevisions(trx, project.ulid);
      await audit.commit(trx, {
        ...subject(segment, 'segment.updated'),
        changes: { before: toSegmentView(current), after: toSegmentView(segment) },
      });
      return toSegmentView(segment);
    });
  }

  /** Refused (422) while a rule of a draft, scheduled or published target names the segment. */
  async delete(principal: ManagementPrincipal, projectKey: string, segmentKey: string, audit: Auditor): Promise<void> {
    const { store } = this.deps;
    await this.deps.tx.transaction(async (trx) => {
      const project = await this.deps.lookups.findProject(trx, principal.access, projectKey);
      audit.describe({ action: 'segment.deleted', projectUlid: project.ulid });
      const current = await store.findSegment(trx, project.ulid, segmentKey, { lock: true });
      if (!current) throw notFound(segmentKey);
      audit.describe(subject(current, 'segment.deleted'));
      const flags = await store.referencingFlagKeys(trx, current);
      if (flags.length > 0) {
        throw new UnprocessableError(
          `Segment "${segmentKey}" is used by targeting rules of ${flags.length === 1 ? 'flag' : 'flags'} ` +
            `${flags.map((f) => `"${f}"`).join(', ')}; remove those criteria first.`,
        );
      }
      await store.deleteSegment(trx, current.ulid);
      await store.bumpProjectRevisions(trx, project.ulid);
      await audit.commit(trx, { ...subject(current, 'segment.deleted'), changes: { before: toSegmentView(current) } });
    });
  }
}

function notFound(key: string): NotFoundError {
  return new NotFoundError(`Segment "${key}" not found.`);
}

function subject(segment: SegmentRecord, action: string) {
  return {
    action,
    subjectType: 'segment',
    subjectUlid: segment.ulid,
    subjectLabel: segment.key,
    projectUlid: segment.project_ulid,
  };
}

/** What the document cannot express: criteria rules (selectors attribute and context only). */
function checkBody(body: SegmentUpdateInput): Pick<SegmentRecord, 'name' | 'description' | 'included' | 'excluded' | 'rules'> {
  const errors = new FieldErrorList();
  const rules: SegmentRuleRecord[] = (body.rules ?? []).map((rule, i) => {
    if (rule.criteria.length === 0) errors.add(`rules.${i}.criteria`, 'The criteria field must contain at least one criterion.');
    return { criteria: normaliseCriteria(rule.criteria, { prefix: `rules.${i}.criteria`, allowSegmentSelector: false, errors }) };
  });
  errors.check();
  return {
    name: body.name,
    description: body.description ?? null,
    included: [...new Set(body.included ?? [])],
    excluded: [...new Set(body.excluded ?? [])],
    rules,
  };
}
