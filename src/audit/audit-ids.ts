import { encodeTime, incrementBase32, TIME_MAX, ulid } from 'ulid';
import { pooledRandom } from '../random-pool.js';

const prefix = 'aud_';
let lastTime = -1;
let lastRandom = '';

/**
 * Ulid of an audit entry whose time part is exactly the entry's `created_at` (in ms), so a
 * `from`/`to` filter on creation time becomes a range on the primary key. Within one
 * millisecond the random part is incremented, keeping creation order; a clock that moves
 * backwards (another test clock, a corrected system clock) gets a fresh ulid at its own time
 * rather than the last time seen.
 */
export function auditUlid(at: Date): string {
  const time = Math.min(Math.max(at.getTime(), 0), TIME_MAX);
  if (time === lastTime) {
    lastRandom = incrementBase32(lastRandom);
  } else {
    lastTime = time;
    lastRandom = ulid(time, pooledRandom).slice(10);
  }
  return prefix + encodeTime(time, 10) + lastRandom;
}

function clampTime(ms: number): number {
  return Math.min(Math.max(ms, 0), TIME_MAX);
}

/** The smallest audit ulid created at or after `ms`. */
export function auditUlidLowerBound(ms: number): string {
  return prefix + encodeTime(clampTime(Math.ceil(ms)), 10) + '0'.repeat(16);
}

/** The largest audit ulid created at or before `ms`. */
export function auditUlidUpperBound(ms: number): string {
  return prefix + encodeTime(clampTime(Math.floor(ms)), 10) + 'Z'.repeat(16);
}
