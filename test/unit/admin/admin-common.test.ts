import { describe, expect, it } from 'vitest';
import { ResourceAccess, hasScope } from '../../../src/auth/principal.js';
import { authorizeOperation } from '../../../src/auth/management-auth.js';
import { ForbiddenError, ValidationError } from '../../../src/http/errors.js';
import { futureExpiry, TextRules } from '../../../src/features/shared/text-rules.js';
import { paginateInMemory } from '../../fakes/paging.js';
import { reachesWholeProject } from '../../../src/features/shared/access-rules.js';
import { granted, principal } from './principals.js';

describe('TextRules', () => {
  it('accepts unicode and refuses blank names, control characters and lone surrogates', () => {
    expect(() => new TextRules().name('name', 'Zoë 🚩 中文').text('description', 'line 1\nline 2\ttab').check()).not.toThrow();
    for (const bad of ['', ' ', '\t\n', 'a\u0000b', 'bell\u0007', 'half \ud83d', '\udc00x']) {
      expect(() => new TextRules().name('name', bad).check(), JSON.stringify(bad)).toThrow(ValidationError);
    }
    expect(() => new TextRules().text('description', 'bad \ud800').check()).toThrow(ValidationError);
    expect(() => new TextRules().name('name', undefined).text('description', null).check()).not.toThrow();
  });
});

describe('futureExpiry', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  it('keeps absent and null, normalises future dates and refuses the past', () => {
    expect(futureExpiry('expires_at', undefined, now)).toBeNull();
    expect(futureExpiry('expires_at', null, now)).toBeNull();
    expect(() => futureExpiry('expires_at', '2026-01-01T01:00:00+01:00', now)).toThrow(ValidationError);
    expect(futureExpiry('expires_at', '2026-01-01T02:00:00+01:00', now)).toBe('2026-01-01T01:00:00.000Z');
    expect(() => futureExpiry('expires_at', 'never', now)).toThrow(ValidationError);
  });
});

describe('reach', () => {
  it('tells a whole project from single environments', () => {
    expect(reachesWholeProject(ResourceAccess.unrestricted(), 'prj_a')).toBe(true);
    expect(reachesWholeProject(granted(['prj_a']), 'prj_a')).toBe(true);
    expect(reachesWholeProject(granted([], [['prj_a', 'env_1']]), 'prj_a')).toBe(false);
    expect(reachesWholeProject(granted(['prj_b']), 'prj_a')).toBe(false);
    expect(reachesWholeProject(new ResourceAccess(new Set(['prj_a']), null), 'prj_a')).toBe(true);
    expect(reachesWholeProject(new ResourceAccess(new Set(['prj_b']), null), 'prj_a')).toBe(false);
  });
});

describe('scopes', () => {
  it('targets:write implies targets:read and nothing else implies anything', () => {
    const writer = principal({ type: 'management_token', scopes: ['targets:write'] });
    expect(hasScope(writer, 'targets:read')).toBe(true);
    expect(hasScope(writer, 'flags:read')).toBe(false);
    expect(hasScope(principal({ type: 'management_token', scopes: ['flags:write'] }), 'flags:read')).toBe(false);
  });

  it('personal operations need an owner or admin personal access token, refused with required_scope personal', () => {
    expect(() => authorizeOperation(principal({ role: 'admin' }), 'personal')).not.toThrow();
    for (const p of [principal({ role: 'member' }), principal({ type: 'management_token', scopes: ['config:write'] })]) {
      const error = (() => {
        try {
          authorizeOperation(p, 'personal');
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).requiredScope).toBe('personal');
    }
  });
});

describe('paginateInMemory', () => {
  it('walks forwards and backwards with the same cursors as the database lists', () => {
    const items = ['a1', 'a2', 'a3', 'a4', 'a5'].map((ulid) => ({ ulid }));
    const p1 = paginateInMemory(items, 'l', { per_page: 2 });
    const p2 = paginateInMemory(items, 'l', { per_page: 2, cursor: p1.meta.next_cursor! });
    const p3 = paginateInMemory(items, 'l', { per_page: 2, cursor: p2.meta.next_cursor! });
    expect([p1, p2, p3].map((p) => p.data.map((i) => i.ulid))).toEqual([['a1', 'a2'], ['a3', 'a4'], ['a5']]);
    expect(p3.meta.next_cursor).toBeNull();
    expect(paginateInMemory(items, 'l', { per_page: 2, cursor: p3.meta.prev_cursor! }).data.map((i) => i.ulid)).toEqual(['a3', 'a4']);
    expect(() => paginateInMemory(items, 'other', { per_page: 2, cursor: p1.meta.next_cursor! })).toThrow();
  });
});
