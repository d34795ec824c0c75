/** Time source, injectable so tests and the scheduler can control it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The storage form of a timestamp: ISO-8601 UTC with milliseconds, sortable as text. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

let lastMs = Number.NaN;
let lastIso = '';

/**
 * `date.toISOString()`, remembered for the last millisecond seen: the serving path stamps
 * several records per request, many requests per millisecond, and formatting dominates.
 */
export function isoOf(date: Date): string {
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastIso = date.toISOString();
    lastMs = ms;
  }
  return lastIso;
}
