import { describe, expect, it } from 'vitest';
import { digestSecret } from '../../../src/auth/secrets.js';
import { ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';
import { principal, recordingAudit, world } from './world.js';

describe('AccountService', () => {
  it('creates members with projects in creation order and lower-cases e-mail addresses', async () => {
    const w = world();
    const owner = principal();
    await w.projects.create(owner, { key: 'a', name: 'A' }, recordingAudit());
    await w.projects.create(owner, { key: 'b', name: 'B' }, recordingAudit());
    const audit = recordingAudit();
    const member = await w.accounts.create(owner, { name: 'Ada', email: 'Ada@Example.COM', role: 'member', projects: ['b', 'a'] }, audit);
    expect(member).toMatchObject({ email: 'ada@example.com', role: 'member', projects: ['a', 'b'] });
    expect(audit.committed[0]).toMatchObject({ action: 'account.created', subjectType: 'account', subjectUlid: member.ulid });
    expect((await w.accounts.list({ per_page: 10 })).data).toEqual([member]);
    await expect(w.accounts.create(owner, { name: 'x', email: 'ADA@example.com', role: 'admin' }, recordingAudit())).rejects.toMatchObject({
      errors: { email: ['The email has already been taken.'] },
    });
  });

  it('refuses projects for owners and admins and unknown projects, field by field', async () => {
    const w = world();
    const owner = principal();
    await w.projects.create(owner, { key: 'a', name: 'A' }, recordingAudit());
    await expect(w.accounts.create(owner, { name: 'x', email: 'x@e.com', role: 'admin', projects: ['a'] }, recordingAudit())).rejects.toMatchObject({
      errors: { projects: [expect.any(String)] },
    });
    await expect(w.accounts.create(owner, { name: 'x', email: 'x@e.com', role: 'member', projects: ['a', 'zz'] }, recordingAudit())).rejects.toMatchObject({
      errors: { 'projects.1': ['Project "zz" does not exist.'] },
    });
    await expect(w.accounts.create(owner, { name: '\u0000', email: 'x@e.com', role: 'member' }, recordingAudit())).rejects.toBeInstanceOf(ValidationError);
    expect(w.stores.accounts.accounts.size).toBe(0);
  });

  it('lets only owners create owners or act on owner accounts', async () => {
    const w = world();
    const owner = principal();
    const target = await w.accounts.create(owner, { name: 'O', email: 'o@e.com', role: 'owner' }, recordingAudit());
    const pat = await w.accounts.createPersonalToken(owner, target.ulid, { name: 't' }, recordingAudit());
    const admin = principal({ role: 'admin' });
    await expect(w.accounts.create(admin, { name: 'O2', email: 'o2@e.com', role: 'owner' }, recordingAudit())).rejects.toBeInstanceOf(ForbiddenError);
    await expect(w.accounts.delete(admin, target.ulid, recordingAudit())).rejects.toBeInstanceOf(ForbiddenError);
    await expect(w.accounts.createPersonalToken(admin, target.ulid, { name: 'x' }, recordingAudit())).rejects.toBeInstanceOf(ForbiddenError);
    await expect(w.accounts.revokePersonalToken(admin, target.ulid, pat.ulid, recordingAudit())).rejects.toBeInstanceOf(ForbiddenError);
    expect(await w.accounts.create(admin, { name: 'A', email: 'a@e.com', role: 'admin' }, recordingAudit())).toMatchObject({ role: 'admin' });
  });

  it('never deletes the requesting account or the last owner', async () => {
    const w = world();
    const boot = principal();
    const o1 = await w.accounts.create(boot, { name: 'O1', email: 'o1@e.com', role: 'owner' }, recordingAudit());
    const o2 = await w.accounts.create(boot, { name: 'O2', email: 'o2@e.com', role: 'owner' }, recordingAudit());
    const asO1 = principal({ accountUlid: o1.ulid });
    await expect(w.accounts.delete(asO1, o1.ulid, recordingAudit())).rejects.toBeInstanceOf(UnprocessableError);
    const audit = recordingAudit();
    await w.accounts.delete(asO1, o2.ulid, audit);
    expect(audit.committed[0]).toMatchObject({ action: 'account.deleted', subjectUlid: o2.ulid, subjectLabel: 'o2@e.com' });
    // A stale principal of another owner (deleted meanwhile) cannot remove the last one.
    await expect(w.accounts.delete(principal({ accountUlid: o2.ulid }), o1.ulid, recordingAudit())).rejects.toThrow('The last owner account cannot be deleted.');
    expect(w.stores.accounts.accounts.has(o1.ulid)).toBe(true);
    await expect(w.accounts.delete(asO1, 'usr_nope', recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates personal access tokens with digest only and revokes them once', async () => {
    const w = world();
    const owner = principal();
    const member = await w.accounts.create(owner, { name: 'M', email: 'm@e.com', role: 'member' }, recordingAudit());
    const audit = recordingAudit();
    const pat = await w.accounts.createPersonalToken(owner, member.ulid, { name: 'laptop', expires_at: '2027-01-01T00:00:00Z' }, audit);
    expect(pat).toMatchObject({ name: 'laptop', expires_at: '2027-01-01T00:00:00.000Z' });
    expect(pat.token).toMatch(/^pat_[0-9A-Za-z]{40}$/);
    expect(w.stores.accounts.tokens.get(pat.ulid)?.digest).toBe(digestSecret(pat.token));
    expect(JSON.stringify(audit.committed)).not.toContain(pat.token);
    await expect(w.accounts.createPersonalToken(owner, member.ulid, { name: 'x', expires_at: '2020-01-01T00:00:00Z' }, recordingAudit())).rejects.toMatchObject({
      errors: { expires_at: [expect.any(String)] },
    });
    const first = recordingAudit();
    await w.accounts.revokePersonalToken(owner, member.ulid, pat.ulid, first);
    const second = recordingAudit();
    await w.accounts.revokePersonalToken(owner, member.ulid, pat.ulid, second);
    expect([first.committed.length, second.committed.length]).toEqual([1, 0]);
    const other = await w.accounts.create(owner, { name: 'N', email: 'n@e.com', role: 'member' }, recordingAudit());
    await expect(w.accounts.revokePersonalToken(owner, other.ulid, pat.ulid, recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
  });
});
