import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { UnprocessableError, ValidationError } from '../../../src/http/errors.js';
import { FakeTargetStore } from '../../fakes/targets-store.js';
import { TargetPublisher } from '../../../src/features/targets/publisher.js';
import { targetServicesFrom, type TargetServices } from '../../../src/features/targets/services.js';
import type { Auditor } from '../../../src/features/shared/transactions.js';
import type { FlagEnvironment } from '../../../src/features/targets/types.js';
import { principal } from '../admin/principals.js';
import type { TargetRecord } from '../../../src/features/targets/store-types.js';
import { FakeLookupStore } from '../../fakes/lookup-store.js';

class ManualClock {
  t = Date.parse('2030-01-01T00:00:00.000Z');
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Whoever asks: the targets services check nothing of it (the path's resolution did). */
const caller = principal();

const ctx: FlagEnvironment = {
  project: { ulid: 'prj_1', key: 'shop' },
  flag: { ulid: 'flg_1', key: 'checkout' },
  environment: { ulid: 'env_1', key: 'production' },
};

/** The automatic rollout step interval of these tests. */
const hour = 3_600_000;
let store: FakeTargetStore;
let clock: ManualClock;
let service: TargetServices;
let audits: AuditSubject[];
let audit: Auditor;

function seed(options: { values?: boolean; comments?: boolean; confirmation?: boolean } = {}) {
  store = new FakeTargetStore();
  clock = new ManualClock();
  service = targetServicesFrom({
    db: store.db,
    tx: store.tx,
    store,
    lookups: new FakeLookupStore(() => ({ projects: [] })),
    clock,
    rolloutStepMs: hour,
  });
  audits = [];
  audit = {
    async commit(_trx, subject) {
      audits.push(subject);
    },
    describe() {},
    fresh() {
      return this;
    },
  };
  store.addEnvironment({
    ulid: 'env_1',
    comments_required: options.comments ?? false,
    confirmation_required: options.confirmation ?? false,
  });
  store.addFlag('flg_1', 'checkout');
  if (options.values !== false) {
    store.addValue({ ulid: 'val_true', flag_ulid: 'flg_1', is_default: false });
    store.addValue({ ulid: 'val_false', flag_ulid: 'flg_1', is_default: true });
  }
  store.addValue({ ulid: 'val_other', flag_ulid: 'flg_2', is_default: true });
}

async function draft(): Promise<TargetRecord> {
  return (await service.drafts.create(caller, ctx, audit)).target;
}

async function published(input: Parameters<TargetServices['publishing']['publish']>[3] = {}): Promise<TargetRecord> {
  const d = await draft();
  return service.publishing.publish(caller, ctx, d.ulid, input, audit);
}

function statuses(): Record<string, string> {
  return Object.fromEntries([...store.state.targets.values()].map((t) => [t.ulid, t.status]));
}

async function expectError<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

beforeEach(() => seed());

describe('createTarget', () => {
  it('with no published target uses the default value and audits target.created', async () => {
    const { target, cloned } = await service.drafts.create(caller, ctx, audit);
    expect(cloned).toBe(false);
    expect(target).toMatchObject({ status: 'draft', value_ulid: 'val_false', comment: null, rollout_mode: null });
    expect(target.ulid).toMatch(/^tgt_/);
    expect(audits).toEqual([expect.objectContaining({ action: 'target.created', subjectUlid: target.ulid, subjectType: 'target' })]);
    expect(store.revision('env_1')).toBe(1);
  });

  it('refuses a flag without values (422 standard envelope) and writes nothing', async () => {
    seed({ values: false });
    const error = await expectError(service.drafts.create(caller, ctx, audit), UnprocessableError);
    expect(error.message).toMatch(/no values/);
    expect(store.state.targets.size).toBe(0);
    expect(audits).toEqual([]);
  });

  it('copies the serving target: value and rules, not its rollout', async () => {
    const first = await draft();
    await service.drafts.update(caller, ctx, first.ulid, { value_ulid: 'val_true' }, audit);
    store.addRule({
      ulid: 'rul_a',
      target_ulid: first.ulid,
      value_ulid: 'val_false',
      description: 'beta',
      position: 1,
      criteria: [{ ulid: 'crt_a', selector: 'segment', comparer: 'in', values: ['beta'], segments: ['seg_1'] }],
    });
    await service.publishing.publish(
      caller,
      ctx,
      first.ulid,
      { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 30 },
      audit,
    );
    const { target, cloned } = await service.drafts.create(caller, ctx, audit);
    expect(cloned).toBe(true);
    expect(target).toMatchObject({ value_ulid: 'val_true', rollout_mode: null, rollout_percentage: null, rollout_status: null });
    const copied = store.rulesOf(target.ulid);
    expect(copied).toHaveLength(1);
    expect(copied[0]).toMatchObject({ description: 'beta', value_ulid: 'val_false', position: 1 });
    expect(copied[0]?.ulid).not.toBe('rul_a');
    expect(copied[0]?.criteria[0]).toMatchObject({ selector: 'segment', values: ['beta'], segments: ['seg_1'] });
    expect(copied[0]?.criteria[0]?.ulid).not.toBe('crt_a');
    expect(audits.at(-1)?.action).toBe('target.cloned');
  });
});

describe('updateTarget', () => {
  it('changes value and comment of a draft', async () => {
    const d = await draft();
    clock.advance(1000);
    const t = await service.drafts.update(caller, ctx, d.ulid, { value_ulid: 'val_true', comment: 'why' }, audit);
    expect(t).toMatchObject({ value_ulid: 'val_true', comment: 'why', status: 'draft' });
    expect(t.updated_at > d.updated_at).toBe(true);
    const cleared = await service.drafts.update(caller, ctx, d.ulid, { comment: null }, audit);
    expect(cleared).toMatchObject({ value_ulid: 'val_true', comment: null });
  });

  it('needs at least one field', async () => {
    const d = await draft();
    await expectError(service.drafts.update(caller, ctx, d.ulid, {}, audit), ValidationError);
  });

  it('refuses a value of another flag (field-keyed)', async () => {
    const d = await draft();
    const error = await expectError(service.drafts.update(caller, ctx, d.ulid, { value_ulid: 'val_other' }, audit), ValidationError);
    expect(Object.keys(error.errors)).toEqual(['value_ulid']);
    expect(store.state.targets.get(d.ulid)?.value_ulid).toBe('val_false');
  });

  it.each(['published', 'expired', 'scheduled'] as const)('refuses a %s target', async (status) => {
    const d = await draft();
    store.state.targets.get(d.ulid)!.status = status;
    await expectError(service.drafts.update(caller, ctx, d.ulid, { comment: 'x' }, audit), UnprocessableError);
    expect(store.state.targets.get(d.ulid)?.comment).toBeNull();
  });
});

describe('deleteTarget', () => {
  it('removes a draft and its rules', async () => {
    const d = await draft();
    store.addRule({ ulid: 'rul_x', target_ulid: d.ulid, value_ulid: 'val_true', description: '', position: 1, criteria: [] });
    await service.drafts.remove(caller, ctx, d.ulid, audit);
    expect(store.state.targets.has(d.ulid)).toBe(false);
    expect(store.rulesOf(d.ulid)).toEqual([]);
    expect(audits.at(-1)?.action).toBe('target.deleted');
  });

  it('removes a scheduled target', async () => {
    const d = await draft();
    await service.publishing.publish(caller, ctx, d.ulid, { scheduled_at: '2030-02-01T00:00:00.000Z' }, audit);
    await service.drafts.remove(caller, ctx, d.ulid, audit);
    expect(store.state.targets.size).toBe(0);
  });

  it('refuses published and expired targets', async () => {
    const a = await published();
    const b = await published();
    expect(statuses()).toEqual({ [a.ulid]: 'expired', [b.ulid]: 'published' });
    await expectError(service.drafts.remove(caller, ctx, a.ulid, audit), UnprocessableError);
    await expectError(service.drafts.remove(caller, ctx, b.ulid, audit), UnprocessableError);
    expect(statuses()).toEqual({ [a.ulid]: 'expired', [b.ulid]: 'published' });
  });
});

describe('publishTarget', () => {
  it('publishes, expires every older published target and bumps the revision once', async () => {
    const a = await published();
    expect(a).toMatchObject({ status: 'published', scheduled_at: null });
    expect(a.published_at).toBe(clock.now().toISOString());
    expect(store.revision('env_1')).toBe(2);
    const b = await published({ comment: 'second' });
    expect(b.comment).toBe('second');
    expect(statuses()).toEqual({ [a.ulid]: 'expired', [b.ulid]: 'published' });
    expect(store.revision('env_1')).toBe(3);
    expect(audits.filter((x) => x.action === 'target.published')).toHaveLength(2);
  });

  it('gives each publish a later published_at even within the same millisecond', async () => {
    const a = await published();
    const b = await published();
    expect(b.published_at! > a.published_at!).toBe(true);
  });

  it('schedules with a future scheduled_at, then publishes the scheduled target now', async () => {
    const d = await draft();
    const s = await service.publishing.publish(caller, ctx, d.ulid, { scheduled_at: '2030-01-02T00:00:00Z' }, audit);
    expect(s).toMatchObject({ status: 'scheduled', scheduled_at: '2030-01-02T00:00:00.000Z', published_at: null });
    expect(audits.at(-1)?.action).toBe('target.scheduled');
    expect(store.revision('env_1')).toBe(1);
    const p = await service.publishing.publish(caller, ctx, d.ulid, {}, audit);
    expect(p).toMatchObject({ status: 'published', scheduled_at: null });
    expect(store.revision('env_1')).toBe(2);
  });

  it('refuses a past scheduled_at (field-keyed)', async () => {
    const d = await draft();
    const error = await expectError(
      service.publishing.publish(caller, ctx, d.ulid, { scheduled_at: '2029-12-31T23:59:59Z' }, audit),
      ValidationError,
    );
    expect(Object.keys(error.errors)).toEqual(['scheduled_at']);
    expect(store.state.targets.get(d.ulid)?.status).toBe('draft');
  });

  it('requires a comment when the environment does (body or stored comment)', async () => {
    seed({ comments: true });
    const d = await draft();
    const error = await expectError(service.publishing.publish(caller, ctx, d.ulid, {}, audit), ValidationError);
    expect(error.errors.comment).toBeDefined();
    await expectError(service.publishing.publish(caller, ctx, d.ulid, { comment: '   ' }, audit), ValidationError);
    expect(store.state.targets.get(d.ulid)?.status).toBe('draft');
    await service.drafts.update(caller, ctx, d.ulid, { comment: 'stored' }, audit);
    expect((await service.publishing.publish(caller, ctx, d.ulid, {}, audit)).comment).toBe('stored');
  });

  it('refuses an environment requiring confirmation (standard envelope)', async () => {
    seed({ confirmation: true });
    const d = await draft();
    const error = await expectError(service.publishing.publish(caller, ctx, d.ulid, {}, audit), UnprocessableError);
    expect(error.message).toMatch(/confirmation/);
    expect(store.state.targets.get(d.ulid)?.status).toBe('draft');
  });

  it.each([
    [{ rollout_enabled: true }, ['rollout_mode']],
    [{ rollout_enabled: true, rollout_mode: 'manual' }, ['rollout_percentage']],
    [{ rollout_enabled: true, rollout_mode: 'automatic', rollout_percentage: 5 }, ['rollout_percentage']],
    [{ rollout_mode: 'manual' }, ['rollout_mode']],
    [{ rollout_enabled: false, rollout_percentage: 5 }, ['rollout_percentage']],
  ] as const)('rollout fields %j -> 422 on %j', async (body, fields) => {
    const d = await draft();
    const error = await expectError(service.publishing.publish(caller, ctx, d.ulid, body as never, audit), ValidationError);
    expect(Object.keys(error.errors)).toEqual(fields);
    expect(store.state.targets.get(d.ulid)?.status).toBe('draft');
  });

  it('with a rollout keeps the previous target published until completion', async () => {
    const a = await published();
    const b = await published({ rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 20 });
    expect(b).toMatchObject({ rollout_mode: 'manual', rollout_percentage: 20, rollout_status: 'active' });
    expect(statuses()).toEqual({ [a.ulid]: 'published', [b.ulid]: 'published' });
    const done = await service.rollouts.complete(caller, ctx, b.ulid, {}, audit);
    expect(done).toMatchObject({ rollout_percentage: 100, rollout_status: 'completed' });
    expect(statuses()).toEqual({ [a.ulid]: 'expired', [b.ulid]: 'published' });
  });

  it('starts an automatic rollout at 1 % with its step clock', async () => {
    const t = await published({ rollout_enabled: true, rollout_mode: 'automatic' });
    expect(t).toMatchObject({ rollout_mode: 'automatic', rollout_percentage: 1, rollout_status: 'active' });
    expect(store.state.targets.get(t.ulid)?.rollout_step_started_at).toBe(clock.now().toISOString());
  });

  it('keeps a rollout configured on the draft; rollout_enabled false removes it', async () => {
    const d = await draft();
    await service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'manual', rollout_percentage: 40 }, audit);
    const kept = await service.publishing.publish(caller, ctx, d.ulid, {}, audit);
    expect(kept).toMatchObject({ rollout_mode: 'manual', rollout_percentage: 40, rollout_status: 'active' });

    const e = await draft();
    await service.rollouts.create(caller, ctx, e.ulid, { rollout_mode: 'automatic' }, audit);
    // a's rollout is in progress: a plain publish ends it and expires it.
    const removed = await service.publishing.publish(caller, ctx, e.ulid, { rollout_enabled: false }, audit);
    expect(removed).toMatchObject({ rollout_mode: null, rollout_percentage: null, rollout_status: null });
    expect(statuses()).toEqual({ [kept.ulid]: 'expired', [e.ulid]: 'published' });
  });

  it('refuses a second rollout while one is in progress', async () => {
    await published({ rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
    const d = await draft();
    const before = structuredClone(store.state.targets);
    const error = await expectError(
      service.publishing.publish(caller, ctx, d.ulid, { rollout_enabled: true, rollout_mode: 'automatic' }, audit),
      UnprocessableError,
    );
    expect(error.message).toMatch(/in progress/);
    expect(store.state.targets).toEqual(before);
  });

  it('refuses published and expired targets', async () => {
    const a = await published();
    const b = await published();
    await expectError(service.publishing.publish(caller, ctx, a.ulid, {}, audit), UnprocessableError);
    await expectError(service.publishing.publish(caller, ctx, b.ulid, {}, audit), UnprocessableError);
    expect(statuses()).toEqual({ [a.ulid]: 'expired', [b.ulid]: 'published' });
  });

  it('racing publishes of ten drafts leave one published target', async () => {
    const drafts = [];
    for (let i = 0; i < 10; i++) drafts.push(await draft());
    const results = await Promise.allSettled(drafts.map((d) => service.publishing.publish(caller, ctx, d.ulid, {}, audit)));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const values = Object.values(statuses());
    expect(values.filter((s) => s === 'published')).toHaveLength(1);
    expect(values.filter((s) => s === 'expired')).toHaveLength(9);
    expect(store.revision('env_1')).toBe(11);
  });
});

describe('rollouts', () => {
  it('createRollout: manual and automatic on a draft; refused on others', async () => {
    const d = await draft();
    const t = await service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'automatic' }, audit);
    expect(t).toMatchObject({ rollout_mode: 'automatic', rollout_percentage: 1, rollout_status: 'active' });
    expect(audits.at(-1)?.action).toBe('target.rollout_initialized');
    await expectError(
      service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'manual', rollout_percentage: 5 }, audit),
      UnprocessableError,
    );
    const p = await published();
    await expectError(
      service.rollouts.create(caller, ctx, p.ulid, { rollout_mode: 'manual', rollout_percentage: 5 }, audit),
      UnprocessableError,
    );
  });

  it('createRollout validates the percentage per mode (field-keyed)', async () => {
    const d = await draft();
    const a = await expectError(service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'manual' }, audit), ValidationError);
    expect(Object.keys(a.errors)).toEqual(['rollout_percentage']);
    const b = await expectError(
      service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'automatic', rollout_percentage: 10 }, audit),
      ValidationError,
    );
    expect(Object.keys(b.errors)).toEqual(['rollout_percentage']);
    expect(store.state.targets.get(d.ulid)?.rollout_mode).toBeNull();
  });

  it('pause, resume and percentage changes follow the rollout state', async () => {
    const t = await published({ rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
    const rev = store.revision('env_1');
    expect((await service.rollouts.update(caller, ctx, t.ulid, { action: 'pause' }, audit)).rollout_status).toBe('paused');
    await expectError(service.rollouts.update(caller, ctx, t.ulid, { action: 'pause' }, audit), UnprocessableError);
    await expectError(service.rollouts.update(caller, ctx, t.ulid, { rollout_percentage: 50 }, audit), UnprocessableError);
    expect((await service.rollouts.update(caller, ctx, t.ulid, { action: 'resume' }, audit)).rollout_status).toBe('active');
    const notPaused = await expectError(service.rollouts.update(caller, ctx, t.ulid, { action: 'resume' }, audit), UnprocessableError);
    expect(notPaused.message).toMatch(/not paused/);
    expect(store.revision('env_1')).toBe(rev);
    expect((await service.rollouts.update(caller, ctx, t.ulid, { rollout_percentage: 50 }, audit)).rollout_percentage).toBe(50);
    expect(store.revision('env_1')).toBe(rev + 1);
  });

  it('updateRollout needs exactly one field and a published target', async () => {
    const d = await draft();
    await service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'manual', rollout_percentage: 10 }, audit);
    await expectError(service.rollouts.update(caller, ctx, d.ulid, {}, audit), ValidationError);
    await expectError(service.rollouts.update(caller, ctx, d.ulid, { action: 'pause', rollout_percentage: 3 }, audit), ValidationError);
    const e = await expectError(service.rollouts.update(caller, ctx, d.ulid, { action: 'pause' }, audit), UnprocessableError);
    expect(e.message).toBe('The target is not published.');
    const p = await published();
    const n = await expectError(service.rollouts.update(caller, ctx, p.ulid, { action: 'pause' }, audit), UnprocessableError);
    expect(n.message).toBe('The target has no active rollout.');
  });

  it('refuses a percentage change on an automatic rollout (field-keyed)', async () => {
    const t = await published({ rollout_enabled: true, rollout_mode: 'automatic' });
    const e = await expectError(service.rollouts.update(caller, ctx, t.ulid, { rollout_percentage: 50 }, audit), ValidationError);
    expect(Object.keys(e.errors)).toEqual(['rollout_percentage']);
    expect(store.state.targets.get(t.ulid)?.rollout_percentage).toBe(1);
  });

  it('deleteRollout on a published target serves it to everyone', async () => {
    const a = await published();
    const b = await published({ rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
    const rev = store.revision('env_1');
    const t = await service.rollouts.delete(caller, ctx, b.ulid, {}, audit);
    expect(t).toMatchObject({ rollout_mode: null, rollout_percentage: null, rollout_status: null, status: 'published' });
    expect(statuses()).toEqual({ [a.ulid]: 'expired', [b.ulid]: 'published' });
    expect(store.revision('env_1')).toBe(rev + 1);
    await expectError(service.rollouts.delete(caller, ctx, b.ulid, {}, audit), UnprocessableError);
    await expectError(service.rollouts.delete(caller, ctx, a.ulid, {}, audit), UnprocessableError);
  });

  it('deleteRollout on a draft only removes the configuration', async () => {
    const d = await draft();
    await service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'manual', rollout_percentage: 10 }, audit);
    const t = await service.rollouts.delete(caller, ctx, d.ulid, {}, audit);
    expect(t).toMatchObject({ status: 'draft', rollout_mode: null });
    expect(store.revision('env_1')).toBe(1);
  });

  it('completeRollout refuses drafts, targets without rollout and completed rollouts', async () => {
    const d = await draft();
    await service.rollouts.create(caller, ctx, d.ulid, { rollout_mode: 'manual', rollout_percentage: 10 }, audit);
    expect((await expectError(service.rollouts.complete(caller, ctx, d.ulid, {}, audit), UnprocessableError)).message).toBe(
      'The target is not published.',
    );
    const p = await service.publishing.publish(caller, ctx, d.ulid, {}, audit);
    await service.rollouts.complete(caller, ctx, p.ulid, {}, audit);
    expect((await expectError(service.rollouts.complete(caller, ctx, p.ulid, {}, audit), UnprocessableError)).message).toMatch(
      /already completed/,
    );
    const q = await published();
    expect((await expectError(service.rollouts.complete(caller, ctx, q.ulid, {}, audit), UnprocessableError)).message).toMatch(
      /no rollout/,
    );
  });
});

describe('TargetPublisher (system actions)', () => {
  let entries: Array<AuditSubject & { result: string }>;
  let publisher: TargetPublisher;

  beforeEach(() => {
    entries = [];
    const sink = {
      writeSystem: async (_db: unknown, subject: AuditSubject, result = 'success') => {
        entries.push({ ...subject, result });
        store.state.audit.push({ subject_ulid: subject.subjectUlid, action: subject.action, actor_type: 'system', result });
      },
    };
    publisher = new TargetPublisher(service.scheduledJobs, store, sink, {} as never, store.tx, clock);
  });

  it('publishes a due scheduled target once, as system', async () => {
    const old = await published();
    const d = await draft();
    await service.publishing.publish(caller, ctx, d.ulid, { scheduled_at: '2030-01-01T01:00:00Z' }, audit);
    expect(await publisher.publishDueTargets()).toEqual({ published: 0, refused: 0 });
    clock.advance(hour);
    expect(await publisher.publishDueTargets()).toEqual({ published: 1, refused: 0 });
    expect(statuses()).toEqual({ [old.ulid]: 'expired', [d.ulid]: 'published' });
    expect(store.state.targets.get(d.ulid)).toMatchObject({ scheduled_at: null, published_at: clock.now().toISOString() });
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'target.published',
        subjectType: 'target',
        subjectUlid: d.ulid,
        subjectLabel: 'checkout/production',
        result: 'success',
      }),
    ]);
    expect(await publisher.publishDueTargets()).toEqual({ published: 0, refused: 0 });
  });

  it('two runners racing publish a scheduled target exactly once', async () => {
    const d = await draft();
    await service.publishing.publish(caller, ctx, d.ulid, { scheduled_at: '2030-01-01T00:00:01Z' }, audit);
    clock.advance(1000);
    const results = await Promise.all([publisher.publishDueTargets(), publisher.publishDueTargets()]);
    expect(results.reduce((n, r) => n + r.published, 0)).toBe(1);
    expect(store.revision('env_1')).toBe(2);
  });

  it('a refused scheduled publish stays scheduled and is audited once', async () => {
    await published({ rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
    const d = await draft();
    await service.publishing.publish(
      caller,
      ctx,
      d.ulid,
      { scheduled_at: '2030-01-01T00:00:01Z', rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 5 },
      audit,
    );
    clock.advance(1000);
    expect(await publisher.publishDueTargets()).toEqual({ published: 0, refused: 1 });
    expect(await publisher.publishDueTargets()).toEqual({ published: 0, refused: 1 });
    expect(store.state.targets.get(d.ulid)?.status).toBe('scheduled');
    expect(entries).toEqual([expect.objectContaining({ action: 'target.published', subjectUlid: d.ulid, result: 'invalid' })]);
  });

  it('advances an automatic rollout one step per interval and completes it at 100', async () => {
    const a = await published();
    const t = await published({ rollout_enabled: true, rollout_mode: 'automatic' });
    const seen: number[] = [];
    expect(await publisher.advanceRollouts()).toEqual({ advanced: 0, completed: 0 });
    for (let i = 0; i < 5; i++) {
      clock.advance(hour);
      await publisher.advanceRollouts();
      seen.push(store.state.targets.get(t.ulid)!.rollout_percentage!);
    }
    expect(seen).toEqual([5, 10, 25, 50, 100]);
    expect(store.state.targets.get(t.ulid)).toMatchObject({ rollout_status: 'completed', rollout_step_started_at: null });
    expect(statuses()).toEqual({ [a.ulid]: 'expired', [t.ulid]: 'published' });
    expect(entries.map((e) => e.action)).toEqual([
      'target.rollout_updated',
      'target.rollout_updated',
      'target.rollout_updated',
      'target.rollout_updated',
      'target.rollout_completed',
    ]);
    expect(entries.every((e) => e.subjectUlid === t.ulid && e.result === 'success')).toBe(true);
  });

  it('a paused automatic rollout does not advance; resume restarts the interval', async () => {
    const t = await published({ rollout_enabled: true, rollout_mode: 'automatic' });
    clock.advance(hour / 2);
    await service.rollouts.update(caller, ctx, t.ulid, { action: 'pause' }, audit);
    clock.advance(hour);
    expect(await publisher.advanceRollouts()).toEqual({ advanced: 0, completed: 0 });
    await service.rollouts.update(caller, ctx, t.ulid, { action: 'resume' }, audit);
    clock.advance(hour / 2);
    expect(await publisher.advanceRollouts()).toEqual({ advanced: 0, completed: 0 });
    clock.advance(hour / 2);
    expect(await publisher.advanceRollouts()).toEqual({ advanced: 1, completed: 0 });
    expect(store.state.targets.get(t.ulid)?.rollout_percentage).toBe(5);
  });
});
