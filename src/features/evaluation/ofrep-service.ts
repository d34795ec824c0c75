import type { PublicPrincipal } from '../../auth/principal.js';
import { isoOf, type Clock } from '../../clock.js';
import { evaluateAll, evaluateFlag, type Context, type EvaluationOutcome } from '../../engine/index.js';
import { OfrepError, publicMessages } from '../../http/errors.js';
import { digestParts, entityTag, ifNoneMatchMatches } from '../../runtime/etag.js';
import type { EnvironmentSnapshot, SnapshotCache } from '../../runtime/snapshot-cache.js';
import type { Platform } from '../../runtime/telemetry-buffer.js';
import { KeyEnvironments } from './key-environments.js';
import { ofrepBulkJson } from './ofrep-json.js';
import { toOfrepSuccess, type OfrepItemFailure, type OfrepSuccess } from './ofrep-shape.js';
import {
  evaluatedList,
  RepeatedLists,
  REPEATED_LIST_BUDGET_BYTES,
  REPEATED_LIST_MAX_LISTS,
  taggedBody,
  type TaggedBody,
} from './repeated-lists.js';
import { ServingTelemetry, type ServingTelemetryDeps } from './serving-telemetry.js';
import { platformOf, visibleOn } from './visible-flags.js';

/** What OfrepService is built from (the evaluation feature's deps). */
export interface OfrepServiceDeps extends ServingTelemetryDeps {
  cache: SnapshotCache;
  clock: Clock;
}

/** POST /ofrep/v1/evaluate/flags: 304, or the answer (bytes when every flag was evaluated, else the items). */
export type OfrepBulkResult =
  | { notModified: true; etag: string }
  | { notModified: false; etag: string; bytes: Buffer }
  | { notModified: false; etag: string; flags: Array<OfrepSuccess | OfrepItemFailure> };

const bulkLists = () => new RepeatedLists<TaggedBody>(REPEATED_LIST_BUDGET_BYTES / 8, REPEATED_LIST_MAX_LISTS / 8);

/**
 * OFREP (specs/public.yaml, /ofrep/v1): the same engine and snapshots as the evaluation API,
 * shaped as the protocol asks. Bulk answers for a context asked for again on the same snapshot
 * (the decoder hands equal contexts out as one object) are kept, with their ETag, as GET
 * /v1/flags keeps its lists (repeated-lists.ts).
 */
export class OfrepService {
  private readonly environments: KeyEnvironments;
  private readonly records: ServingTelemetry;
  private readonly clock: Clock;
  /** Kept bulk answers per platform (the flags each holds differ). */
  private readonly bulk: Record<Platform, RepeatedLists<TaggedBody>> = { server: bulkLists(), client: bulkLists(), mobile: bulkLists() };

  constructor(deps: OfrepServiceDeps) {
    this.environments = new KeyEnvironments(deps.cache);
    this.records = new ServingTelemetry(deps);
    this.clock = deps.clock;
  }

  /** POST /ofrep/v1/evaluate/flags/{key}. */
  async evaluate(principal: PublicPrincipal, flagKey: string, context: Context | null): Promise<OfrepSuccess> {
    const entry = await this.environments.of(principal);
    const platform = platformOf(principal);
    const info = entry.snapshot.flag(flagKey);
    const visible = info !== undefined && visibleOn(platform, info);
    const outcome = visible ? evaluateFlag(entry.snapshot, flagKey, context) : undefined;
    if (outcome) this.records.countOne(outcome);
    const at = isoOf(this.clock.now());
    const flagUlid = entry.flagUlids.get(flagKey);
    if (visible && flagUlid) this.records.telemetry.recordFlag(entry.environmentUlid, flagUlid, 'evaluated', 1, at);
    this.records.observe(entry, context, at);
    if (!outcome) throw new OfrepError(404, 'FLAG_NOT_FOUND', publicMessages.flagNotFound, flagKey);
    this.records.expose(entry, context, [outcome], at);
    this.records.served(entry, [outcome], at);
    return toOfrepSuccess(outcome, entry.flagRevision(outcome.key));
  }

  /** POST /ofrep/v1/evaluate/flags. */
  async evaluateAll(
    principal: PublicPrincipal,
    context: Context | null,
    ifNoneMatch: string | string[] | undefined,
  ): Promise<OfrepBulkResult> {
    const entry = await this.environments.of(principal);
    const platform = platformOf(principal);
    const keeps = RepeatedLists.keeps(context);
    const lists = this.bulk[platform];
    const kept = keeps ? lists.get(entry.environmentUlid, entry.snapshot, context) : undefined;
    const etag = kept?.body.etag ?? entityTag('ofrep', entry.revision, digestParts(entry.configDigest, platform, JSON.stringify(context)));
    // `*` does not match: the ETag is per context, so `*` cannot say the client holds this one.
    if (ifNoneMatchMatches(ifNoneMatch, etag, false)) return { notModified: true, etag };
    const at = isoOf(this.clock.now());
    this.records.telemetry.recordWholeEnvironment(entry.environmentUlid, platform, 'evaluated', at);
    let list = kept;
    try {
      list ??= evaluatedList(
        lists,
        entry,
        context,
        keeps,
        () => evaluateAll(entry.snapshot, context, [], { platform }),
        (outcomes) =>
          taggedBody(
            etag,
            ofrepBulkJson(entry.snapshot, outcomes, (key) => entry.flagRevision(key)),
          ),
      );
    } catch {
      return { notModified: false, etag, flags: this.oneByOne(entry, platform, context, at) };
    }
    this.records.servedList(entry, context, list, undefined, at);
    return { notModified: false, etag, bytes: list.body.bytes };
  }

  /** Should the engine fail on one flag: that flag reported, the others evaluated one by one. */
  private oneByOne(
    entry: EnvironmentSnapshot,
    platform: Platform,
    context: Context | null,
    at: string,
  ): Array<OfrepSuccess | OfrepItemFailure> {
    const flags: Array<OfrepSuccess | OfrepItemFailure> = [];
    const served: EvaluationOutcome[] = [];
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
    this.records.count(served);
    this.records.observe(entry, context, at);
    this.records.expose(entry, context, served, at);
    this.records.served(entry, served, at);
    return flags;
  }
}
