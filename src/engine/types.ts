/**
 * Types of the evaluation engine: its input (EnvironmentConfig, the server-key payload), the
 * evaluation context, declared default values and the evaluation outcome.
 *
 * Field names are snake_case exactly as the public document's EnvironmentConfig, so a payload
 * received over HTTP (or built by the server from the database) is used as is. Inputs are typed
 * with readonly arrays so callers may pass frozen or generated structures.
 */

/** Any JSON value: what a flag value can be. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type FlagType = 'boolean' | 'number' | 'string' | 'json';

export const FLAG_TYPES: readonly FlagType[] = ['boolean', 'number', 'string', 'json'];

export type Selector = 'attribute' | 'context' | 'segment';

export type Comparer =
  | 'equal'
  | 'notequal'
  | 'in'
  | 'notin'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'isnull'
  | 'notnull'
  | 'contains'
  | 'notcontains'
  | 'startswith'
  | 'endswith'
  | 'notstartswith'
  | 'notendswith'
  | 'semver_eq'
  | 'semver_lt'
  | 'semver_gt'
  | 'semver_lte'
  | 'semver_gte'
  | 'before'
  | 'after'
  | 'matches';

export const COMPARERS: readonly Comparer[] = [
  'equal',
  'notequal',
  'in',
  'notin',
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'notnull',
  'contains',
  'notcontains',
  'startswith',
  'endswith',
  'notstartswith',
  'notendswith',
  'semver_eq',
  'semver_lt',
  'semver_gt',
  'semver_lte',
  'semver_gte',
  'before',
  'after',
  'matches',
];

/** How the served value was chosen. `unavailable` is not an outcome: evaluation returns undefined. */
export type ResolvedBy = 'rule' | 'rollout' | 'target' | 'default' | 'prerequisite';

/** One condition of a targeting rule or segment rule. */
export interface CompiledCriterion {
  readonly selector: Selector;
  /** Attribute name (selector attribute) or required context type (selector context). */
  readonly sub_selector: string | null;
  readonly comparer: Comparer;
  readonly values: readonly string[];
}

/** One value of a split and its weight (thousandths of a percent; split.ts). */
export interface CompiledSplitShare {
  /** The value's display form, which names it in results and salts its bucketing. */
  readonly variant: string;
  readonly value: JsonValue;
  readonly weight: number;
}

/** Several values served by weight (split.ts); weights sum to 100000. */
export interface CompiledSplit {
  /** Context attribute to bucket by; null: the context's identifier. */
  readonly attribute: string | null;
  readonly shares: readonly CompiledSplitShare[];
}

/**
 * A targeting rule: served when all its criteria match (AND). With a split, `value` is served
 * only to contexts without the split's bucketing value.
 */
export interface CompiledRule {
  readonly value: JsonValue;
  readonly criteria: readonly CompiledCriterion[];
  readonly split?: CompiledSplit | null;
}

/** A prerequisite of a target: flag `flag_key` must serve a value equal (as JSON) to one of `values`. */
export interface CompiledPrerequisite {
  readonly flag_key: string;
  readonly values: readonly JsonValue[];
}

/** A published target: its rules in position order and its base (fallthrough) value or split. */
export interface CompiledTarget {
  readonly value: JsonValue;
  readonly rules: readonly CompiledRule[];
  readonly split?: CompiledSplit | null;
  /** Checked in order before the rules; absent or empty: none. */
  readonly prerequisites?: readonly CompiledPrerequisite[];
}

export interface CompiledFlag {
  readonly key: string;
  readonly name: string;
  readonly type: FlagType;
  readonly include_in_mobile: boolean;
  readonly include_in_client: boolean;
  /** The flag's default value; null when the flag has no values. */
  readonly default: { readonly value: JsonValue } | null;
  /** Newest published target. */
  readonly serving: CompiledTarget | null;
  /** The published target before `serving`; only set while `rollout` is set. */
  readonly previous: CompiledTarget | null;
  /** Set while the serving target's rollout is active or paused (not completed). */
  readonly rollout: { readonly percentage: number } | null;
}

export interface CompiledSegmentRule {
  readonly criteria: readonly CompiledCriterion[];
}

export interface CompiledSegment {
  readonly key: string;
  readonly included: readonly string[];
  readonly excluded: readonly string[];
  readonly rules: readonly CompiledSegmentRule[];
}

/** Engine input: one environment's compiled configuration (the server-key payload's `config`). */
export interface EnvironmentConfig {
  readonly revision: number;
  readonly flags: readonly CompiledFlag[];
  readonly segments: readonly CompiledSegment[];
}

export interface ContextAttributeValue {
  readonly value: string;
}

export interface ContextAttribute {
  readonly key: string;
  readonly values: readonly ContextAttributeValue[];
}

/** The actor a flag is evaluated for (specs/public.yaml, schema Context). */
export interface Context {
  readonly type: string;
  readonly identifier: string;
  readonly name?: string;
  readonly attributes?: readonly ContextAttribute[];
}

/** What the application serves when a flag is unavailable (public default-values header). */
export interface DefaultValueDeclaration {
  readonly key: string;
  readonly type: FlagType;
  readonly value: JsonValue;
}

/** Which split served a value, and the value's share of it. */
export interface EvaluationSplit {
  /** Position of the rule whose split served, among the target's rules; null: the target's base split. */
  readonly rule: number | null;
  /** The served value's display form. */
  readonly variant: string;
  /** The served value's weight, in thousandths of a percent (100000 = 100 %). */
  readonly weight: number;
}

export interface EvaluationOutcome {
  readonly key: string;
  readonly name: string;
  readonly type: FlagType;
  readonly value: JsonValue;
  readonly resolved_by: ResolvedBy;
  /** Set only when a split chose the value. */
  readonly split?: EvaluationSplit;
}
