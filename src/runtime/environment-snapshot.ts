import { compileSnapshot, updateSnapshot, type CompiledFlag, type EnvironmentConfig, type Snapshot } from '../engine/index.js';
import type { ChangeRevisions, LoadedChanges, LoadedEnvironment } from './config-source.js';
import { digestParts, entityTag } from './etag.js';

type FlagChanges = Extract<LoadedChanges, { kind: 'flags' }>;

/**
 * What the serving path needs of one environment at one revision. The digest, the server ETag
 * and the serialised server payload are computed on first use and kept: a change to one flag of
 * a large environment costs a rebuild of that flag, not a serialisation of the whole
 * configuration (which only the payload endpoints need).
 */
export class EnvironmentSnapshot {
  private digest: string | undefined;
  private payloadJson: string | undefined;
  private servedRevisions: ReadonlyMap<string, number> | undefined;
  /** When this revision started being served here (ms since the epoch; /metrics reports its age). */
  readonly servedSince = Date.now();

  constructor(
    readonly environmentUlid: string,
    readonly environmentKey: string,
    readonly projectUlid: string,
    readonly revision: number,
    readonly config: EnvironmentConfig,
    readonly snapshot: Snapshot,
    /** Flag ulid by flag key (telemetry is stored per flag ulid). */
    readonly flagUlids: ReadonlyMap<string, string>,
    /** Each flag's own revision by flag key, prerequisites aside (see `ownRevision`). */
    private readonly ownRevisions: ReadonlyMap<string, number>,
    /** The newest revision that changed the segments. */
    readonly segmentsRevision: number,
  ) {}

  /**
   * The revision at which what the flag serves here last changed: its own changes, segment
   * changes when its published rules use segments, and the changes of the flags its published
   * targets require (prerequisites, through chains of them), since those can change its answer.
   * Other flags' changes leave it as it is.
   */
  flagRevision(key: string): number {
    this.servedRevisions ??= withPrerequisites(this.config.flags, this.ownRevisions);
    return this.servedRevisions.get(key) ?? 0;
  }

  /** The flag's own changes and its segments' (prerequisites aside): what a change to another flag keeps. */
  ownRevision(key: string): number {
    return this.ownRevisions.get(key) ?? 0;
  }

  /** Digest of the configuration: equal on every instance that loaded the same rows. */
  get configDigest(): string {
    this.digest ??= digestParts(this.environmentUlid, JSON.stringify(this.config));
    return this.digest;
  }

  /** ETag of the server-key payload. */
  get serverEtag(): string {
    return entityTag('srv', this.revision, this.configDigest);
  }

  /** The server-key payload response body, serialised once. */
  get serverPayloadJson(): string {
    this.payloadJson ??= JSON.stringify({
      status: 'success',
      data: {
        kind: 'server',
        etag: this.serverEtag,
        revision: this.revision,
        environment: { ulid: this.environmentUlid, key: this.environmentKey },
        config: this.config,
      },
    });
    return this.payloadJson;
  }
}

const nothingRecorded: ChangeRevisions = { flags: new Map(), segments: 0 };

function usesSegments(flag: CompiledFlag): boolean {
  for (const target of [flag.serving, flag.previous]) {
    for (const rule of target?.rules ?? []) if (rule.criteria.some((c) => c.selector === 'segment')) return true;
  }
  return false;
}

/** A flag's own revision: its newest change, or the segments' when it uses them and they changed later. */
function ownRevision(flag: CompiledFlag, changedAt: number, segmentsRevision: number): number {
  return usesSegments(flag) ? Math.max(changedAt, segmentsRevision) : changedAt;
}

/** Keys of the flags the flag's published targets require. */
function prerequisiteKeys(flag: CompiledFlag): string[] {
  const keys: string[] = [];
  for (const target of [flag.serving, flag.previous]) {
    for (const prerequisite of target?.prerequisites ?? []) keys.push(prerequisite.flag_key);
  }
  return keys;
}

/**
 * Each flag's revision raised to its prerequisites' (theirs raised to their own prerequisites'
 * first). Prerequisites never form a cycle; should one appear, the flag met again counts with its
 * own revision rather than looping.
 */
function withPrerequisites(flags: readonly CompiledFlag[], own: ReadonlyMap<string, number>): Map<string, number> {
  const byKey = new Map(flags.map((flag) => [flag.key, flag]));
  const served = new Map<string, number>();
  const visiting = new Set<string>();
  const revisionOf = (key: string): number => {
    const known = served.get(key);
    if (known !== undefined) return known;
    const flag = byKey.get(key);
    let revision = own.get(key) ?? 0;
    if (flag === undefined || visiting.has(key)) return revision;
    visiting.add(key);
    for (const required of prerequisiteKeys(flag)) revision = Math.max(revision, revisionOf(required));
    visiting.delete(key);
    served.set(key, revision);
    return revision;
  };
  for (const flag of flags) revisionOf(flag.key);
  return served;
}

export function buildEnvironmentSnapshot(loaded: LoadedEnvironment): EnvironmentSnapshot {
  const changes = loaded.changes ?? nothingRecorded;
  const revisions = new Map<string, number>();
  for (const flag of loaded.config.flags) {
    const ulid = loaded.flagUlids.get(flag.key);
    const changedAt = ulid === undefined ? 0 : (changes.flags.get(ulid) ?? 0);
    revisions.set(flag.key, ownRevision(flag, changedAt, changes.segments));
  }
  return new EnvironmentSnapshot(
    loaded.environmentUlid,
    loaded.environmentKey,
    loaded.projectUlid,
    loaded.revision,
    loaded.config,
    compileSnapshot(loaded.config),
    loaded.flagUlids,
    revisions,
    changes.segments,
  );
}

/**
 * The snapshot after `changes`: changed flags replaced, added in key order or removed; every
 * other flag (configuration and compiled form) shared with `current`. Equal to a full reload of
 * the same rows, so every instance computes the same digest whichever way it got there.
 */
export function applyFlagChanges(current: EnvironmentSnapshot, changes: FlagChanges): EnvironmentSnapshot {
  const replaced = new Map<string, CompiledFlag>();
  const flagUlids = new Map(current.flagUlids);
  const revisions = new Map<string, number>();
  const changedKeys = new Set<string>();
  // Keys of changed flags as the current snapshot knows them (a removed flag is known by ulid only).
  for (const [key, ulid] of current.flagUlids) {
    if (changes.flags.has(ulid)) {
      changedKeys.add(key);
      flagUlids.delete(key);
    } else {
      revisions.set(key, current.ownRevision(key));
    }
  }
  for (const [ulid, changed] of changes.flags) {
    if (!changed) continue;
    changedKeys.add(changed.key);
    flagUlids.set(changed.key, ulid);
    replaced.set(changed.key, changed.config);
    revisions.set(changed.key, ownRevision(changed.config, changed.revision, current.segmentsRevision));
  }
  const flags: CompiledFlag[] = [];
  for (const flag of current.config.flags) {
    const next = replaced.get(flag.key);
    if (next) {
      flags.push(next);
      replaced.delete(flag.key);
    } else if (!changedKeys.has(flag.key)) {
      flags.push(flag);
    }
  }
  // Left in `replaced`: flags new to this environment.
  const added = [...replaced.values()];
  const config: EnvironmentConfig = {
    revision: changes.revision,
    flags: added.length === 0 ? flags : mergeByKey(flags, added),
    segments: current.config.segments,
  };
  return new EnvironmentSnapshot(
    current.environmentUlid,
    current.environmentKey,
    current.projectUlid,
    changes.revision,
    config,
    updateSnapshot(current.snapshot, config, changedKeys),
    flagUlids,
    revisions,
    current.segmentsRevision,
  );
}

/** Merges flags sorted by key with new flags (any order): one sorted list. */
function mergeByKey(sorted: readonly CompiledFlag[], extra: CompiledFlag[]): CompiledFlag[] {
  extra.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out: CompiledFlag[] = [];
  let i = 0;
  let j = 0;
  while (i < sorted.length || j < extra.length) {
    const a = sorted[i];
    const b = extra[j];
    if (b === undefined || (a !== undefined && a.key < b.key)) {
      out.push(a as CompiledFlag);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  return out;
}
