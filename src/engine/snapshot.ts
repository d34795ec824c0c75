/**
 * compileSnapshot: turns an EnvironmentConfig into the structure evaluation runs on.
 *
 * Done once per configuration revision: flags in a Map by key (first occurrence of a key wins;
 * configuration order kept for evaluateAll), criteria compiled (see criteria.ts; identical ones
 * into one object), segment member lists as Sets, attribute names numbered into slots, the
 * murmur3 state of each flag's bucketing prefix precomputed. The snapshot also owns small scratch
 * arrays that memoise attribute lookups, parsed numbers and segment memberships during one
 * evaluation call, so the hot path allocates nothing but the outcome.
 *
 * A snapshot never changes what it evaluates after compilation; only scratch memory is written
 * during an evaluation call: its own arrays, each criterion's memo and each flag's bucketing
 * cache (both valid whichever snapshot holds them; synchronous, so sharing is safe in JS).
 *
 * Compiled records are plain objects built by one function each (one hidden class per kind), and
 * class fields are `declare`d and assigned in the constructor: both keep property access fast.
 */
import { type MatchSegment, type MatchState, nextCall } from './comparers.js';
import { compileCriterion, type CriterionCompileScope, type MatchCriterion } from './criteria.js';
import { newBucketTypeCache, type BucketTypeCache } from './bucket.js';
import { murmur3Prefix, type Murmur3State } from './murmur3.js';
import { compileSplit, type SnapshotSplit } from './split.js';
import { compilePrerequisites, type SnapshotPrerequisite } from './prerequisites.js';
import type {
  CompiledCriterion,
  CompiledFlag,
  CompiledTarget,
  ContextAttributeValue,
  EnvironmentConfig,
  FlagType,
  JsonValue,
} from './types.js';

export interface SnapshotRule {
  readonly value: JsonValue;
  readonly criteria: readonly MatchCriterion[];
  readonly split: SnapshotSplit | null;
}

export interface SnapshotTarget {
  readonly value: JsonValue;
  readonly rules: readonly SnapshotRule[];
  readonly split: SnapshotSplit | null;
  /** prerequisites.ts; empty when the target has none. */
  readonly prerequisites: readonly SnapshotPrerequisite[];
}

export interface SnapshotFlag {
  readonly key: string;
  readonly name: string;
  readonly type: FlagType;
  readonly includeInMobile: boolean;
  readonly includeInClient: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: JsonValue;
  readonly serving: SnapshotTarget | null;
  readonly previous: SnapshotTarget | null;
  readonly hasRollout: boolean;
  /** Buckets below this are inside the rollout (percentage * 100). */
  readonly rolloutThreshold: number;
  /** murmur3 state after `${key}/`, the constant start of the bucketing key. */
  readonly bucketState: Murmur3State;
  /** Hash state after `${key}/${type}/` for the last context type bucketed (bucket.ts). */
  readonly bucketTypeCache: BucketTypeCache;
}

export interface SnapshotSegment extends MatchSegment {
  readonly key: string;
}

/** Public description of a flag in a snapshot. */
export interface FlagInfo {
  readonly key: string;
  readonly name: string;
  readonly type: FlagType;
  readonly include_in_mobile: boolean;
  readonly include_in_client: boolean;
}

const MAX_STAMP = 0x3fffffff;

/** A compiled environment configuration. Create with compileSnapshot. */
export class Snapshot implements MatchState {
  declare readonly revision: number;
  /** @internal flags in configuration order */
  declare readonly flagList: readonly SnapshotFlag[];
  /** @internal */
  declare readonly flagMap: ReadonlyMap<string, SnapshotFlag>;
  /** @internal */
  declare readonly segments: readonly SnapshotSegment[];
  /** @internal attribute name -> slot, for every attribute some criterion tests */
  declare readonly attributeSlots: ReadonlyMap<string, number>;
  /** @internal evaluation-call stamp; scratch entries stamped with it are valid for this call */
  declare stamp: number;
  /** @internal global evaluation-call number (criterion memo) */
  declare call: number;
  /** @internal */
  declare indexedStamp: number;
  /** @internal */
  declare readonly attrStamp: Int32Array;
  /** @internal */
  declare readonly attrValues: (readonly ContextAttributeValue[] | undefined)[];
  /** @internal */
  declare readonly numStamp: Int32Array;
  /** @internal */
  declare readonly numValue: Float64Array;
  /** @internal */
  declare readonly segStamp: Int32Array;
  /** @internal */
  declare readonly segMember: Uint8Array;
  /** @internal keyList, made on first use */
  declare private keyListMade: readonly string[] | undefined;

  /** @internal use compileSnapshot */
  constructor(
    revision: number,
    flagList: readonly SnapshotFlag[],
    flagMap: ReadonlyMap<string, SnapshotFlag>,
    segments: readonly SnapshotSegment[],
    attributeSlots: ReadonlyMap<string, number>,
  ) {
    this.revision = revision;
    this.flagList = flagList;
    this.flagMap = flagMap;
    this.segments = segments;
    this.attributeSlots = attributeSlots;
    this.keyListMade = undefined;
    this.stamp = 0;
    this.call = 0;
    this.indexedStamp = 0;
    const slots = attributeSlots.size;
    this.attrStamp = new Int32Array(slots);
    const values: (readonly ContextAttributeValue[] | undefined)[] = [];
    for (let i = 0; i < slots; i++) values.push(undefined);
    this.attrValues = values;
    this.numStamp = new Int32Array(slots);
    this.numValue = new Float64Array(slots);
    this.segStamp = new Int32Array(segments.length);
    this.segMember = new Uint8Array(segments.length);
  }

  /** @internal starts an evaluation call: invalidates the memoised lookups of the previous call */
  nextStamp(): void {
    if (this.stamp >= MAX_STAMP) {
      this.attrStamp.fill(0);
      this.numStamp.fill(0);
      this.segStamp.fill(0);
      this.stamp = 0;
      this.indexedStamp = 0;
    }
    this.stamp++;
    this.call = nextCall();
  }

  /** Number of flags. */
  get size(): number {
    return this.flagList.length;
  }

  /** Flag keys in configuration order. */
  keys(): string[] {
    return this.flagList.map((f) => f.key);
  }

  /**
   * The same keys as one frozen list per snapshot: a server reading them per request makes no
   * copy, and the list's identity stands for this snapshot's keys.
   */
  get keyList(): readonly string[] {
    this.keyListMade ??= Object.freeze(this.keys());
    return this.keyListMade;
  }

  has(key: string): boolean {
    return this.flagMap.has(key);
  }

  /** Name, type and platform switches of a flag, or undefined for an unknown key. */
  flag(key: string): FlagInfo | undefined {
    const f = this.flagMap.get(key);
    return f === undefined ? undefined : toInfo(f);
  }

  /** All flags in configuration order. */
  flags(): FlagInfo[] {
    return this.flagList.map(toInfo);
  }
}

function toInfo(f: SnapshotFlag): FlagInfo {
  return {
    key: f.key,
    name: f.name,
    type: f.type,
    include_in_mobile: f.includeInMobile,
    include_in_client: f.includeInClient,
  };
}

function compileCriteria(list: readonly CompiledCriterion[] | undefined, scope: CriterionCompileScope): MatchCriterion[] {
  const out: MatchCriterion[] = [];
  if (!Array.isArray(list)) return out;
  for (const c of list) out.push(compileCriterion(c, scope));
  return out;
}

function compileTarget(flagKey: string, t: CompiledTarget | null | undefined, scope: CriterionCompileScope): SnapshotTarget | null {
  if (t === null || t === undefined) return null;
  const rules: SnapshotRule[] = [];
  if (Array.isArray(t.rules)) {
    for (const r of t.rules) {
      rules.push({ value: r.value, criteria: compileCriteria(r.criteria, scope), split: compileSplit(flagKey, r.split) });
    }
  }
  return { value: t.value, rules, split: compileSplit(flagKey, t.split), prerequisites: compilePrerequisites(t.prerequisites) };
}

function compileFlag(f: CompiledFlag, scope: CriterionCompileScope): SnapshotFlag {
  const hasDefault = f.default !== null && f.default !== undefined;
  const rollout = f.rollout ?? null;
  const hasRollout = rollout !== null && typeof rollout.percentage === 'number';
  return {
    key: f.key,
    name: f.name,
    type: f.type,
    includeInMobile: f.include_in_mobile !== false,
    includeInClient: f.include_in_client !== false,
    hasDefault,
    defaultValue: hasDefault ? (f.default as { value: JsonValue }).value : null,
    serving: compileTarget(f.key, f.serving, scope),
    previous: hasRollout ? compileTarget(f.key, f.previous, scope) : null,
    hasRollout,
    rolloutThreshold: hasRollout ? (rollout as { percentage: number }).percentage * 100 : 0,
    bucketState: murmur3Prefix(f.key + '/', 0),
    bucketTypeCache: newBucketTypeCache(),
  };
}

/** Compile scopes sharing one attribute-slot map (extended on first use of a name). */
function scopesFor(
  attributeSlots: Map<string, number>,
  segmentIndexes: ReadonlyMap<string, number>,
): { flagScope: CriterionCompileScope; segmentScope: CriterionCompileScope } {
  const attributeSlot = (name: string): number => {
    let slot = attributeSlots.get(name);
    if (slot === undefined) {
      slot = attributeSlots.size;
      attributeSlots.set(name, slot);
    }
    return slot;
  };
  const segmentIndex = (key: string): number => segmentIndexes.get(key) ?? -1;
  const interned = new Map<string, MatchCriterion>();
  return {
    flagScope: { attributeSlot, segmentIndex, allowSegmentSelector: true, interned },
    segmentScope: { attributeSlot, segmentIndex, allowSegmentSelector: false, interned },
  };
}

/** Compiles an environment's configuration for evaluation. */
export function compileSnapshot(config: EnvironmentConfig): Snapshot {
  const attributeSlots = new Map<string, number>();
  const segmentIndexes = new Map<string, number>();
  const rawSegments = Array.isArray(config.segments) ? config.segments : [];
  for (const s of rawSegments) {
    if (!segmentIndexes.has(s.key)) segmentIndexes.set(s.key, segmentIndexes.size);
  }
  const { flagScope, segmentScope } = scopesFor(attributeSlots, segmentIndexes);

  // segments, in the order of their indexes (first occurrence of a key wins)
  const segments: SnapshotSegment[] = [];
  const seenSegments = new Set<string>();
  for (const s of rawSegments) {
    if (seenSegments.has(s.key)) continue;
    seenSegments.add(s.key);
    const rules: MatchCriterion[][] = [];
    if (Array.isArray(s.rules)) {
      for (const r of s.rules) rules.push(compileCriteria(r.criteria, segmentScope));
    }
    segments.push({
      included: new Set(Array.isArray(s.included) ? s.included : []),
      excluded: new Set(Array.isArray(s.excluded) ? s.excluded : []),
      rules,
      key: s.key,
    });
  }

  const flagList: SnapshotFlag[] = [];
  const flagMap = new Map<string, SnapshotFlag>();
  const rawFlags = Array.isArray(config.flags) ? config.flags : [];
  for (const f of rawFlags) {
    if (flagMap.has(f.key)) continue;
    const compiled = compileFlag(f, flagScope);
    flagMap.set(f.key, compiled);
    flagList.push(compiled);
  }

  return new Snapshot(config.revision, flagList, flagMap, segments, attributeSlots);
}

/**
 * A snapshot of `config` that reuses `previous`'s compiled flags for every key not in
 * `changedFlagKeys`: only changed and new flags are compiled, flags absent from `config` are
 * dropped. Evaluates exactly like compileSnapshot(config) provided the segments of `config` are
 * those `previous` was compiled from (the caller recompiles in full otherwise).
 *
 * Reused flags hold criteria compiled against `previous`'s attribute slots and segment indexes,
 * so both are kept: the slot map is copied and only extended with the names new criteria use
 * (slots of names no flag tests any more stay; they cost one map entry each), and the compiled
 * segments are shared as they are.
 */
export function updateSnapshot(previous: Snapshot, config: EnvironmentConfig, changedFlagKeys: ReadonlySet<string>): Snapshot {
  const attributeSlots = new Map(previous.attributeSlots);
  const segmentIndexes = new Map<string, number>();
  const segments = previous.segments;
  for (let i = 0; i < segments.length; i++) segmentIndexes.set((segments[i] as SnapshotSegment).key, i);
  const { flagScope } = scopesFor(attributeSlots, segmentIndexes);

  const flagList: SnapshotFlag[] = [];
  const flagMap = new Map<string, SnapshotFlag>();
  const rawFlags = Array.isArray(config.flags) ? config.flags : [];
  for (const f of rawFlags) {
    if (flagMap.has(f.key)) continue;
    const reused = changedFlagKeys.has(f.key) ? undefined : previous.flagMap.get(f.key);
    const compiled = reused ?? compileFlag(f, flagScope);
    flagMap.set(f.key, compiled);
    flagList.push(compiled);
  }

  return new Snapshot(config.revision, flagList, flagMap, segments, attributeSlots);
}
