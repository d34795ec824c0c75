/** Building evaluation details: reasons from resolved_by, error details with the caller's default. */
import type { EvaluationDetails, EvaluationErrorCode, EvaluationSplit, FlagType, JsonValue, Reason, ResolvedBy } from './types.js';

/** resolved_by as an OpenFeature reason (the mapping the OFREP endpoints use too). */
export const REASON_BY_RESOLUTION: Readonly<Record<ResolvedBy, Reason>> = {
  rule: 'TARGETING_MATCH',
  rollout: 'SPLIT',
  target: 'STATIC',
  default: 'DEFAULT',
  prerequisite: 'PREREQUISITE_FAILED',
};

export function reasonFor(resolvedBy: ResolvedBy): Reason {
  return REASON_BY_RESOLUTION[resolvedBy] ?? 'DEFAULT';
}

/** The details of a served value: a split's outcome carries it, with the reason SPLIT. */
export function servedDetails<T>(
  key: string,
  served: { value: JsonValue; resolved_by: ResolvedBy; type: FlagType; split?: EvaluationSplit },
  revision: number | null,
): EvaluationDetails<T> {
  const base = { key, value: served.value as T, resolvedBy: served.resolved_by, flagType: served.type, revision };
  if (served.split !== undefined) return { ...base, reason: 'SPLIT', split: served.split };
  return { ...base, reason: reasonFor(served.resolved_by) };
}

export function errorMessage(code: EvaluationErrorCode, key: string, wanted: FlagType, actual?: FlagType, cause?: string): string {
  switch (code) {
    case 'PROVIDER_NOT_READY':
      // Say what happened when something did (a refused key is not an unreachable service).
      return cause ? `No payload yet: ${cause}` : 'No payload yet: the service has not answered yet and there is no bootstrap.';
    case 'FLAG_NOT_FOUND':
      return `Flag "${key}" is not in the payload.`;
    case 'TYPE_MISMATCH':
      return `Flag "${key}" is of type ${actual ?? 'unknown'}, not ${wanted}.`;
    case 'INVALID_CONTEXT':
      return 'The context is invalid: it needs a non-empty string type and identifier, and string attribute values.';
    case 'TARGETING_KEY_MISSING':
      return 'The context has attributes but no targetingKey.';
    case 'GENERAL':
      return `Flag "${key}" could not be evaluated.`;
  }
}

export function errorDetails<T>(
  key: string,
  value: T,
  code: EvaluationErrorCode,
  wanted: FlagType,
  revision: number | null,
  actual?: FlagType,
  /** What went wrong last when reaching the service, for PROVIDER_NOT_READY. */
  cause?: string,
): EvaluationDetails<T> {
  const details: { -readonly [K in keyof EvaluationDetails<T>]: EvaluationDetails<T>[K] } = {
    key,
    value,
    resolvedBy: null,
    reason: 'ERROR',
    errorCode: code,
    errorMessage: errorMessage(code, key, wanted, actual, cause),
    revision,
  };
  if (actual !== undefined) details.flagType = actual;
  return details;
}
