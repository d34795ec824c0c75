import type { components } from '../../../generated/public.js';
import type { PublicPrincipal } from '../../auth/principal.js';
import { isoOf, type Clock } from '../../clock.js';
import {
  evaluateAll,
  evaluateFlag,
  invalidAttributeCounts,
  type Context,
  type DefaultValueDeclaration,
  type EvaluationOutcome,
  type EvaluationSplit,
  type FlagType,
  type JsonValue,
  type ResolvedBy,
} from '../../engine/index.js';
import { explainFlag, type Explanation } from '../../engine/explain.js';
import type { JsonText } from '../../http/json-text.js';
import { NotFoundError, OfrepError, UnauthorizedError, publicMessages } from '../../http/errors.js';
import { digestParts, entityTag, ifNoneMatchMatches } from '../../runtime/etag.js';
import type { EnvironmentSnapshot, SnapshotCache } from '../../runtime/snapshot-cache.js';
import { hourOf, type Platform, type TelemetryBuffer } from '../../runtime/telemetry-buffer.js';
import { contextHash, ExposureBuffer } from '../../runtime/exposure-buffer.js';
import { newEvaluationCounts, type EvaluationCounts } from '../../observability/metrics.js';
import { evaluatedFlagJson, evaluatedListJson } from './evaluated-json.js';
import { repeatedList, RepeatedLists, type RepeatedList } from './repeated-lists.js';

type PublicSchemas = components['schemas'];
type EvaluatedListBody = JsonText<PublicSchemas['EvaluatedFlagListResponse'], Buffer>;

/** Attribute values the engine could not read as a version or a date, since start (typed-comparers.ts). */
function invalidAttributeTotal(): number {
  const counts = invalidAttributeCounts();
  return counts.version + counts.date;
}

export interface OfrepSuccess {
  key: string;
  reason: 'TARGETING_MATCH' | 'SPLIT' | 'STATIC' | 'PREREQUISITE_FAILED';
  variant: string;
  value: JsonValue;
  metadata: { resolved_by: ResolvedBy; type: FlagType; revision: number; split_weight?: number };
}

export interface OfrepItemFailure {
  key: string;
  errorCode: 'GENERAL';
  errorDetails: string;
}

/** What a payload request answers: 304 (notModified) or the body, with its ETag either way. */
export type PayloadResult =
  | { notModified: true; etag: string }
  | { notModified: false; etag: string; json?: string; body?: PublicSchemas['PayloadResponse'] };

export interface ManagementEvaluation {
  key: string;
  name: string;
  type: FlagType;
  value: JsonValue;
  resolved_by: ResolvedBy | 'unavailable';
  /** Present only when a split chose the value. */
  split?: EvaluationSplit;
  /** Why, as the engine retraced it (explain.ts); undefined when the flag is not in the snapshot. */
  why: Explanation | undefined;
}

/**
 * OFREP reasons (the protocol's enum has no DEFAULT): a flag without a published target serves
 * its default value without any evaluation, which is STATIC; metadata.resolved_by tells them apart.
 */
const reasons: Record<ResolvedBy, OfrepSuccess['reason']> = {
  rule: 'TARGETING_MATCH',
  rollout: 'SPLIT',
  target: 'STATIC',
  default: 'STATIC',
  prerequisite: 'PREREQUISITE_FAILED',
};

/** OFREP `variant`: the value in display form (a split's own variant when a split chose it). */
export function variantOf(outcome: EvaluationOutcome): string {
  if (outcome.split !== undefined) return outcome.split.variant;
  switch (outcome.type) {
    case 'boolean':
      return outcome.value === true ? 'true' : 'false';
    case 'string':
      return typeof outcome.value === 'string' ? outcome.value : JSON.stringify(outcome.value);
    default:
      return JSON.stringify(outcome.value);
  }
}

export function toOfrepSuccess(outcome: EvaluationOutcome, revision: number): OfrepSuccess {
  const split = outcome.split;
  return {
    key: outcome.key,
    reason: split !== undefined ? 'SPLIT' : reasons[outcome.resolved_by],
    variant: variantOf(outcome),
    value: outcome.value,
    metadata:
      split !== undefined
        ? { resolved_by: outcome.resolved_by, type: outcome.type, revision, split_weight: split.weight }
        : { resolved_by: outcome.resolved_by, type: outcome.type, revision },
  };
}

export function platformOf(principal: PublicPrincipal): Platform {
  return principal.kind;
}

function visibleOn(platform: Platform, flag: { include_in_mobile: boolean; include_in_client: boolean }): boolean {
  if (platform === 'mobile') return flag.include_in_mobile;
  if (platform === 'client') return flag.include_in_client;
  return true;
}

/** The keys of the flags a platform's payload holds, one frozen list per snapshot and platform (telemetry counts by the list). */
const visibleKeys = new WeakMap<EnvironmentSnapshot, Map<Platform, readonly string[]>>();

function visibleKeysOf(entry: EnvironmentSnapshot, platform: Platform): readonly string[] {
  let byPlatform = visibleKeys.get(entry);
  if (!byPlatform) visibleKeys.set(entry, (byPlatform = new Map()));
  let keys = byPlatform.get(platform);
  if (!keys) {
    keys = Object.freeze(entry.config.flags.filter((f) => visibleOn(platform, f)).map((f) => f.key));
    byPlatform.set(platform, keys);
  }
  return keys;
}

/** What EvaluationService is built from. */
export interface EvaluationServiceDeps {
  cache: SnapshotCache;
  telemetry: TelemetryBuffer;
  clock: Clock;
  /** Evaluations served, by reason (read by /metrics): plain increments on the serving path. Default: counts no one reads. */
  evaluations?: EvaluationCounts;
  /** Exposure counts of splits: which contexts received which variant (in memory, flushed in the background). */
  exposures?: ExposureBuffer;
}

/**
 * The serving path: every operation reads the environment's snapshot from memory (the snapshot
 * cache), evaluates with the shared engine, and adds telemetry to the in-memory buffer.
 */
export class EvaluationService {
  // The parts as fields of their own: the serving path reads them on every evaluation.
  private readonly cache: SnapshotCache;
  private readonly telemetry: TelemetryBuffer;
  private readonly clock: Clock;
  private readonly evaluations: EvaluationCounts;
  private readonly exposures: ExposureBuffer;
  private readonly lists = new RepeatedLists<EvaluatedListBody>();

  constructor(deps: EvaluationServiceDeps) {
    this.cache = deps.cache;
    this.telemetry = deps.telemetry;
    this.clock = deps.clock;
    this.evaluations = deps.evaluations ?? newEvaluationCounts();
    this.exposures = deps.exposures ?? new ExposureBuffer();
  }

  /** Records the contexts that received a split's variant (outcomes without a split are skipped). */
  private expose(entry: EnvironmentSnapshot, context: Context | null, outcomes: readonly EvaluationOutcome[], at: string): void {
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
  private served(entry: EnvironmentSnapshot, outcomes: readonly EvaluationOutcome[], at: string): void {
    this.telemetry.recordServedOutcomes(entry.environmentUlid, entry.flagUlids, outcomes, hourOf(at));
  }

  private count(outcomes: readonly EvaluationOutcome[]): void {
    for (let i = 0; i < outcomes.length; i++) this.evaluations[outcomes[i]!.resolved_by]++;
  }

  /** The key's environment if it is in memory now (else `environment` loads it). */
  heldEnvironment(principal: PublicPrincipal): EnvironmentSnapshot | undefined {
    return this.cache.get(principal.environmentUlid);
  }

  /** The key's environment (from memory; an environment created moments ago is loaded once). */
  async environment(principal: PublicPrincipal): Promise<EnvironmentSnapshot> {
    const entry = this.heldEnvironment(principal) ?? (await this.cache.getOrLoad(principal.environmentUlid));
    // The key outlived its environment (deleted moments ago): the key is no longer valid.
    if (!entry) throw new UnauthorizedError(publicMessages.invalidKey, 'auth.invalid_token');
    return entry;
  }

  private now(): string {
    return isoOf(this.clock.now());
  }

  private observe(entry: EnvironmentSnapshot, context: Context | null, at: string): void {
    if (context) this.telemetry.recordContext(entry.environmentUlid, context, at);
  }

  /** Default-value reports: requested flags without a declaration, declarations for unknown keys. */
  private reportDefaults(
    entry: EnvironmentSnapshot,
    requestedKeys: Iterable<string>,
    declarations: readonly DefaultValueDeclaration[],
    at: string,
  ): void {
    if (declarations.length === 0) {
      for (const key of requestedKeys) this.telemetry.recordDefaultReport(entry.environmentUlid, 'missing_default', key, null, at);
      return;
    }
    const declared = new Set(declarations.map((d) => d.key));
    for (const key of requestedKeys) {
      if (!declared.has(key)) this.telemetry.recordDefaultReport(entry.environmentUlid, 'missing_default', key, null, at);
    }
    const reported = new Set<string>();
    for (const d of declarations) {
      if (entry.snapshot.has(d.key) || reported.has(d.key)) continue;
      reported.add(d.key);
      this.telemetry.recordDefaultReport(entry.environmentUlid, 'unknown_flag', d.key, d.type, at);
    }
  }

  /**
   * GET /v1/flags: every flag, ordered by key; unavailable flags only with a declared default.
   * Answers the response body as UTF-8 JSON bytes (evaluated-json.ts).
   */
  async listEvaluated(
    principal: PublicPrincipal,
    context: Context | null,
    declarations: readonly DefaultValueDeclaration[],
  ): Promise<EvaluatedListBody> {
    const entry = await this.environment(principal);
    const at = this.now();
    this.telemetry.recordWholeEnvironment(entry.environmentUlid, 'server', 'evaluated', at);
    this.observe(entry, context, at);
    if (declarations.length === 0) {
      // Without declarations every flag lacks one: one count for the snapshot's whole key list.
      this.telemetry.recordMissingDefaults(entry.environmentUlid, entry.snapshot.keyList, at);
      const list = this.repeatedList(entry, context);
      for (const [reason, count] of list.byReason) this.evaluations[reason] += count;
      this.expose(entry, context, list.splits, at);
      if (list.kept) {
        list.served = this.telemetry.recordServedRepeated(entry.environmentUlid, entry.flagUlids, list.outcomes, hourOf(at), list.served);
      } else this.served(entry, list.outcomes, at);
      return list.body;
    }
    const outcomes = evaluateAll(entry.snapshot, context, declarations);
    this.count(outcomes);
    this.reportDefaults(entry, entry.snapshot.keyList, declarations, at);
    this.expose(entry, context, outcomes, at);
    this.served(entry, outcomes, at);
    return evaluatedListJson(entry.snapshot, outcomes);
  }

  /** Every flag evaluated for `context` (no declarations), kept for the snapshot when it may be (repeated-lists.ts). */
  private repeatedList(entry: EnvironmentSnapshot, context: Context | null): RepeatedList<EvaluatedListBody> {
    const keeps = RepeatedLists.keeps(context);
    const kept = keeps ? this.lists.get(entry.environmentUlid, entry.snapshot, context) : undefined;
    if (kept !== undefined) return kept;
    const unreadableBefore = invalidAttributeTotal();
    const outcomes = evaluateAll(entry.snapshot, context, []);
    const body = evaluatedListJson(entry.snapshot, outcomes);
    // An answer that met unreadable attribute values is not kept: each request counts them again.
    if (keeps && invalidAttributeTotal() === unreadableBefore)
      return this.lists.keep(entry.environmentUlid, entry.snapshot, context, outcomes, body);
    return repeatedList(outcomes, body);
  }

  /**
   * GET /v1/flags/{flagKey}: 404 for an unknown key and for an unavailable flag without a
   * declared default. Answers the response body as JSON text.
   */
  async getEvaluated(
    principal: PublicPrincipal,
    flagKey: string,
    context: Context | null,
    declarations: readonly DefaultValueDeclaration[],
  ): Promise<JsonText<PublicSchemas['EvaluatedFlagResponse']>> {
    const entry = await this.environment(principal);
    const info = entry.snapshot.flag(flagKey);
    const declaration = info && declarations.find((d) => d.key === flagKey && d.type === info.type);
    const outcome = info ? evaluateFlag(entry.snapshot, flagKey, context, declaration) : undefined;
    if (outcome) this.evaluations[outcome.resolved_by]++;
    const at = this.now();
    const flagUlid = entry.flagUlids.get(flagKey);
    if (info && flagUlid) this.telemetry.recordFlag(entry.environmentUlid, flagUlid, 'evaluated', 1, at);
    this.reportDefaults(entry, info ? [flagKey] : [], declarations, at);
    this.observe(entry, context, at);
    if (!outcome) throw new NotFoundError(publicMessages.flagNotFound);
    this.expose(entry, context, [outcome], at);
    this.served(entry, [outcome], at);
    return evaluatedFlagJson(entry.snapshot, outcome);
  }

  /** POST /v1/flags/{flagKey}/usage: "Flag used", `count` times. */
  async recordUsage(
    principal: PublicPrincipal,
    flagKey: string,
    count: number,
    context: Context | null,
    exposed: readonly Context[] = [],
  ): Promise<void> {
    const entry = await this.environment(principal);
    const flagUlid = entry.flagUlids.get(flagKey);
    if (!flagUlid || !entry.snapshot.has(flagKey)) throw new NotFoundError(publicMessages.flagNotFound);
    const at = this.now();
    this.telemetry.recordFlag(entry.environmentUlid, flagUlid, 'used', count, at);
    this.observe(entry, context, at);
    // The SDK evaluated locally: which variant its contexts got is evaluated again here, in memory.
    for (const used of context === null ? exposed : [context, ...exposed]) {
      const outcome = evaluateFlag(entry.snapshot, flagKey, used);
      if (outcome !== undefined) this.expose(entry, used, [outcome], at);
    }
  }

  /** The ETag GET /v1/payload (and the stream) announces for this key, context and defaults. */
  payloadEtag(
    entry: EnvironmentSnapshot,
    platform: Platform,
    context: Context | null,
    declarations: readonly DefaultValueDeclaration[],
  ): string {
    if (platform === 'server') return entry.serverEtag;
    const digest = digestParts(entry.configDigest, platform, JSON.stringify(context), JSON.stringify(declarations));
    return entityTag(platform === 'mobile' ? 'mob' : 'cli', entry.revision, digest);
  }

  /** GET /v1/payload. */
  async payload(
    principal: PublicPrincipal,
    context: Context | null,
    declarations: readonly DefaultValueDeclaration[],
    ifNoneMatch: string | string[] | undefined,
  ): Promise<PayloadResult> {
    const entry = await this.environment(principal);
    const platform = platformOf(principal);
    const etag = this.payloadEtag(entry, platform, context, declarations);
    if (ifNoneMatchMatches(ifNoneMatch, etag)) return { notModified: true, etag };
    const at = this.now();
    this.telemetry.recordWholeEnvironment(entry.environmentUlid, platform, 'retrieved', at);
    if (platform === 'server') return { notModified: false, etag, json: entry.serverPayloadJson };

    const outcomes = evaluateAll(entry.snapshot, context, declarations, { platform });
    this.count(outcomes);
    const requested = visibleKeysOf(entry, platform);
    if (declarations.length === 0) this.telemetry.recordMissingDefaults(entry.environmentUlid, requested, at);
    else this.reportDefaults(entry, requested, declarations, at);
    this.observe(entry, context, at);
    this.expose(entry, context, outcomes, at);
    this.served(entry, outcomes, at);
    return {
      notModified: false,
      etag,
      body: {
        status: 'success',
        data: {
          kind: 'client',
          etag,
          revision: entry.revision,
          environment: { ulid: entry.environmentUlid, key: entry.environmentKey },
          flags: outcomes.map((o) =>
            o.split === undefined
              ? { key: o.key, name: o.name, type: o.type, value: o.value, resolved_by: o.resolved_by }
              : { key: o.key, name: o.name, type: o.type, value: o.value, resolved_by: o.resolved_by, split: o.split },
          ),
        },
      },
    };
  }

  /** POST /ofrep/v1/evaluate/flags/{key}. */
  async ofrepEvaluate(principal: PublicPrincipal, flagKey: string, context: Context | null): Promise<OfrepSuccess> {
    const entry = await this.environment(principal);
    const platform = platformOf(principal);
    const info = entry.snapshot.flag(flagKey);
    const visible = info !== undefined && visibleOn(platform, info);
    const outcome = visible ? evaluateFlag(entry.snapshot, flagKey, context) : undefined;
    if (outcome) this.evaluations[outcome.resolved_by]++;
    const at = this.now();
    const flagUlid = entry.flagUlids.get(flagKey);
    if (visible && flagUlid) this.telemetry.recordFlag(entry.environmentUlid, flagUlid, 'evaluated', 1, at);
    this.observe(entry, context, at);
    if (!outcome) throw new OfrepError(404, 'FLAG_NOT_FOUND', publicMessages.flagNotFound, flagKey);
    this.expose(entry, context, [outcome], at);
    this.served(entry, [outcome], at);
    return toOfrepSuccess(outcome, entry.flagRevision(outcome.key));
  }

  /** POST /ofrep/v1/evaluate/flags. */
  async ofrepEvaluateAll(
    principal: PublicPrincipal,
    context: Context | null,
    ifNoneMatch: string | string[] | undefined,
  ): Promise<{ notModified: true; etag: string } | { notModified: false; etag: string; flags: Array<OfrepSuccess | OfrepItemFailure> }> {
    const entry = await this.environment(principal);
    const platform = platformOf(principal);
    const etag = entityTag('ofrep', entry.revision, digestParts(entry.configDigest, platform, JSON.stringify(context)));
    // `*` does not match: the ETag is per context, so `*` cannot say the client holds this one.
    if (ifNoneMatchMatches(ifNoneMatch, etag, false)) return { notModified: true, etag };
    const flags: Array<OfrepSuccess | OfrepItemFailure> = [];
    const served: EvaluationOutcome[] = [];
    try {
      for (const outcome of evaluateAll(entry.snapshot, context, [], { platform })) {
        flags.push(toOfrepSuccess(outcome, entry.flagRevision(outcome.key)));
        served.push(outcome);
      }
    } catch {
      served.length = 0;
      // Should the engine fail on one flag, report that flag and evaluate the others one by one.
      flags.length = 0;
      for (const info of entry.snapshot.flags()) {
        if (!visibleOn(platform, info)) continue;
        try {
          const outcome = evaluateFlag(entry.snapshot, info.key, context);
          if (outcome) {
            flags.push(toOfrepSuccess(outcome, entry.flagRevision(outcome.key)));
            served.push(outcome);
          }
        } catch {
          flags.push({ key: info.key, errorCode: 'GENERAL', errorDetails: 'The flag could not be evaluated.' });
        }
      }
    }
    for (const flag of flags) if ('metadata' in flag) this.evaluations[flag.metadata.resolved_by]++;
    const at = this.now();
    this.telemetry.recordWholeEnvironment(entry.environmentUlid, platform, 'evaluated', at);
    this.observe(entry, context, at);
    this.expose(entry, context, served, at);
    this.served(entry, served, at);
    return { notModified: false, etag, flags };
  }

  /**
   * Management preview (evaluateFlag): the same engine on the snapshot at the database's current
   * revision, so a change just made is reflected. Not counted in telemetry.
   */
  async evaluateForManagement(
    environmentUlid: string,
    flag: { key: string; name: string; type: FlagType },
    context: Context | null,
  ): Promise<ManagementEvaluation> {
    const entry = await this.cache.getFresh(environmentUlid);
    const outcome = entry ? evaluateFlag(entry.snapshot, flag.key, context) : undefined;
    // Only this preview explains itself: the serving path never pays for it.
    const why = entry ? explainFlag(entry.snapshot, flag.key, context) : undefined;
    if (!outcome) return { key: flag.key, name: flag.name, type: flag.type, value: null, resolved_by: 'unavailable', why };
    const { key, name, type, value, resolved_by, split } = outcome;
    // `split` only when a split chose the value, so other answers read as before.
    return split === undefined ? { key, name, type, value, resolved_by, why } : { key, name, type, value, resolved_by, split, why };
  }

  /** Flag ulids of an environment visible on a platform (expands whole-environment telemetry). */
  flagUlidsFor(environmentUlid: string, platform: Platform): string[] {
    const entry = this.cache.get(environmentUlid);
    if (!entry) return [];
    const out: string[] = [];
    for (const flag of entry.config.flags) {
      if (!visibleOn(platform, flag)) continue;
      const ulid = entry.flagUlids.get(flag.key);
      if (ulid) out.push(ulid);
    }
    return out;
  }
}
