/** Time source, injectable so tests and the scheduler can control it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The storage form of a timestamp: ISO-8601 UTC with milliseconds, sortable as text. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
