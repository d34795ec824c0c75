import { SettingError } from '../settings.js';

/**
 * What the public audit trail records (VEXIL_PUBLIC_AUDIT; README: Public audit trail):
 * - `every`: one entry per request (the default);
 * - `errors`: only requests answered 400 or above (refusals of keys, rate limits, errors);
 * - `aggregate`: one entry per key, subject, action, status and minute, with a count;
 * - `sample`: errors and refusals all, and `rate` of the other requests, evenly spaced.
 */
export type PublicAuditMode = { kind: 'every' } | { kind: 'errors' } | { kind: 'aggregate' } | { kind: 'sample'; rate: number };

export const defaultPublicAuditMode: PublicAuditMode = { kind: 'every' };

const shape = 'must be every, errors, aggregate or sample:<rate> with a rate above 0 and at most 1 (e.g. sample:0.01)';

export function parsePublicAuditMode(raw: string | undefined, name = 'VEXIL_PUBLIC_AUDIT'): PublicAuditMode {
  if (raw === undefined || raw.trim() === '') return defaultPublicAuditMode;
  const value = raw.trim().toLowerCase();
  if (value === 'every' || value === 'errors' || value === 'aggregate') return { kind: value };
  const sample = /^sample:(\d*\.?\d+)$/.exec(value);
  if (sample) {
    const rate = Number(sample[1]);
    if (rate > 0 && rate <= 1) return { kind: 'sample', rate };
  }
  throw new SettingError(`${name} ${shape}, got "${raw}"`);
}
