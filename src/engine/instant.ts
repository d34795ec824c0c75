/**
 * Date-times of the `before` and `after` comparers.
 *
 * A date-time is an RFC 3339 (ISO 8601) date-time with its offset:
 * `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, `T` and `Z` in capitals, a real calendar
 * date (leap years counted), hours 00-23, minutes and seconds 00-59, one to nine fraction digits,
 * offsets up to 23:59. A date without a time, a time without an offset, or any other form is not
 * a date-time. Two date-times compare as instants: `2026-01-01T01:00:00+01:00` equals
 * `2026-01-01T00:00:00Z`.
 */

/** An instant: whole seconds since 1970-01-01T00:00:00Z and nanoseconds within that second. */
export interface Instant {
  readonly seconds: number;
  readonly nanos: number;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The instant `s` denotes, or null when `s` is not a date-time with an offset. */
export function parseInstant(s: string): Instant | null {
  if (s.length > 40) return null;
  const m = DATE_TIME.exec(s);
  if (m === null) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  const zone = m[8] as string;
  if (zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (oh * 60 + om) * (zone[0] === '-' ? -1 : 1);
  }
  const fraction = m[7] ?? '';
  const nanos = fraction === '' ? 0 : Number(fraction.padEnd(9, '0'));
  const seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  return { seconds, nanos };
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Negative when a is before b, 0 at the same instant, positive when a is after b. */
export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1;
}
