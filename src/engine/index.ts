/**
 * Vexil evaluation engine: a pure module (no I/O, no Node built-ins, no dependencies) shared by
 * the server and the SDKs. Runs in browsers and in Node 20.
 *
 *   const snapshot = compileSnapshot(config);            // once per configuration revision
 *   const parsed = parseContext(JSON.parse(header));      // validate request input
 *   evaluateFlag(snapshot, 'my-flag', parsed.context);     // -> EvaluationOutcome | undefined
 */
export type {
  Comparer,
  CompiledCriterion,
  CompiledFlag,
  CompiledPrerequisite,
  CompiledRule,
  CompiledSegment,
  CompiledSegmentRule,
  CompiledSplit,
  CompiledSplitShare,
  CompiledTarget,
  Context,
  ContextAttribute,
  ContextAttributeValue,
  DefaultValueDeclaration,
  EnvironmentConfig,
  EvaluationOutcome,
  EvaluationSplit,
  FlagType,
  JsonValue,
  ResolvedBy,
  Selector,
} from './types.js';
export { COMPARERS, FLAG_TYPES } from './types.js';
export { murmur3, murmur3Bytes, murmur3Continue, murmur3Prefix, type Murmur3State } from './murmur3.js';
export { BUCKET_COUNT, bucketOf, inRollout } from './bucket.js';
export { parseNumeric } from './numeric.js';
export { SPLIT_WEIGHT_TOTAL } from './split.js';
export { compareVersions, parseVersion, VERSION_MAX_LENGTH, type Version } from './semver.js';
export { compareInstants, parseInstant, type Instant } from './instant.js';
export { compileRegex, LinearRegex, PATTERN_MAX_LENGTH, type CompileRegexResult } from './linear-regex.js';
export { invalidAttributeCounts, typedValueProblem } from './typed-comparers.js';
export {
  CONTEXT_IDENTIFIER_MAX_LENGTH,
  CONTEXT_TYPE_MAX_LENGTH,
  DECLARED_JSON_MAX_DEPTH,
  isJsonValue,
  parseContext,
  parseDefaultValues,
  valueMatchesType,
  type ParseContextResult,
  type ParseDefaultValuesResult,
} from './context.js';
export { compileSnapshot, Snapshot, updateSnapshot, type FlagInfo } from './snapshot.js';
export { evaluateAll, evaluateFlag, type EvaluateAllOptions, type Platform } from './evaluate.js';
