import { describe, expect, it } from 'vitest';
import { digestSecret } from '../../../src/auth/secrets.js';
import { NotFoundError, ValidationError } from '../../../src/http/errors.js';
import { principal, recordingAudit, world } from './world.js';

const owner = principal();

describe('EnvironmentKeyService', () => {
  it('creates secrets by kind, stores only the digest and audits without the secret', async () => {
    const w = world();
    await w.projects.create(owner, { key: 'p', name: 'P' }, recordingAudit());
    for (const [kind, prefix] of [
      ['server', 'srv_'],
      ['mobile', 'mob_'],
      ['client', 'cli_'],
    ] as const) {
      const audit = recordingAudit();
      const key = await w.keys.create(owner, 'p', 'production', { kind }, audit);
      expect(key.key).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{40}$`));
      expect(key.masked_key).toBe(`${prefix}...${key.key.slice(-4)}`);
      const stored = w.stores.keys.rows.get(key.ulid)!;
      expect(stored.digest).toBe(digestSecret(key.key));
      expect(JSON.stringify(stored)).not.toContain(key.key);
      expect(JSON.stringify(audit.committed)).not.toContain(key.key);
      expect(audit.committed[0]).toMatchObject({ action: 'environment_key.created', subjectType: 'environment_key', subjectUlid: key.ulid });
    }
    const listed = await w.keys.list(owner, 'p', 'production', recordingAudit());
    expect(listed).toHaveLength(3);
    for (const item of listed) expect(Object.keys(item).sort()).toEqual(['created_at', 'kind', 'masked_key', 'name', 'revoked_at', 'ulid']);
    await expect(w.keys.create(owner, 'p', 'production', { kind: 'server', name: ' ' }, recordingAudit())).rejects.toBeInstanceOf(ValidationError);
  });

  it('revokes once; a second revoke succeeds without a change or a committed entry', async () => {
    const w = world();
    await w.projects.create(owner, { key: 'p', name: 'P' }, recordingAudit());
    const key = await w.keys.create(owner, 'p', 'production', { kind: 'server' }, recordingAudit());
    w.clock.advance(1000);
    const first = recordingAudit();
    await w.keys.revoke(owner, 'p', 'production', key.ulid, first);
    expect(first.committed).toHaveLength(1);
    const row = { ...w.stores.keys.rows.get(key.ulid)! };
    expect(row.revoked_at).toBe('2026-03-04T05:06:08.000Z');
    expect(row.updated_at).toBe(row.revoked_at);
    w.clock.advance(1000);
    const second = recordingAudit();
    await w.keys.revoke(owner, 'p', 'production', key.ulid, second);
    expect(second.committed).toEqual([]);
    expect(second.described[0]).toMatchObject({ action: 'environment_key.revoked', subjectUlid: key.ulid });
    expect(w.stores.keys.rows.get(key.ulid)).toEqual(row);
    await expect(w.keys.revoke(owner, 'p', 'development', key.ulid, recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('ManagementTokenService', () => {
  it('resolves grants, defaults the tier and never audits the secret', async () => {
    const w = world();
    const p = await w.projects.create(owner, { key: 'p', name: 'P' }, recordingAudit());
    const audit = recordingAudit();
    const token = await w.tokens.create(
      owner,
      { name: 'bot', scopes: ['flags:read'], grants: { projects: ['p', 'p'], environments: [{ project: 'p', environment: 'production' }] } },
      audit,
    );
    expect(token).toMatchObject({ tier: 'standard', expires_at: null, grants: { projects: ['p'], environments: [{ project: 'p', environment: 'production' }] } });
    expect(token.token).toMatch(/^mgt_[0-9A-Za-z]{40}$/);
    const stored = w.stores.tokens.rows.get(token.ulid)!;
    expect(stored.record.digest).toBe(digestSecret(token.token));
    expect(stored.record.account_ulid).toBe(owner.account.ulid);
    expect(stored.grants.map((g) => g.project_ulid)).toEqual([p.ulid, p.ulid]);
    expect(JSON.stringify(audit.committed)).not.toContain(token.token);
    expect(JSON.stringify(audit.committed)).not.toContain(stored.record.digest);
    const { token: _secret, ...view } = token;
    expect(audit.committed[0]).toEqual({ action: 'token.created', subjectType: 'management_token', subjectUlid: token.ulid, subjectLabel: 'bot', changes: { after: view } });
  });

  it('keys every unknown grant and a past expiry to its field, writing nothing', async () => {
    const w = world();
    await w.projects.create(owner, { key: 'p', name: 'P' }, recordingAudit());
    const error = await w.tokens
      .create(
        owner,
        {
          name: 'x',
          scopes: ['flags:read'],
          grants: { projects: ['p', 'q'], environments: [{ project: 'q', environment: 'e' }, { project: 'p', environment: 'e' }] },
        },
        recordingAudit(),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors).sort()).toEqual([
      'grants.environments.0.project',
      'grants.environments.1.environment',
      'grants.projects.1',
    ]);
    await expect(
      w.tokens.create(owner, { name: 'x', scopes: ['flags:read'], expires_at: '2026-03-04T05:06:07.000Z' }, recordingAudit()),
    ).rejects.toMatchObject({ errors: { expires_at: [expect.stringContaining('future')] } });
    expect(w.stores.tokens.rows.size).toBe(0);
    const ok = await w.tokens.create(owner, { name: 'x', scopes: ['flags:read'], expires_at: '2026-03-04T05:06:07.001Z' }, recordingAudit());
    expect(ok.expires_at).toBe('2026-03-04T05:06:07.001Z');
  });

  it('revokes once and lists with grants', async () => {
    const w = world();
    const t = await w.tokens.create(owner, { name: 'x', scopes: ['audit:read'] }, recordingAudit());
    const first = recordingAudit();
    await w.tokens.revoke(t.ulid, first);
    const second = recordingAudit();
    await w.tokens.revoke(t.ulid, second);
    expect([first.committed.length, second.committed.length]).toEqual([1, 0]);
    const page = await w.tokens.list({ per_page: 10 });
    expect(page.data[0]).toMatchObject({ ulid: t.ulid, revoked_at: '2026-03-04T05:06:07.000Z', grants: { projects: [], environments: [] } });
    expect(JSON.stringify(page)).not.toContain(t.token);
    await expect(w.tokens.revoke('mgt_nope', recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
  });
});
