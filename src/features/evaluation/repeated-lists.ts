import { invalidAttributeCounts, type Context, type EvaluationOutcome, type ResolvedBy } from '../../engine/index.js';
import type { ServedPlan } from '../../runtime/telemetry-buffer.js';

/** One GET /v1/flags answer kept for a context: the outcomes, what they add to the counts, the body. */
export interface RepeatedList<Body> {
  readonly outcomes: readonly EvaluationOutcome[];
  /** The outcomes a split chose (exposures are recorded for these only). */
  readonly splits: readonly EvaluationOutcome[];
  /** How many outcomes each reason resolved (added to the evaluation counts per answer). */
  readonly byReason: ReadonlyArray<readonly [ResolvedBy, number]>;
  readonly body: Body;
  /** Whether the list is kept for the next request with its context (else it serves this one only). */
  readonly kept: boolean;
  /** Where the served counts of these outcomes go while the telemetry tally lasts (TelemetryBuffer.recordServedRepeated). */
  served?: ServedPlan;
}

interface EnvironmentLists<Body> {
  snapshot: object;
  lists: Map<Context | null, RepeatedList<Body>>;
}

/** Bytes of kept bodies, and lists kept, across environments before everything kept is let go. */
export const REPEATED_LIST_BUDGET_BYTES = 16 * 1024 * 1024;
export const REPEATED_LIST_MAX_LISTS = 4096;

/**
 * What this buys: an application asking again for every flag for the same user (the same
 * context header text, decoded once into one frozen Context by InputDecoder) gets the answer
 * evaluated for the environment's current snapshot, without evaluating and encoding every flag
 * again (about two thirds of the CPU of a 200-flag request). Snapshots are immutable and the
 * engine reads no clock, so the same snapshot and context give the same outcomes; a new
 * snapshot replaces the environment's lists. Bounded by bytes and by lists (each holds its
 * context, however small its body); emptied when full. A list is kept from its context's second
 * request on: a stream of contexts each asked for once (many users, one request each) keeps
 * nothing, so it neither churns the lists nor holds bodies long enough to burden the collector.
 */
export class RepeatedLists<Body extends { length: number }> {
  private readonly environments = new Map<string, EnvironmentLists<Body>>();
  /** Contexts asked for once, whose next list is kept (held weakly: the decoder owns them). */
  private readonly askedOnce = new WeakSet<Context>();
  private bytes = 0;
  private lists = 0;

  constructor(
    private readonly budgetBytes = REPEATED_LIST_BUDGET_BYTES,
    private readonly maxLists = REPEATED_LIST_MAX_LISTS,
  ) {}

  /** Whether answers for `context` may be kept: only the decoder's shared, frozen contexts (or none). */
  static keeps(context: Context | null): boolean {
    return context === null || Object.isFrozen(context);
  }

  get(environmentUlid: string, snapshot: object, context: Context | null): RepeatedList<Body> | undefined {
    const held = this.environments.get(environmentUlid);
    return held !== undefined && held.snapshot === snapshot ? held.lists.get(context) : undefined;
  }

  /**
   * Keeps `outcomes` and their body for the snapshot and context, unless this is the context's
   * first request (none is a context asked for every time); returns the list, kept or not.
   */
  keep(
    environmentUlid: string,
    snapshot: object,
    context: Context | null,
    outcomes: readonly EvaluationOutcome[],
    body: Body,
  ): RepeatedList<Body> {
    if (context !== null && !this.askedOnce.has(context)) {
      this.askedOnce.add(context);
      return repeatedList(outcomes, body);
    }
    if (body.length > this.budgetBytes) return repeatedList(outcomes, body);
    const list = repeatedList(outcomes, body, true);
    if (this.bytes + body.length > this.budgetBytes || this.lists >= this.maxLists) this.clear();
    let held = this.environments.get(environmentUlid);
    if (held === undefined || held.snapshot !== snapshot) {
      if (held !== undefined) {
        for (const kept of held.lists.values()) this.bytes -= kept.body.length;
        this.lists -= held.lists.size;
      }
      held = { snapshot, lists: new Map() };
      this.environments.set(environmentUlid, held);
    }
    const replaced = held.lists.get(context);
    if (replaced !== undefined) {
      this.bytes -= replaced.body.length;
      this.lists -= 1;
    }
    held.lists.set(context, list);
    this.bytes += body.length;
    this.lists += 1;
    return list;
  }

  /** Bytes of bodies kept now. */
  get keptBytes(): number {
    return this.bytes;
  }

  /** Lists kept now. */
  get keptLists(): number {
    return this.lists;
  }

  private clear(): void {
    this.environments.clear();
    this.bytes = 0;
    this.lists = 0;
  }
}

/** `outcomes` and their body as a RepeatedList (also for answers that are not kept). */
export function repeatedList<Body>(outcomes: readonly EvaluationOutcome[], body: Body, kept = false): RepeatedList<Body> {
  const counts = new Map<ResolvedBy, number>();
  const splits: EvaluationOutcome[] = [];
  for (const outcome of outcomes) {
    counts.set(outcome.resolved_by, (counts.get(outcome.resolved_by) ?? 0) + 1);
    if (outcome.split !== undefined) splits.push(outcome);
  }
  return { outcomes, splits, byReason: [...counts], body, kept };
}

/** Attribute values the engine could not read as a version or a date, since start (typed-comparers.ts). */
function invalidAttributeTotal(): number {
  const counts = invalidAttributeCounts();
  return counts.version + counts.date;
}

/**
 * A list not kept yet: `evaluate` for the outcomes, `encode` for their body, kept in `lists` for
 * the environment's snapshot and `context` when `keeps` says it may be. An answer that met
 * unreadable attribute values is not kept: each request counts them again.
 */
export function evaluatedList<Body extends { length: number }>(
  lists: RepeatedLists<Body>,
  entry: { environmentUlid: string; snapshot: object },
  context: Context | null,
  keeps: boolean,
  evaluate: () => readonly EvaluationOutcome[],
  encode: (outcomes: readonly EvaluationOutcome[]) => Body,
): RepeatedList<Body> {
  const unreadableBefore = invalidAttributeTotal();
  const outcomes = evaluate();
  const body = encode(outcomes);
  if (keeps && invalidAttributeTotal() === unreadableBefore)
    return lists.keep(entry.environmentUlid, entry.snapshot, context, outcomes, body);
  return repeatedList(outcomes, body);
}

/** An answer encoded with its ETag (the payload, OFREP bulk), as a RepeatedLists body. */
export interface TaggedBody<Bytes extends Buffer = Buffer> {
  readonly etag: string;
  readonly bytes: Bytes;
  readonly length: number;
}

export function taggedBody<Bytes extends Buffer>(etag: string, bytes: Bytes): TaggedBody<Bytes> {
  return { etag, bytes, length: bytes.length + etag.length };
}
