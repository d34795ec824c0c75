/**
 * Flag evaluation (expected results: specs/evaluation-vectors.json).
 *
 * 1. Target: with a rollout set, a context with an identifier whose bucket
 *    (bucket.ts) is below percentage * 100 gets the serving target; everything else gets the
 *    previous target, or with none the flag's default value. Without a rollout: the serving target.
 * 2. The target's prerequisites in order (prerequisites.ts): each named flag is evaluated for the
 *    same context, recursively; when one serves none of its accepted values (or is unavailable),
 *    the flag's default value is served (resolved_by `prerequisite`).
 * 3. The target's rules in order: the first whose criteria all match wins (resolved_by `rule`).
 * 4. Else the target's value: resolved_by `rollout` when the rollout chose the serving target,
 *    `target` otherwise.
 *    In 3 and 4, a rule or base with a split serves the share split.ts chooses for the context
 *    (the outcome names the split); a context without the split's bucketing value gets the
 *    rule's or base's own value, as without a split. The rollout chooses the target first, by its
 *    own bucket, so a split only ever divides the contexts its target serves.
 * 5. No target: the flag's default value (resolved_by `default`).
 * 6. Nothing to serve: a declared default for that key whose type equals the flag's type is
 *    served (resolved_by `default`); otherwise the flag is unavailable (undefined).
 * Unknown keys are always unavailable, declared default or not.
 *
 * Segment membership: identifier in `included` -> member; else in `excluded` -> not a member;
 * else member when any segment rule has all its criteria matching. Without a context the member
 * lists do not apply and only the rules decide. Memberships and attribute lookups are computed
 * lazily and memoised for the duration of one evaluateFlag / evaluateAll call.
 */
import { contextBucket } from './bucket.js';
import { matchCriteria } from './comparers.js';
import { valueMatchesType } from './context.js';
import { canonicalJson, PREREQUISITE_MAX_DEPTH, type SnapshotPrerequisite } from './prerequisites.js';
import type { Snapshot, SnapshotFlag, SnapshotTarget } from './snapshot.js';
import { bucketingValue, chooseShare, type SnapshotSplit } from './split.js';
import type { Context, DefaultValueDeclaration, EvaluationOutcome, JsonValue, ResolvedBy } from './types.js';

/** Which flags evaluateAll returns: `mobile` / `client` keep only flags included on that platform. */
export type Platform = 'server' | 'mobile' | 'client';

export interface EvaluateAllOptions {
  readonly platform?: Platform;
}

function outcome(flag: SnapshotFlag, value: JsonValue, resolvedBy: ResolvedBy): EvaluationOutcome {
  return { key: flag.key, name: flag.name, type: flag.type, value, resolved_by: resolvedBy };
}

/** The outcome of a rule or base with a split; undefined when the context has no bucketing value. */
function splitOutcome(
  flag: SnapshotFlag,
  split: SnapshotSplit,
  context: Context | null,
  resolvedBy: ResolvedBy,
  rule: number | null,
): EvaluationOutcome | undefined {
  const by = bucketingValue(split, context);
  if (by === undefined) return undefined;
  const share = chooseShare(split, by);
  if (share === undefined) return undefined;
  return {
    key: flag.key,
    name: flag.name,
    type: flag.type,
    value: share.value,
    resolved_by: resolvedBy,
    split: { rule, variant: share.variant, weight: share.weight },
  };
}

function servedFromDeclaration(flag: SnapshotFlag, declaration: DefaultValueDeclaration | undefined): EvaluationOutcome | undefined {
  if (
    declaration === undefined ||
    declaration.key !== flag.key ||
    declaration.type !== flag.type ||
    !valueMatchesType(flag.type, declaration.value)
  ) {
    return undefined;
  }
  return outcome(flag, declaration.value, 'default');
}

/**
 * Whether every prerequisite of `flag`'s target holds: each required flag, evaluated in the same
 * call, serves an accepted value. `chain` holds the flags being evaluated above this one: a
 * required flag already in it (a cycle) fails, as does a chain longer than PREREQUISITE_MAX_DEPTH.
 */
function prerequisitesHold(
  snap: Snapshot,
  flag: SnapshotFlag,
  prerequisites: readonly SnapshotPrerequisite[],
  context: Context | null,
  chain: SnapshotFlag[],
): boolean {
  if (chain.length >= PREREQUISITE_MAX_DEPTH) return false;
  chain.push(flag);
  try {
    for (let i = 0; i < prerequisites.length; i++) {
      const p = prerequisites[i] as SnapshotPrerequisite;
      const required = snap.flagMap.get(p.flagKey);
      if (required === undefined || chain.includes(required)) return false;
      const served = evaluateCompiled(snap, required, context, undefined, chain);
      if (served === undefined || !p.accepted.has(canonicalJson(served.value))) return false;
    }
    return true;
  } finally {
    chain.pop();
  }
}

/**
 * The key of the first prerequisite of `target` that does not hold for the context, or null when
 * every one holds. For explain.ts only (the serving path stops at the first failure inline).
 */
export function firstFailedPrerequisite(
  snap: Snapshot,
  flag: SnapshotFlag,
  target: SnapshotTarget,
  context: Context | null,
): string | null {
  for (let i = 0; i < target.prerequisites.length; i++) {
    const p = target.prerequisites[i] as SnapshotPrerequisite;
    if (!prerequisitesHold(snap, flag, [p], context, [])) return p.flagKey;
  }
  return null;
}

/** Evaluates one compiled flag within the current evaluation call (no stamp change). */
function evaluateCompiled(
  snap: Snapshot,
  flag: SnapshotFlag,
  context: Context | null,
  declaration: DefaultValueDeclaration | undefined,
  chain?: SnapshotFlag[],
): EvaluationOutcome | undefined {
  let target: SnapshotTarget | null;
  let byRollout = false;
  if (flag.hasRollout) {
    if (
      context !== null &&
      context.identifier !== '' &&
      contextBucket(flag.bucketState, flag.bucketTypeCache, context.type, context.identifier) < flag.rolloutThreshold
    ) {
      target = flag.serving;
      byRollout = true;
    } else {
      target = flag.previous;
    }
  } else {
    target = flag.serving;
  }

  if (target !== null) {
    if (target.prerequisites.length > 0 && !prerequisitesHold(snap, flag, target.prerequisites, context, chain ?? [])) {
      if (flag.hasDefault) return outcome(flag, flag.defaultValue, 'prerequisite');
      return servedFromDeclaration(flag, declaration);
    }
    const rules = target.rules;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      if (matchCriteria(snap, context, rule.criteria)) {
        if (rule.split !== null) {
          const bySplit = splitOutcome(flag, rule.split, context, 'rule', i);
          if (bySplit !== undefined) return bySplit;
        }
        return outcome(flag, rule.value, 'rule');
      }
    }
    const resolvedBy = byRollout ? 'rollout' : 'target';
    if (target.split !== null) {
      const bySplit = splitOutcome(flag, target.split, context, resolvedBy, null);
      if (bySplit !== undefined) return bySplit;
    }
    return outcome(flag, target.value, resolvedBy);
  }
  if (flag.hasDefault) return outcome(flag, flag.defaultValue, 'default');
  return servedFromDeclaration(flag, declaration);
}

/**
 * Evaluates one flag for a context (null: no context).
 * Returns undefined when the flag is unavailable: unknown key, or nothing to serve and no usable
 * declared default (same key and same type as the flag).
 */
export function evaluateFlag(
  snapshot: Snapshot,
  key: string,
  context: Context | null,
  declaredDefault?: DefaultValueDeclaration,
): EvaluationOutcome | undefined {
  const flag = snapshot.flagMap.get(key);
  if (flag === undefined) return undefined;
  snapshot.nextStamp();
  return evaluateCompiled(snapshot, flag, context, declaredDefault);
}

function declarationFor(flag: SnapshotFlag, declarations: readonly DefaultValueDeclaration[]): DefaultValueDeclaration | undefined {
  for (let i = 0; i < declarations.length; i++) {
    const d = declarations[i] as DefaultValueDeclaration;
    if (d.key === flag.key && d.type === flag.type && valueMatchesType(flag.type, d.value)) return d;
  }
  return undefined;
}

/**
 * Evaluates every flag of the snapshot, in configuration order, leaving out unavailable flags.
 * A flag with nothing to serve is included when `declaredDefaults` holds a declaration with its
 * key and type (the first such declaration). Declarations for unknown keys are ignored.
 */
export function evaluateAll(
  snapshot: Snapshot,
  context: Context | null,
  declaredDefaults: readonly DefaultValueDeclaration[] = [],
  options?: EvaluateAllOptions,
): EvaluationOutcome[] {
  const platform = options?.platform ?? 'server';
  const out: EvaluationOutcome[] = [];
  snapshot.nextStamp();
  const flags = snapshot.flagList;
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] as SnapshotFlag;
    if (platform === 'mobile' && !flag.includeInMobile) continue;
    if (platform === 'client' && !flag.includeInClient) continue;
    const result = evaluateCompiled(snapshot, flag, context, undefined);
    if (result !== undefined) {
      out.push(result);
    } else {
      const declared = declarationFor(flag, declaredDefaults);
      if (declared !== undefined) out.push(outcome(flag, declared.value, 'default'));
    }
  }
  return out;
}
