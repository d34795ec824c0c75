import type { components } from '../../../generated/public.js';
import type { PublicPrincipal } from '../../auth/principal.js';
import { isoOf, type Clock } from '../../clock.js';
import {
  evaluateAll,
  evaluateFlag,
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
import { NotFoundError, publicMessages } from '../../http/errors.js';
import { digestParts, entityTag, ifNoneMatchMatches } from '../../runtime/etag.js';
import type { EnvironmentSnapshot, SnapshotCache } from '../../runtime/snapshot-cache.js';
import type { Platform } from '../../runtime/telemetry-buffer.js';
import { evaluatedFlagJson, evaluatedListJson } from './evaluated-json.js';
import { KeyEnvironments } from './key-environments.js';
import { clientPayloadJson, type PayloadBody } from './payload-json.js';
import {
  evaluatedList,
  RepeatedLists,
  REPEATED_LIST_BUDGET_BYTES,
  REPEATED_LIST_MAX_LISTS,
  taggedBody,
  type RepeatedList,
  type TaggedBody,
} from './repeated-lists.js';
import { ServingTelemetry, type ServingTelemetryDeps } from './serving-telemetry.js';
import { platformOf, visibleKeysOf, visibleOn } from './visible-flags.js';

type PublicSchemas = components['schemas'];
type EvaluatedListBody = JsonText<PublicSchemas['EvaluatedFlagListResponse'], Buffer>;

/** What a payload request answers: 304 (notModified) or the body, with its ETag either way. */
export type PayloadResult =
  | { notModified: true; etag: string }
  | { notModified: false; etag: string; json: string; bytes?: undefined }
  | { notModified: false; etag: string; bytes: PayloadBody };

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

/** What EvaluationService is built from (OfrepService is built from the same deps). */
export interface EvaluationServiceDeps extends ServingTelemetryDeps {
  cache: SnapshotCache;
  clock: Clock;
}

/** Bytes and lists kept per kind of answer (GET /v1/flags keeps the whole budget; payloads a quarter each). */
const payloadLists = () => new RepeatedLists<TaggedBody<PayloadBody>>(REPEATED_LIST_BUDGET_BYTES / 4, REPEATED_LIST_MAX_LISTS / 4);

/**
 * The serving path: every operation reads the environment's snapshot from memory (the snapshot
 * cache), evaluates with the shared engine, and records what it served (serving-telemetry.ts).
 * Whole-environment answers for a context asked for again on the same snapshot are kept and
 * sent again (repeated-lists.ts): GET /v1/flags, and the client and mobile payloads.
 */
export class EvaluationService {
  // The parts as fields of their own: the serving path reads them on every evaluation.
  private readonly cache: SnapshotCache;
  private readonly environments: KeyEnvironments;
  private readonly records: ServingTelemetry;
  private readonly clock: Clock;
  private readonly lists = new RepeatedLists<EvaluatedListBody>();
  private readonly payloads: Record<Exclude<Platform, 'server'>, RepeatedLists<TaggedBody<PayloadBody>>> = {
    client: payloadLists(),
    mobile: payloadLists(),
  };

  constructor(deps: EvaluationServiceDeps) {
    this.cache = deps.cache;
    this.environments = new KeyEnvironments(deps.cache);
    this.records = new ServingTelemetry(deps);
    this.clock = deps.clock;
  }

  /** The key's environment if it is in memory now (else `environment` loads it). */
  heldEnvironment(principal: PublicPrincipal): EnvironmentSnapshot | undefined {
    return this.environments.held(principal);
  }

  /** The key's environment (from memory; an environment created moments ago is loaded once). */
  environment(principal: PublicPrincipal): Promise<EnvironmentSnapshot> {
    return this.environments.of(principal);
  }

  private now(): string {
    return isoOf(this.clock.now());
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
    const entry = await this.environments.of(principal);
    const at = this.now();
    this.records.telemetry.recordWholeEnvironment(entry.environmentUlid, 'server', 'evaluated', at);
    if (declarations.length === 0) {
      // Without declarations every flag lacks one: one count for the snapshot's whole key list.
      const list = this.repeatedList(entry, context);
      this.records.servedList(entry, context, list, entry.snapshot.keyList, at);
      return list.body;
    }
    const outcomes = evaluateAll(entry.snapshot, context, declarations);
    this.records.count(outcomes);
    this.records.reportDefaults(entry, entry.snapshot.keyList, declarations, at);
    this.records.observe(entry, context, at);
    this.records.expose(entry, context, outcomes, at);
    this.records.served(entry, outcomes, at);
    return evaluatedListJson(entry.snapshot, outcomes);
  }

  /** Every flag evaluated for `context` (no declarations), kept for the snapshot when it may be (repeated-lists.ts). */
  private repeatedList(entry: EnvironmentSnapshot, context: Context | null): RepeatedList<EvaluatedListBody> {
    const keeps = RepeatedLists.keeps(context);
    const kept = keeps ? this.lists.get(entry.environmentUlid, entry.snapshot, context) : undefined;
    return (
      kept ??
      evaluatedList(
        this.lists,
        entry,
        context,
        keeps,
        () => evaluateAll(entry.snapshot, context, []),
        (outcomes) => evaluatedListJson(entry.snapshot, outcomes),
      )
    );
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
    const entry = await this.environments.of(principal);
    const info = entry.snapshot.flag(flagKey);
    const declaration = info && declarations.find((d) => d.key === flagKey && d.type === info.type);
    const outcome = info ? evaluateFlag(entry.snapshot, flagKey, context, declaration) : undefined;
    if (outcome) this.records.countOne(outcome);
    const at = this.now();
    const flagUlid = entry.flagUlids.get(flagKey);
    if (info && flagUlid) this.records.telemetry.recordFlag(entry.environmentUlid, flagUlid, 'evaluated', 1, at);
    this.records.reportDefaults(entry, info ? [flagKey] : [], declarations, at);
    this.records.observe(entry, context, at);
    if (!outcome) throw new NotFoundError(publicMessages.flagNotFound);
    this.records.expose(entry, context, [outcome], at);
    this.records.served(entry, [outcome], at);
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
    const entry = await this.environments.of(principal);
    const flagUlid = entry.flagUlids.get(flagKey);
    if (!flagUlid || !entry.snapshot.has(flagKey)) throw new NotFoundError(publicMessages.flagNotFound);
    const at = this.now();
    this.records.telemetry.recordFlag(entry.environmentUlid, flagUlid, 'used', count, at);
    this.records.observe(entry, context, at);
    // The SDK evaluated locally: which variant its contexts got is evaluated again here, in memory.
    for (const used of context === null ? exposed : [context, ...exposed]) {
      const outcome = evaluateFlag(entry.snapshot, flagKey, used);
      if (outcome !== undefined) this.records.expose(entry, used, [outcome], at);
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

  /**
   * GET /v1/payload: the server key's compiled configuration (its text, kept per snapshot), or
   * the flags a client or mobile key's platform holds evaluated for the context, as bytes; the
   * answer for a context asked for again on the same snapshot is kept with its ETag.
   */
  async payload(
    principal: PublicPrincipal,
    context: Context | null,
    declarations: readonly DefaultValueDeclaration[],
    ifNoneMatch: string | string[] | undefined,
  ): Promise<PayloadResult> {
    const entry = await this.environments.of(principal);
    const platform = platformOf(principal);
    if (platform === 'server') {
      const etag = entry.serverEtag;
      if (ifNoneMatchMatches(ifNoneMatch, etag)) return { notModified: true, etag };
      this.records.telemetry.recordWholeEnvironment(entry.environmentUlid, platform, 'retrieved', this.now());
      return { notModified: false, etag, json: entry.serverPayloadJson };
    }
    const lists = this.payloads[platform];
    const keeps = declarations.length === 0 && RepeatedLists.keeps(context);
    const kept = keeps ? lists.get(entry.environmentUlid, entry.snapshot, context) : undefined;
    const etag = kept?.body.etag ?? this.payloadEtag(entry, platform, context, declarations);
    if (ifNoneMatchMatches(ifNoneMatch, etag)) return { notModified: true, etag };
    const at = this.now();
    this.records.telemetry.recordWholeEnvironment(entry.environmentUlid, platform, 'retrieved', at);
    const requested = visibleKeysOf(entry, platform);
    const head = { etag, revision: entry.revision, environmentUlid: entry.environmentUlid, environmentKey: entry.environmentKey };
    const encode = (outcomes: readonly EvaluationOutcome[]) => clientPayloadJson(entry.snapshot, head, outcomes);
    if (declarations.length === 0) {
      const evaluate = () => evaluateAll(entry.snapshot, context, [], { platform });
      const list = kept ?? evaluatedList(lists, entry, context, keeps, evaluate, (outcomes) => taggedBody(etag, encode(outcomes)));
      this.records.servedList(entry, context, list, requested, at);
      return { notModified: false, etag, bytes: list.body.bytes };
    }
    const outcomes = evaluateAll(entry.snapshot, context, declarations, { platform });
    this.records.count(outcomes);
    this.records.reportDefaults(entry, requested, declarations, at);
    this.records.observe(entry, context, at);
    this.records.expose(entry, context, outcomes, at);
    this.records.served(entry, outcomes, at);
    return { notModified: false, etag, bytes: encode(outcomes) };
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
