import { environmentName } from '../shared/access-rules.js';
import type { AuditSubject } from '../../audit/audit-trail.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../http/errors.js';
import type { RequiringTarget } from '../prerequisites/references-store.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { normaliseDisplay } from '../flag-values/display.js';
import type { LookupStore } from '../shared/lookup.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import { filteredPage, hasServingFilter, type ServingFilter } from './serving-filter.js';
import type { FlagOverview } from './serving-overview.js';
import { flagListName, type FlagListFilter, type FlagRecord, type FlagStore, type FlagType, type FlagValueInsert } from './store-types.js';

/** What flags serve, read from the database (serving-overview.ts). */
export interface ServingReader {
  /** `visible`: the environments the caller was granted; the others are left out. */
  overview(
    projectUlid: string,
    flags: FlagRecord[],
    staleDays: number,
    now: Date,
    visible: (environmentUlid: string) => boolean,
  ): Promise<Map<string, FlagOverview>>;
  environmentKeys(projectUlid: string, visible: (environmentUlid: string) => boolean): Promise<string[]>;
}

export interface FlagCreateInput {
  key: string;
  name: string;
  type: FlagType;
  description?: string | null;
  include_in_mobile?: boolean;
  include_in_client?: boolean;
  tags?: string[];
}

/** PUT body: name and permanent always; omitted optional fields keep their current values. */
export interface FlagUpdateInput {
  name: string;
  permanent: boolean;
  description?: string | null;
  include_in_mobile?: boolean;
  include_in_client?: boolean;
  tags?: string[];
}

export interface BulkDeleteResult {
  deleted: string[];
  not_found: string[];
}

/** The API form of a flag (specs/management.yaml, schema Flag). */
export interface FlagResource {
  ulid: string;
  key: string;
  name: string;
  type: FlagType;
  description: string | null;
  permanent: boolean;
  include_in_mobile: boolean;
  include_in_client: boolean;
  tags: string[];
  created_at: string;
  updated_at: string;
}

export function toFlagResource(flag: FlagRecord): FlagResource {
  return {
    ulid: flag.ulid,
    key: flag.key,
    name: flag.name,
    type: flag.type,
    description: flag.description,
    permanent: flag.permanent,
    include_in_mobile: flag.include_in_mobile,
    include_in_client: flag.include_in_client,
    tags: flag.tags,
    created_at: flag.created_at,
    updated_at: flag.updated_at,
  };
}

const flagNotFound = (key: string) => new NotFoundError(`Flag "${key}" not found.`);

/** The audit record of one deleted flag, however it was deleted (one at a time or in bulk). */
function flagDeletion(projectUlid: string, flag: FlagRecord): AuditSubject {
  return {
    action: 'flag.deleted',
    subjectType: 'flag',
    subjectUlid: flag.ulid,
    subjectLabel: flag.key,
    projectUlid,
    changes: { before: toFlagResource(flag) },
  };
}

/**
 * Flags of a project (specs/management.yaml, tag Flags). Every change bumps the revision of every
 * environment of the project and commits its audit entry in the same transaction.
 */
/** 409 when other flags' live targets require any of these flags (prerequisites): names them all. */
function refuseRequired(
  flags: readonly { ulid: string; key: string }[],
  requiredBy: Map<string, RequiringTarget[]>,
  named: (target: RequiringTarget) => string,
): void {
  const parts: string[] = [];
  for (const flag of flags) {
    const requiring = requiredBy.get(flag.ulid);
    if (requiring === undefined || requiring.length === 0) continue;
    parts.push(`Flag "${flag.key}" is a prerequisite of: ${[...new Set(requiring.map((r) => `${r.flag_key}/${named(r)}`))].join(', ')}.`);
  }
  if (parts.length > 0) {
    throw new ConflictError(`${parts.join(' ')} Remove those prerequisites before deleting it.`).withCode('flag_required');
  }
}

/** What FlagService is built from. */
export interface FlagServiceDeps {
  /** The pool, for reads outside a change. */
  db: Db;
  tx: Transactor;
  /** The path lookups. */
  lookups: LookupStore;
  store: FlagStore;
  clock: Clock;
  /** The console's view of a page and the project's environment keys (serving-overview.ts); absent where no database is (unit tests). */
  serving?: ServingReader;
}

export class FlagService {
  constructor(private readonly deps: FlagServiceDeps) {}

  /** `serving`: the console's view of each flag (serving-overview.ts), or undefined for the flags alone. */
  async list(
    principal: ManagementPrincipal,
    projectKey: string,
    filter: FlagListFilter,
    page: PageRequest,
    serving: { staleDays: number } | undefined,
    servingFilter: ServingFilter | undefined,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<Page<FlagResource & Partial<FlagOverview>>> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    audit.describe({
      action: 'flag.listed',
      subjectType: 'project',
      subjectUlid: project.ulid,
      subjectLabel: project.key,
      projectUlid: project.ulid,
    });
    const visible = (environmentUlid: string) => principal.access.canSeeEnvironment(project.ulid, environmentUlid);
    if (servingFilter && hasServingFilter(servingFilter))
      return this.listServing(project.ulid, filter, page, serving, servingFilter, visible);
    const result = await this.deps.store.listFlags(this.deps.db, project.ulid, filter, page);
    if (!serving || !this.deps.serving) return { data: result.data.map(toFlagResource), meta: result.meta };
    const states = await this.deps.serving.overview(project.ulid, result.data, serving.staleDays, this.deps.clock.now(), visible);
    return { data: result.data.map((flag) => ({ ...toFlagResource(flag), ...states.get(flag.ulid) })), meta: result.meta };
  }

  /** A page filtered by what flags serve (serving-filter.ts); with `serving`, each flag carries its overview. */
  private async listServing(
    projectUlid: string,
    filter: FlagListFilter,
    page: PageRequest,
    serving: { staleDays: number } | undefined,
    servingFilter: ServingFilter,
    visible: (environmentUlid: string) => boolean,
  ): Promise<Page<FlagResource & Partial<FlagOverview>>> {
    const reader = this.deps.serving;
    if (!reader) throw new Error('Filtering flags by what they serve needs the serving reader.');
    // An environment the caller was not granted is answered as an unknown one.
    const known = await reader.environmentKeys(projectUlid, visible);
    for (const key of [servingFilter.on, servingFilter.off]) {
      if (key !== undefined && !known.includes(key)) {
        throw new UnprocessableError(`The project has no environment "${key}" to filter by.`).withCode('reference_not_found');
      }
    }
    const { staleDays } = servingFilter;
    const now = this.deps.clock.now();
    const result = await filteredPage(
      flagListName(projectUlid),
      page,
      (batch) => this.deps.store.listFlags(this.deps.db, projectUlid, filter, batch),
      (flags) => reader.overview(projectUlid, flags, staleDays, now, visible),
      servingFilter,
    );
    const data = result.data.map(({ flag, overview }) => (serving ? { ...toFlagResource(flag), ...overview } : toFlagResource(flag)));
    return { data, meta: result.meta };
  }

  async get(
    principal: ManagementPrincipal,
    projectKey: string,
    flagKey: string,
    serving: { staleDays: number } | undefined,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<FlagResource & Partial<FlagOverview>> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    audit.describe({ action: 'flag.read', projectUlid: project.ulid });
    const flag = await this.deps.store.findFlag(this.deps.db, project.ulid, flagKey);
    if (!flag) throw flagNotFound(flagKey);
    audit.describe({ action: 'flag.read', subjectType: 'flag', subjectUlid: flag.ulid, subjectLabel: flag.key });
    if (!serving || !this.deps.serving) return toFlagResource(flag);
    const visible = (environmentUlid: string) => principal.access.canSeeEnvironment(project.ulid, environmentUlid);
    const states = await this.deps.serving.overview(project.ulid, [flag], serving.staleDays, this.deps.clock.now(), visible);
    return { ...toFlagResource(flag), ...states.get(flag.ulid) };
  }

  async create(principal: ManagementPrincipal, projectKey: string, input: FlagCreateInput, audit: Auditor): Promise<FlagResource> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    audit.describe({ action: 'flag.created', projectUlid: project.ulid });
    const now = this.deps.clock.now().toISOString();
    const flag: FlagRecord = {
      ulid: newId('flag'),
      project_ulid: project.ulid,
      key: input.key,
      name: input.name,
      type: input.type,
      description: input.description ?? null,
      permanent: false,
      include_in_mobile: input.include_in_mobile ?? true,
      include_in_client: input.include_in_client ?? true,
      tags: input.tags ?? [],
      created_at: now,
      updated_at: now,
    };
    // Boolean flags start with `true` and `false`, `false` the default.
    const values: FlagValueInsert[] =
      flag.type === 'boolean'
        ? (['true', 'false'] as const).map((display) => ({
            ulid: newId('flagValue'),
            flag_ulid: flag.ulid,
            display,
            display_digest: normaliseDisplay('boolean', display).digest,
            is_default: display === 'false',
            created_at: now,
            updated_at: now,
          }))
        : [];
    const { store } = this.deps;
    await this.deps.tx.transaction(async (trx) => {
      await store.insertFlag(trx, flag);
      await store.insertValues(trx, values);
      await store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]);
      await audit.commit(trx, {
        action: 'flag.created',
        subjectType: 'flag',
        subjectUlid: flag.ulid,
        subjectLabel: flag.key,
        projectUlid: project.ulid,
        changes: { after: toFlagResource(flag) },
      });
    });
    return toFlagResource(flag);
  }

  async update(
    principal: ManagementPrincipal,
    projectKey: string,
    flagKey: string,
    input: FlagUpdateInput,
    audit: Auditor,
  ): Promise<FlagResource> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    audit.describe({ action: 'flag.updated', projectUlid: project.ulid });
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const flag = await store.lockFlag(trx, project.ulid, flagKey);
      if (!flag) throw flagNotFound(flagKey);
      const changes = {
        name: input.name,
        permanent: input.permanent,
        description: input.description === undefined ? flag.description : input.description,
        include_in_mobile: input.include_in_mobile ?? flag.include_in_mobile,
        include_in_client: input.include_in_client ?? flag.include_in_client,
        tags: input.tags ?? flag.tags,
        updated_at: this.deps.clock.now().toISOString(),
      };
      await store.updateFlag(trx, flag.ulid, changes);
      await store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]);
      const updated = toFlagResource({ ...flag, ...changes });
      await audit.commit(trx, {
        action: 'flag.updated',
        subjectType: 'flag',
        subjectUlid: flag.ulid,
        subjectLabel: flag.key,
        projectUlid: project.ulid,
        changes: { before: toFlagResource(flag), after: updated },
      });
      return updated;
    });
  }

  async delete(principal: ManagementPrincipal, projectKey: string, flagKey: string, audit: Auditor): Promise<void> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    audit.describe({ action: 'flag.deleted', projectUlid: project.ulid });
    const { store } = this.deps;
    await this.deps.tx.transaction(async (trx) => {
      const flag = await store.lockFlag(trx, project.ulid, flagKey);
      if (!flag) throw flagNotFound(flagKey);
      refuseRequired([flag], await store.requiredBy(trx, [flag.ulid]), (r) => environmentName(principal.access, project.ulid, r));
      await store.deleteFlags(trx, [flag.ulid]);
      await store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]);
      await audit.commit(trx, flagDeletion(project.ulid, flag));
    });
  }

  /**
   * Deletes the flags that exist among `keys` (at most 100, no duplicates: the document's schema)
   * in one transaction. Keys are reported in request order. Each deleted flag is recorded as
   * `flag.deleted`, as `delete` records it, so the audit log and webhook subscribers see every
   * deletion the same way however it was made; `flag.bulk_deleted` then records the request.
   */
  async bulkDelete(principal: ManagementPrincipal, projectKey: string, keys: string[], audit: Auditor): Promise<BulkDeleteResult> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    audit.describe({ action: 'flag.bulk_deleted', projectUlid: project.ulid });
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const flags = await store.lockFlags(trx, project.ulid, keys);
      const found = new Map(flags.map((f) => [f.key, f]));
      const deleted = keys.filter((k) => found.has(k));
      const notFound = keys.filter((k) => !found.has(k));
      if (flags.length > 0) {
        refuseRequired(
          flags,
          await store.requiredBy(
            trx,
            flags.map((f) => f.ulid),
          ),
          (r) => environmentName(principal.access, project.ulid, r),
        );
        await store.deleteFlags(
          trx,
          flags.map((f) => f.ulid),
        );
        await store.bumpProjectRevisions(
          trx,
          project.ulid,
          flags.map((f) => f.ulid),
        );
      }
      for (const key of deleted) {
        const flag = found.get(key) as (typeof flags)[number];
        await audit.commit(trx, flagDeletion(project.ulid, flag));
      }
      const single = deleted.length === 1 ? found.get(deleted[0] as string) : undefined;
      await audit.commit(trx, {
        action: 'flag.bulk_deleted',
        subjectType: 'flag',
        subjectUlid: single?.ulid,
        subjectLabel: deleted.length > 0 ? deleted.join(', ') : '(none)',
        projectUlid: project.ulid,
        // The deleted flags as the API showed them, in request order.
        ...(deleted.length > 0 ? { changes: { before: deleted.map((k) => toFlagResource(found.get(k) as (typeof flags)[number])) } } : {}),
      });
      return { deleted, not_found: notFound };
    });
  }
}
