import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { refreshBeforeAnswering } from '../../../src/http/refresh-after-write.js';

const request = () => ({ state: {} }) as unknown as Koa.Context;
const never = () => new Promise<never>(() => {});

describe('the refreshes a write awaits before answering', () => {
  it('wait for a refresh that finishes, and report one that fails', async () => {
    const ctx = request();
    expect(
      await refreshBeforeAnswering(
        ctx,
        1000,
        async () => 'ok',
        () => undefined,
      ),
    ).toBe('refreshed');
    const errors: unknown[] = [];
    const failure = new Error('database unavailable');
    expect(
      await refreshBeforeAnswering(
        ctx,
        1000,
        () => Promise.reject(failure),
        (err) => errors.push(err),
      ),
    ).toBe('refreshed');
    expect(errors).toEqual([failure]);
  });

  it('share one deadline: a database that stops answering costs the budget once, not once per refresh', async () => {
    const ctx = request();
    const started = performance.now();
    expect(await refreshBeforeAnswering(ctx, 200, never, () => undefined)).toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    let second = false;
    const secondStarted = performance.now();
    const hungToo = () => {
      second = true;
      return never();
    };
    expect(await refreshBeforeAnswering(ctx, 200, hungToo, () => undefined)).toBe('late');
    // The budget is spent: the second refresh answers at once instead of waiting its own 200 ms.
    expect(performance.now() - secondStarted).toBeLessThan(150);
    // The later refresh still runs (in the background), so the instance catches up when it can.
    expect(second).toBe(true);
  });

  it('report a refresh that fails after the answer went out', async () => {
    const errors: unknown[] = [];
    let fail!: (err: Error) => void;
    const pending = new Promise<never>((_, reject) => (fail = reject));
    expect(
      await refreshBeforeAnswering(
        request(),
        20,
        () => pending,
        (err) => errors.push(err),
      ),
    ).toBe('late');
    fail(new Error('late failure'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toHaveLength(1);
  });
});
