import { encodeTime, TIME_MAX, ulid } from 'ulid';
import { pooledRandom } from '../random-pool.js';

const prefix = 'aud_';
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The random part: 10 characters drawn per millisecond, then a 30-bit counter (6 characters). */
const COUNTER_BITS = 30;
let lastTime = -1;
/** Prefix, time and the drawn characters of the last millisecond seen. */
let lastHead = '';
let counter = 0;

/**
 * Ulid of an audit entry whose time part is exactly the entry's `created_at` (in ms), so a
 * `from`/`to` filter on creation time becomes a range on the primary key. Within one
 * millisecond the random part counts up from a random start below 2^29 (2^29 entries per
 * millisecond before it could overflow), keeping creation order; the time and drawn characters
 * are encoded once per millisecond, as entries come many to a millisecond on the serving path.
 * A clock that moves backwards (another test clock, a corrected system clock) gets a fresh ulid
 * at its own time rather than the last time seen.
 */
export function auditUlid(at: Date): string {
  const time = Math.min(Math.max(at.getTime(), 0), TIME_MAX);
  if (time === lastTime && counter < 2 ** COUNTER_BITS - 1) {
    counter++;
  } else {
    lastTime = time;
    lastHead = prefix + encodeTime(time, 10) + ulid(time, pooledRandom).slice(10, 20);
    counter = Math.floor(pooledRandom() * 256 * 2 ** 21);
  }
  let tail = '';
  for (let shift = COUNTER_BITS - 5; shift >= 0; shift -= 5) tail += BASE32[(counter >>> shift) & 31];
  return lastHead + tail;
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
