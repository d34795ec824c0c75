import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { auditUlid, auditUlidLowerBound, auditUlidUpperBound } from '../../../src/audit/audit-ids.js';

describe('audit ulids', () => {
  it('carry exactly the creation time and keep creation order within a millisecond', () => {
    const at = new Date('2026-05-01T10:00:00.123Z');
    const ids = Array.from({ length: 50 }, () => auditUlid(at));
    for (const id of ids) {
      expect(id).toMatch(/^aud_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(decodeTime(id.slice(4))).toBe(at.getTime());
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
  });

  it('stay ordered and distinct over many entries in one millisecond (the counter carries into higher characters)', () => {
    const at = new Date('2026-05-01T10:00:00.777Z');
    const ids = Array.from({ length: 5000 }, () => auditUlid(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(5000);
    expect(ids.every((id) => decodeTime(id.slice(4)) === at.getTime())).toBe(true);
  });

  it('follow a clock that moves backwards instead of keeping the last time', () => {
    const later = auditUlid(new Date('2026-05-01T10:00:01.000Z'));
    const earlier = auditUlid(new Date('2026-05-01T10:00:00.000Z'));
    expect(decodeTime(earlier.slice(4))).toBe(Date.parse('2026-05-01T10:00:00.000Z'));
    expect(earlier < later).toBe(true);
  });

  it('turn a time into inclusive ulid bounds', () => {
    const ms = Date.parse('2026-05-01T10:00:00.500Z');
    const id = auditUlid(new Date(ms));
    expect(auditUlidLowerBound(ms) <= id && id <= auditUlidUpperBound(ms)).toBe(true);
    expect(id < auditUlidLowerBound(ms + 0.5)).toBe(true);
    expect(id > auditUlidUpperBound(ms - 0.5)).toBe(true);
    expect(auditUlidLowerBound(-5)).toBe('aud_' + '0'.repeat(26));
  });
});
