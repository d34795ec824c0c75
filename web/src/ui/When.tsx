/** Dates everywhere in the console: relative ("3 hours ago", "in 2 days"), the exact time on hover. */
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "5 minutes ago" for an ISO time, against `now`. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return seconds <= 0 ? 'just now' : 'in a few seconds';
  for (const [unit, size] of units) {
    // Whole units, as people count them: 45 days ago is "last month".
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(seconds, 'second');
}

/** The exact local time, as shown on hover. */
export const exactTime = (iso: string): string => exact.format(new Date(iso));

/** A time in the console's one format; nothing (or `none`) when there is no time. */
export function When({ iso, none = '—' }: { iso: string | null | undefined; none?: string }) {
  if (!iso) return <>{none}</>;
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
}
