import type Koa from 'koa';
import type { PublicStageContext } from '../operation.js';
import type { OperationSpec } from './operations.js';

/**
 * A step of an operation's request path. `forOperation`, when present, is asked once per
 * operation at start-up for the stage that operation needs (undefined: nothing to do for it),
 * so per-request checks of "does this apply here?" disappear from the hot path.
 */
export interface Stage {
  (ctx: Koa.Context, next: () => Promise<void>): Promise<void>;
  forOperation?: (op: OperationSpec) => Stage | undefined;
}

/** A stage of the public API: it reads only a PublicStageContext, so both request paths run it. */
export interface PublicStage {
  (ctx: PublicStageContext, next: () => Promise<void>): Promise<void>;
  forOperation?: (op: OperationSpec) => PublicStage | undefined;
}

/**
 * Runs `stages` from `index` on, then `last`; each stage's `next` runs the rest. The chain is
 * walked by index rather than composed per request, and a stage that throws synchronously gives
 * a rejected promise like an async one.
 */
export function runStages<C>(
  stages: ReadonlyArray<(ctx: C, next: () => Promise<void>) => Promise<void>>,
  index: number,
  ctx: C,
  last: (ctx: C) => Promise<void>,
): Promise<void> {
  try {
    if (index === stages.length) return last(ctx);
    return stages[index]!(ctx, () => runStages(stages, index + 1, ctx, last));
  } catch (error) {
    return Promise.reject(error);
  }
}
