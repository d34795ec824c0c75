import { environmentName } from '../shared/access-rules.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../http/errors.js';
import { newId } from '../../ids.js';
import type { FlagType } from '../flags/store-types.js';
import type { EnvironmentRef, FlagRef, LookupStore, ProjectRef } from '../shared/lookup.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import { DisplayError, normaliseDisplay, parseStoredDisplay, type JsonValue, type NormalisedDisplay } from './display.js';
import type { FlagValueRecord, FlagValueStore, ValueUsage } from './store-types.js';

/** The API form of a flag value (specs/management.yaml, schema FlagValue). */
export interface FlagValueResource {
  ulid: string;
  display: string;
  value: JsonValue;
  default: boolean;
  created_at: string;
  updated_at: string;
}

export function toFlagValueResource(type: FlagType, value: FlagValueRecord): FlagValueResource {
  return {
    ulid: value.ulid,
    display: value.display,
    value: parseStoredDisplay(type, value.display),
    default: value.is_default,
    created_at: value.created_at,
    updated_at: value.updated_at,
  };
}

/** Path of a value operation: the flag, and for the environment forms of the paths the environment. */
export interface ValuePath {
  projectKey: string;
  flagKey: string;
  /** Present on the `/environments/{environmentKey}/...` forms: must exist, does not scope the value. */
  environmentKey?: string;
}

interface Resolved {
  project: ProjectRef;
  flag: FlagRef;
  environment?: EnvironmentRef;
}

const valueNotFound = (ulid: string) => new NotFoundError(`Flag value "${ulid}" not found.`);

function normalise(type: FlagType, display: string): NormalisedDisplay {
  try {
    return normaliseDisplay(type, display);
  } catch (error) {
    if (error instanceof DisplayError) throw ValidationError.field('display', error.message, 'value_type_mismatch');
    throw error;
  }
}

/** "published in production, draft in staging"; `named` names each environment (or hides it). */
function describeUsage(usage: ValueUsage, named: (row: { environment_key: string; environment_ulid: string }) => string): string {
  const parts: string[] = [];
  if (usage.targets.length > 0) {
    const where = usage.targets.map((t) => `${t.status} in ${named(t)}`);
    parts.push(`${usage.targets.length} target${usage.targets.length > 1 ? 's' : ''} (${unique(where).join(', ')})`);
  }
  if (usage.rules.length > 0) {
    const where = usage.rules.map((r) => `${r.target_status} target in ${named(r)}`);
    parts.push(`${usage.rules.length} targeting rule${usage.rules.length > 1 ? 's' : ''} (${unique(where).join(', ')})`);
  }
  if (usage.prerequisites.length > 0) {
    const where = usage.prerequisites.map((p) => `${p.flag_key} in ${named(p)}`);
    parts.push(`the prerequisites of ${unique(where).join(', ')}`);
  }
  return parts.join(' and ');
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** What FlagValueService is built from. */
export interface FlagValueServiceDeps {
  /** The pool, for reads outside a change. */
  db: Db;
  tx: Transactor;
  /** The path lookups. */
  lookups: LookupStore;
  store: FlagValueStore;
  clock: Clock;
}

/**
 * Values of a flag (specs/management.yaml, tag Flag values). Displays are checked
 * against the flag type and stored normalised; a flag's value changes run one after another
 * (flag row lock), so exactly one value stays the default however requests race.
 */
export class FlagValueService {
  constructor(private readonly deps: FlagValueServiceDeps) {}

  private async resolve(
    principal: ManagementPrincipal,
    path: ValuePath,
    action: string,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<Resolved> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, path.projectKey);
    audit.describe({ action, projectUlid: project.ulid });
    const flag = await this.deps.lookups.findFlag(this.deps.db, project, path.flagKey);
    const environment =
      path.environmentKey === undefined
        ? undefined
        : await this.deps.lookups.findEnvironment(this.deps.db, principal.access, project, path.environmentKey);
    audit.describe({
      action,
      subjectType: 'flag',
      subjectUlid: flag.ulid,
      subjectLabel: flag.key,
      environmentUlid: environment?.ulid,
    });
    return { project, flag, environment };
  }

  async list(principal: ManagementPrincipal, path: ValuePath, audit: Pick<Auditor, 'describe'>): Promise<FlagValueResource[]> {
    const { flag } = await this.resolve(principal, path, 'flag_value.listed', audit);
    const values = await this.deps.store.listValues(this.deps.db, flag.ulid);
    return values.map((v) => toFlagValueResource(flag.type, v));
  }

  /** A new value; it becomes the default when the flag has none (the first value of a flag). */
  async create(principal: ManagementPrincipal, path: ValuePath, display: string, audit: Auditor): Promise<FlagValueResource> {
    const { project, flag, environment } = await this.resolve(principal, path, 'flag_value.created', audit);
    const normalised = normalise(flag.type, display);
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      if (!(await store.lockFlag(trx, flag.ulid))) throw new NotFoundError(`Flag "${flag.key}" not found.`);
      const now = this.deps.clock.now().toISOString();
      const value: FlagValueRecord = {
        ulid: newId('flagValue'),
        flag_ulid: flag.ulid,
        display: normalised.display,
        display_digest: normalised.digest,
        is_default: !(await store.hasDefault(trx, flag.ulid)),
        created_at: now,
        updated_at: now,
      };
      await store.insertValue(trx, value);
      // A new default is what environments without a published target now serve.
      if (value.is_default) await store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]);
      await audit.commit(trx, {
        action: 'flag_value.created',
        subjectType: 'flag_value',
        subjectUlid: value.ulid,
        subjectLabel: `${flag.key}: ${value.display}`,
        projectUlid: project.ulid,
        environmentUlid: environment?.ulid,
        changes: { after: toFlagValueResource(flag.type, value) },
      });
      return toFlagValueResource(flag.type, value);
    });
  }

  async update(
    principal: ManagementPrincipal,
    path: ValuePath,
    valueUlid: string,
    display: string,
    audit: Auditor,
  ): Promise<FlagValueResource> {
    const { project, flag } = await this.resolve(principal, path, 'flag_value.updated', audit);
    const normalised = normalise(flag.type, display);
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      if (!(await store.lockFlag(trx, flag.ulid))) throw new NotFoundError(`Flag "${flag.key}" not found.`);
      const value = await store.findValue(trx, flag.ulid, valueUlid);
      if (!value) throw valueNotFound(valueUlid);
      const now = this.deps.clock.now().toISOString();
      await store.updateDisplay(trx, value.ulid, normalised.display, normalised.digest, now);
      // The default and every value a target or rule points at may be what an environment serves.
      if (value.is_default || describeUsage(await store.usage(trx, value.ulid), (row) => row.environment_key) !== '') {
        await store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]);
      }
      const updated = toFlagValueResource(flag.type, {
        ...value,
        display: normalised.display,
        display_digest: normalised.digest,
        updated_at: now,
      });
      await audit.commit(trx, {
        action: 'flag_value.updated',
        subjectType: 'flag_value',
        subjectUlid: value.ulid,
        subjectLabel: `${flag.key}: ${normalised.display}`,
        projectUlid: project.ulid,
        changes: { before: toFlagValueResource(flag.type, value), after: updated },
      });
      return updated;
    });
  }

  /**
   * A value cannot go while it is the default or while any target (draft,
   * scheduled, published or expired: expired targets are the record of what was served) or any
   * targeting rule points at it.
   */
  async delete(principal: ManagementPrincipal, path: ValuePath, valueUlid: string, audit: Auditor): Promise<void> {
    const { project, flag } = await this.resolve(principal, path, 'flag_value.deleted', audit);
    const { store } = this.deps;
    await this.deps.tx.transaction(async (trx) => {
      if (!(await store.lockFlag(trx, flag.ulid))) throw new NotFoundError(`Flag "${flag.key}" not found.`);
      const value = await store.findValue(trx, flag.ulid, valueUlid);
      if (!value) throw valueNotFound(valueUlid);
      audit.describe({ action: 'flag_value.deleted', subjectType: 'flag_value', subjectUlid: value.ulid });
      if (value.is_default) {
        throw new UnprocessableError(
          `The value "${value.display}" is the flag's default value and cannot be deleted; make another value the default first.`,
        );
      }
      // Environments outside the caller's grants are counted, never named.
      const usage = describeUsage(await store.usage(trx, value.ulid), (row) => environmentName(principal.access, project.ulid, row));
      if (usage !== '') {
        throw new UnprocessableError(
          `The value "${value.display}" cannot be deleted while it is in use: it is referenced by ${usage}.`,
        ).withCode('value_in_use');
      }
      await store.deleteValue(trx, value.ulid);
      await audit.commit(trx, {
        action: 'flag_value.deleted',
        subjectType: 'flag_value',
        subjectUlid: value.ulid,
        subjectLabel: `${flag.key}: ${value.display}`,
        projectUlid: project.ulid,
        changes: { before: toFlagValueResource(flag.type, value) },
      });
    });
  }

  /** Makes the value the flag's default and clears every other default, atomically. */
  async setDefault(principal: ManagementPrincipal, path: ValuePath, valueUlid: string, audit: Auditor): Promise<FlagValueResource> {
    const { project, flag, environment } = await this.resolve(principal, path, 'flag_value.default_set', audit);
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      if (!(await store.lockFlag(trx, flag.ulid))) throw new NotFoundError(`Flag "${flag.key}" not found.`);
      const value = await store.findValue(trx, flag.ulid, valueUlid);
      if (!value) throw valueNotFound(valueUlid);
      let updated = value;
      if (!value.is_default) {
        const now = this.deps.clock.now().toISOString();
        await store.setDefault(trx, flag.ulid, value.ulid, now);
        await store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]);
        updated = { ...value, is_default: true, updated_at: now };
      }
      await audit.commit(trx, {
        action: 'flag_value.default_set',
        subjectType: 'flag_value',
        subjectUlid: value.ulid,
        subjectLabel: `${flag.key}: ${value.display}`,
        projectUlid: project.ulid,
        environmentUlid: environment?.ulid,
        changes: { before: toFlagValueResource(flag.type, value), after: toFlagValueResource(flag.type, updated) },
      });
      return toFlagValueResource(flag.type, updated);
    });
  }
}
