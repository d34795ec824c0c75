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
