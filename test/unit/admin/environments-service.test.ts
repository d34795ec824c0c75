import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../src/http/errors.js';
import { granted, principal, recordingAudit, world } from './world.js';

const owner = principal();

async function withProject() {
  const w = world();
  const project = await w.projects.create(owner, { key: 'p', name: 'P', environments: [{ key: 'dev', name: 'Dev' }] }, recordingAudit());
  const dev = [...w.stores.environments.rows.values()][0]!;
  return { w, project, dev };
}

describe('EnvironmentService', () => {
  it('creates with defaults or every field, and audits the environment', async () => {
    const { w, project } = await withProject();
    const audit = recordingAudit();
    const env = await w.environments.create(owner, 'p', { key: 'qa', name: 'QA' }, audit);
    expect(env).toMatchObject({ key: 'qa', description: null, color: '#808080', comments_required: false, confirmation_required: false });
    expect(audit.committed).toEqual([
      expect.objectContaining({ action: 'environment.created', subjectType: 'environment', subjectUlid: env.ulid, projectUlid: project.ulid, environmentUlid: env.ulid }),
    ]);
    const full = await w.environments.create(
      owner,
      'p',
      { key: 'live', name: 'Live', description: 'x', color: '#ABCDEF', comments_required: true, confirmation_required: true },
      recordingAudit(),
    );
    expect(full).toMatchObject({ description: 'x', color: '#ABCDEF', comments_required: true, confirmation_required: true });
    expect(Object.keys(full)).not.toContain('project_ulid');
    await expect(w.environments.create(owner, 'p', { key: 'qa', name: 'Again' }, recordingAudit())).rejects.toMatchObject({
      errors: { key: ['The key has already been taken.'] },
    });
  });

  it('updates only what is given; null clears the description', async () => {
    const { w } = await withProject();
    await w.environments.update(owner, 'p', 'dev', { name: 'Dev', description: 'text', comments_required: true }, recordingAudit());
    const renamed = await w.environments.update(owner, 'p', 'dev', { name: 'Development' }, recordingAudit());
    expect(renamed).toMatchObject({ name: 'Development', description: 'text', comments_required: true, confirmation_required: false });
    const cleared = await w.environments.update(owner, 'p', 'dev', { name: 'Development', description: null }, recordingAudit());
    expect(cleared.description).toBeNull();
    await expect(w.environments.update(owner, 'p', 'dev', { name: '' }, recordingAudit())).rejects.toBeInstanceOf(ValidationError);
    await expect(w.environments.update(owner, 'p', 'nope', { name: 'x' }, recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('applies grants: environment tokens see and change their environment only, and cannot create', async () => {
    const { w, project, dev } = await withProject();
    const prod = await w.environments.create(owner, 'p', { key: 'prod', name: 'Prod' }, recordingAudit());
    const devToken = principal({ type: 'management_token', scopes: ['projects:read', 'config:write'], access: granted([], [[project.ulid, dev.ulid]]) });
    expect((await w.environments.list(devToken, 'p', { per_page: 10 }, recordingAudit())).data.map((e) => e.key)).toEqual(['dev']);
    await expect(w.environments.get(devToken, 'p', 'prod', recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
    await expect(w.environments.create(devToken, 'p', { key: 'x', name: 'X' }, recordingAudit())).rejects.toBeInstanceOf(ForbiddenError);
    expect((await w.environments.update(devToken, 'p', 'dev', { name: 'Mine' }, recordingAudit())).name).toBe('Mine');
    await expect(w.environments.delete(devToken, 'p', 'prod', recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
    expect(w.stores.environments.rows.has(prod.ulid)).toBe(true);
  });

  it('deletes an environment and revokes tokens granted only that environment', async () => {
    const { w, dev } = await withProject();
    await w.environments.create(owner, 'p', { key: 'prod', name: 'Prod' }, recordingAudit());
    const onlyDev = await w.tokens.create(owner, { name: 'd', scopes: ['projects:read'], grants: { environments: [{ project: 'p', environment: 'dev' }] } }, recordingAudit());
    const wholeProject = await w.tokens.create(owner, { name: 'w', scopes: ['projects:read'], grants: { projects: ['p'] } }, recordingAudit());
    const both = await w.tokens.create(
      owner,
      { name: 'b', scopes: ['projects:read'], grants: { environments: [{ project: 'p', environment: 'dev' }, { project: 'p', environment: 'prod' }] } },
      recordingAudit(),
    );
    await w.keys.create(owner, 'p', 'dev', { kind: 'client' }, recordingAudit());
    const audit = recordingAudit();
    await w.environments.delete(owner, 'p', 'dev', audit);
    expect(audit.committed[0]).toMatchObject({ action: 'environment.deleted', subjectUlid: dev.ulid });
    expect(w.stores.keys.rows.size).toBe(0);
    expect(w.stores.tokens.rows.get(onlyDev.ulid)?.record.revoked_at).not.toBeNull();
    expect(w.stores.tokens.rows.get(wholeProject.ulid)?.record.revoked_at).toBeNull();
    expect(w.stores.tokens.rows.get(both.ulid)?.record.revoked_at).toBeNull();
  });
});
