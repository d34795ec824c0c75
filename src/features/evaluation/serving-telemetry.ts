import type { Context, DefaultValueDeclaration, EvaluationOutcome } from '../../engine/index.js';
import { newEvaluationCounts, type EvaluationCounts } from '../../observability/metrics.js';
import { contextHash, ExposureBuffer } from '../../runtime/exposure-buffer.js';
import type { EnvironmentSnapshot } from '../../runtime/snapshot-cache.js';
import { hourOf, type TelemetryBuffer } from '../../runtime/telemetry-buffer.js';
import type { RepeatedList } from './repeated-lists.js';

/** What ServingTelemetry records into. */
export interface ServingTelemetryDeps {
  telemetry: TelemetryBuffer;
  /** Evaluations served, by reason (read by /metrics): plain increments on the serving path. Default: counts no one reads. */
  evaluations?: EvaluationCounts;
  /** Exposure counts of splits: which contexts received which variant (in memory, flushed in the background). */
  exposures?: ExposureBuffer;
}

/**
 * What the public evaluations record of what they served, all in memory (written in the
 * background): the evaluation counts by reason, the telemetry buffer's events, default-value
 * reports and observed contexts, the hourly counts per value, and the exposures of splits.
 */
export class ServingTelemetry {
  // The parts as fields of their own: the serving path reads them on every evaluation.
  readonly telemetry: TelemetryBuffer;
  private readonly evaluations: EvaluationCounts;
  private readonly exposures: ExposureBuffer;

  constructor(deps: ServingTelemetryDeps) {
    this.telemetry = deps.telemetry;
    this.evaluations = deps.evaluations ?? newEvaluationCounts();
    this.exposures = deps.exposures ?? new ExposureBuffer();
  }

  /** Records the contexts that received a split's variant (outcomes without a split are skipped). */
  expose(entry: EnvironmentSnapshot, context: Context | null, outcomes: readonly EvaluationOutcome[], at: string): void {
    if (context === null) return;
    let hash: number | undefined;
    for (let i = 0; i < outcomes.length; i++) {
      const outcome = outcomes[i] as EvaluationOutcome;
      if (outcome.split === undefined) continue;
      const flagUlid = entry.flagUlids.get(outcome.key);
      if (flagUlid === undefined) continue;
      hash ??= contextHash(context.type, context.identifier);
      this.exposures.record(entry.environmentUlid, flagUlid, outcome.split.variant, hash, at);
    }
  }

  /** Hourly counts of what was served, per flag and value (display form), for the evaluations chart. */
  served(entry: EnvironmentSnapshot, outcomes: readonly EvaluationOutcome[], at: string): void {
    this.telemetry.recordServedOutcomes(entry.environmentUlid, entry.flagUlids, outcomes, hourOf(at));
  }

  /** One evaluation resolved by `outcome`'s reason. */
  countOne(outcome: EvaluationOutcome): void {
    this.evaluations[outcome.resolved_by]++;
  }

  count(outcomes: readonly EvaluationOutcome[]): void {
    for (let i = 0; i < outcomes.length; i++) this.evaluations[outcomes[i]!.resolved_by]++;
  }

  /** The context's type, attributes and values, when one was sent. */
  observe(entry: EnvironmentSnapshot, context: Context | null, at: string): void {
    if (context) this.telemetry.recordContext(entry.environmentUlid, context, at);
  }

  /** Default-value reports: requested flags without a declaration, declarations for unknown keys. */
  reportDefaults(
    entry: EnvironmentSnapshot,
    requestedKeys: Iterable<string>,
    declarations: readonly DefaultValueDeclaration[],
    at: string,
  ): void {
    const telemetry = this.telemetry;
    if (declarations.length === 0) {
      for (const key of requestedKeys) telemetry.recordDefaultReport(entry.environmentUlid, 'missing_default', key, null, at);
      return;
    }
    const declared = new Set(declarations.map((d) => d.key));
    for (const key of requestedKeys) {
      if (!declared.has(key)) telemetry.recordDefaultReport(entry.environmentUlid, 'missing_default', key, null, at);
    }
    const reported = new Set<string>();
    for (const d of declarations) {
      if (entry.snapshot.has(d.key) || reported.has(d.key)) continue;
      reported.add(d.key);
      telemetry.recordDefaultReport(entry.environmentUlid, 'unknown_flag', d.key, d.type, at);
    }
  }

  /**
   * Everything a whole-environment answer without declarations records, through what its list
   * (kept or not) worked out once: counts by reason, the exposures of its splits, the served
   * values (a kept list through its plan in the telemetry tally), and one missing-default count
   * for the whole list of `requested` keys (OFREP has no default values: none).
   */
  servedList<Body>(
    entry: EnvironmentSnapshot,
    context: Context | null,
    list: RepeatedList<Body>,
    requested: readonly string[] | undefined,
    at: string,
  ): void {
    if (requested !== undefined) this.telemetry.recordMissingDefaults(entry.environmentUlid, requested, at);
    this.observe(entry, context, at);
    for (const [reason, count] of list.byReason) this.evaluations[reason] += count;
    this.expose(entry, context, list.splits, at);
    if (list.kept) {
      list.served = this.telemetry.recordServedRepeated(entry.environmentUlid, entry.flagUlids, list.outcomes, hourOf(at), list.served);
    } else this.served(entry, list.outcomes, at);
  }
}
