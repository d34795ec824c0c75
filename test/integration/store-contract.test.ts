/**
 * One set of expectations for a store interface, held by its in-memory fake (test/fakes, used by
 * the service unit tests) and by its Knex store on SQLite and MariaDB: a unit test on the fake
 * then says something about the real store too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KnexAuditLogStore } from '../../src/features/audit-logs/store.js';
import type { AuditLogStore, AuditQuery, ManagementAuditRow, PublicAuditStoredRow } from '../../src/features/audit-logs/store-types.js';
import { ResourceAccess } from '../../src/auth/principal.js';
import type { CompiledFlag } from '../../src/engine/index.js';
import { KnexFlagStore } from '../../src/features/flags/store.js';
import type { FlagListFilter, FlagRecord, FlagStore, FlagValueInsert } from '../../src/features/flags/store-types.js';
import { normaliseDisplay } from '../../src/features/flag-values/display.js';
import { KnexFlagValueStore } from '../../src/features/flag-values/store.js';
import type { FlagValueRecord, FlagValueStore } from '../../src/features/flag-values/store-types.js';
import { KnexIdempotencyStore } from '../../src/features/idempotency/store.js';
import { KnexRulesStore } from '../../src/features/rules/store.js';
import type {
  CriterionRecord,
  ResolvedTarget,
  RuleRecord,
  RuleRow,
  RulesStore,
  SegmentLink,
  TargetPath,
} from '../../src/features/rules/store-types.js';
import { KnexSegmentsStore } from '../../src/features/segments/store.js';
import { KnexTargetStore } from '../../src/features/targets/store.js';
import type { TargetRecord, TargetStore } from '../../src/features/targets/store-types.js';
import type { SegmentRecord, SegmentsStore } from '../../src/features/segments/store-types.js';
import type { EnvironmentRef, FlagRef, LookupStore, ProjectRef } from '../../src/features/shared/lookup.js';
import { KnexLookupStore } from '../../src/features/shared/lookup-store.js';
import { knexTransactor, type Transactor } from '../../src/features/shared/transactions.js';
import { NotFoundError, ValidationError } from '../../src/http/errors.js';
import type { Db } from '../../src/storage/db.js';
import type { Page, PageRequest } from '../../src/http/pagination.js';
import { KnexConfigSource } from '../../src/runtime/config-loader.js';
import type { ConfigSource } from '../../src/runtime/config-source.js';
import { hourOf, type TelemetryBatch } from '../../src/runtime/telemetry-buffer.js';
import { KnexTelemetryStore, type TelemetryStore } from '../../src/runtime/telemetry-store.js';
import type { IdempotencyScope, IdempotencyStore } from '../../src/features/idempotency/store-types.js';
import { FakeAuditLogStore } from '../fakes/audit-logs-store.js';
import { FakeConfigSource, FakeTelemetryStore } from '../fakes/evaluation-store.js';
import { FakeFlagValueStore } from '../fakes/flag-values-store.js';
import { FakeFlagStore } from '../fakes/flags-store.js';
import { FakeIdempotencyStore } from '../fakes/idempotency-store.js';
import { FakeRulesStore } from '../fakes/rules-store.js';
import { FakeSegmentsStore } from '../fakes/segments-store.js';
import { FakeTargetStore } from '../fakes/targets-store.js';
import { fakeDb } from '../fakes/transactor.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { insertPublicAuditRows } from '../support/public-audit-rows.js';

/** An environment as the usage reads name it: its key, and a ulid (the fakes derive theirs from the key). */
const inProduction = { environment_key: 'production', environment_ulid: expect.stringMatching(/^env_/) };

interface StoreUnderTest<T> {
  name: string;
  open(): Promise<{ store: T; close(): Promise<void> }>;
}

/** The fake, then the Knex store on every test database. */
function implementations<T>(fake: () => T, real: (app: TestApp) => T): StoreUnderTest<T>[] {
  return [
    { name: 'fake', open: async () => ({ store: fake(), close: async () => {} }) },
    ...testDatabases.map((db) => ({
      name: db.name,
      async open() {
        const app = await startTestApp(db);
        return { store: real(app), close: () => app.close() };
      },
    })),
  ];
}

let scopes = 0;
const scope = (overrides: Partial<IdempotencyScope> = {}): IdempotencyScope => ({
  tokenUlid: 'tok_01HZZZZZZZZZZZZZZZZZZZZZZZ',
  method: 'POST',
  pathDigest: 'a'.repeat(64),
  key: `key-${++scopes}`,
  ...overrides,
});

for (const implementation of implementations<{ store: IdempotencyStore; db: Db }>(
  () => ({ store: new FakeIdempotencyStore(), db: fakeDb }),
  (app) => ({ store: new KnexIdempotencyStore(), db: app.knex }),
)) {
  describe(`IdempotencyStore contract [${implementation.name}]`, () => {
    let store: IdempotencyStore;
    let db: Db;
    let close: () => Promise<void>;
    beforeAll(async () => {
      let opened: { store: IdempotencyStore; db: Db };
      ({ store: opened, close } = await implementation.open());
      ({ store, db } = opened);
    });
    afterAll(async () => {
      await close?.();
    });

    it('claims a scope once; a second claim of the same scope is refused', async () => {
      const s = scope();
      const first = await store.claim(db, s, 'd1', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      expect(first.claimed).toBe(true);
      expect(await store.claim(db, s, 'd2', '2026-01-01T00:00:01.000Z', '2026-01-02T00:00:00.000Z')).toEqual({ claimed: false });
      // Any other part of the scope makes it another record.
      for (const other of [{ method: 'PUT' }, { pathDigest: 'b'.repeat(64) }, { tokenUlid: 'tok_01HYYYYYYYYYYYYYYYYYYYYYYY' }]) {
        expect((await store.claim(db, { ...s, ...other }, 'd1', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).claimed).toBe(
          true,
        );
      }
    });

    it('finds a claim in progress, then its stored response once completed', async () => {
      const s = scope();
      expect(await store.find(db, s)).toBeUndefined();
      const claim = await store.claim(db, s, 'digest', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      if (!claim.claimed) throw new Error('not claimed');
      expect(await store.find(db, s)).toEqual({
        id: claim.id,
        requestDigest: 'digest',
        state: 'in_progress',
        responseStatus: null,
        responseBody: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2026-01-02T00:00:00.000Z',
      });
      await store.complete(db, claim.id, 201, '{"status":"success"}');
      expect(await store.find(db, s)).toMatchObject({ state: 'completed', responseStatus: 201, responseBody: '{"status":"success"}' });
      // A completed record is neither completed again nor released.
      await store.complete(db, claim.id, 500, null);
      await store.release(db, claim.id);
      expect(await store.find(db, s)).toMatchObject({ state: 'completed', responseStatus: 201 });
    });

    it('releases a claim in progress, so the scope can be claimed again', async () => {
      const s = scope();
      const claim = await store.claim(db, s, 'digest', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
      if (!claim.claimed) throw new Error('not claimed');
      await store.release(db, claim.id);
      expect(await store.find(db, s)).toBeUndefined();
      expect((await store.claim(db, s, 'digest', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).claimed).toBe(true);
    });

    it('removes a record only when expired or abandoned in progress', async () => {
      const fresh = scope();
      const done = scope();
      const claimFresh = await store.claim(db, fresh, 'd', '2026-01-01T10:00:00.000Z', '2026-01-02T10:00:00.000Z');
      const claimDone = await store.claim(db, done, 'd', '2026-01-01T10:00:00.000Z', '2026-01-02T10:00:00.000Z');
      if (!claimFresh.claimed || !claimDone.claimed) throw new Error('not claimed');
      await store.complete(db, claimDone.id, 200, null);
      // Neither expired, and the claim in progress is younger than the abandonment limit.
      expect(await store.removeIfStale(db, claimFresh.id, '2026-01-01T11:00:00.000Z', '2026-01-01T09:59:59.999Z')).toBe(false);
      // Abandoned: in progress and created at the limit. A completed record is not abandoned.
      expect(await store.removeIfStale(db, claimDone.id, '2026-01-01T11:00:00.000Z', '2026-01-01T10:00:00.000Z')).toBe(false);
      expect(await store.removeIfStale(db, claimFresh.id, '2026-01-01T11:00:00.000Z', '2026-01-01T10:00:00.000Z')).toBe(true);
      expect(await store.find(db, fresh)).toBeUndefined();
      // Expired at its expiry time exactly.
      expect(await store.removeIfStale(db, claimDone.id, '2026-01-02T10:00:00.000Z', '2026-01-01T00:00:00.000Z')).toBe(true);
      expect(await store.find(db, done)).toBeUndefined();
      expect(await store.removeIfStale(db, claimDone.id, '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z')).toBe(false);
    });

    it('purges expired records in batches, and nothing else', async () => {
      const now = '2030-06-01T00:00:00.000Z';
      // Whatever earlier tests left expires before 2030; this purge empties it first.
      while ((await store.purgeExpired(db, now, 100)) > 0);
      const expired = [scope(), scope(), scope()];
      const live = scope();
      for (const s of expired) await store.claim(db, s, 'd', '2030-05-01T00:00:00.000Z', '2030-05-31T23:59:59.999Z');
      await store.claim(db, live, 'd', '2030-05-01T00:00:00.000Z', '2030-06-01T00:00:00.001Z');
      expect(await store.purgeExpired(db, now, 2)).toBe(2);
      expect(await store.purgeExpired(db, now, 2)).toBe(1);
      expect(await store.purgeExpired(db, now, 2)).toBe(0);
      for (const s of expired) expect(await store.find(db, s)).toBeUndefined();
      expect(await store.find(db, live)).toBeDefined();
    });
  });
}

/** The audit-log store, and how a test puts rows and projects in front of it. */
interface AuditLogsUnderTest {
  store: AuditLogStore;
  db: Db;
  addManagement(rows: ManagementAuditRow[]): Promise<void>;
  addPublic(rows: PublicAuditStoredRow[]): Promise<void>;
  /** A project with one environment; their ulids. */
  addProject(key: string): Promise<{ ulid: string; environmentUlid: string }>;
}

function fakeAuditLogs(): AuditLogsUnderTest {
  const store = new FakeAuditLogStore();
  let projects = 0;
  return {
    store,
    db: fakeDb,
    addManagement: async (rows) => void store.management.push(...rows),
    addPublic: async (rows) => void store.public.push(...rows),
    async addProject(key) {
      const ulid = `prj_01J0000000000000000000${String(++projects).padStart(4, '0')}`;
      const environmentUlid = `env_01J0000000000000000000${String(projects).padStart(4, '0')}`;
      store.projects.push(ulid);
      store.environments.push({ ulid: environmentUlid, projectUlid: ulid });
      store.projectKeys.set(ulid, key);
      return { ulid, environmentUlid };
    },
  };
}

function knexAuditLogs(app: TestApp): AuditLogsUnderTest {
  return {
    store: new KnexAuditLogStore(app.composition.core.dialect),
    db: app.knex,
    addManagement: async (rows) => void (await app.knex('audit_entries').insert(rows)),
    addPublic: async (rows) =>
      insertPublicAuditRows(
        app.knex,
        rows.map((row) => ({ ...row, http_method: 'GET', http_path: '/v1/flags' })),
      ),
    async addProject(key) {
      const created = await app.mgmt('POST', '/projects', { key, name: key, environments: [{ key: 'production', name: 'Production' }] });
      if (created.status !== 200) throw new Error(JSON.stringify(created.body));
      const environment = await app.knex('environments').where('project_ulid', created.body.data.ulid).first('ulid');
      return { ulid: created.body.data.ulid, environmentUlid: environment.ulid };
    },
  };
}

const auditUlid = (n: number) => `aud_01J${String(n).padStart(23, '0')}`;
const publicUlid = (n: number) => `pae_01J${String(n).padStart(23, '0')}`;

function managementRow(n: number, overrides: Partial<ManagementAuditRow> = {}): ManagementAuditRow {
  return {
    ulid: auditUlid(n),
    created_at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
    actor_type: 'account',
    actor_ulid: 'usr_01J00000000000000000000001',
    actor_name: 'Ada',
    actor_email: 'ada@example.com',
    token_ulid: null,
    token_name: null,
    http_method: 'POST',
    http_path: '/management/v1/projects',
    action: 'project.created',
    subject_type: 'project',
    subject_ulid: 'prj_01J00000000000000000000001',
    subject_label: 'shop',
    result: 'success',
    status_code: 200,
    project_ulid: null,
    environment_ulid: null,
    changes: null,
    request_ulid: null,
    request_action: null,
    ...overrides,
  };
}

function publicRow(n: number, overrides: Partial<PublicAuditStoredRow> = {}): PublicAuditStoredRow {
  return {
    ulid: publicUlid(n),
    created_at: '2026-01-01T00:00:00.000Z',
    actor_type: 'api_key',
    actor_ulid: 'key_01J00000000000000000000001',
    environment_ulid: null,
    environment_key: null,
    project_ulid: null,
    action: 'flag.evaluated',
    subject_type: 'flag',
    subject_ulid: null,
    subject_label: null,
    result: 'success',
    status_code: 200,
    count: 1,
    ...overrides,
  };
}

const everything = { limit: 100, sort: 'created_at_asc', visibility: null } as const;
const ulidsOf = (rows: Array<{ ulid: string }>) => rows.map((row) => row.ulid);

for (const implementation of implementations<AuditLogsUnderTest>(fakeAuditLogs, knexAuditLogs)) {
  describe(`AuditLogStore contract [${implementation.name}]`, () => {
    let logs: AuditLogsUnderTest;
    let store: AuditLogStore;
    let close: () => Promise<void>;
    let projects = 0;
    beforeAll(async () => {
      ({ store: logs, close } = await implementation.open());
      store = logs.store;
    });
    afterAll(async () => {
      await close?.();
    });
    beforeEach(async () => {
      // Each test starts from empty logs (the app's own entries included).
      await store.purge(logs.db, 'management', 'zzz', 1_000_000);
      await store.purge(logs.db, 'public', 'zzz', 1_000_000);
    });

    it('lists in ulid order either way, from a cursor, bounded by from/to (inclusive) and the limit', async () => {
      await logs.addManagement([3, 1, 5, 2, 4].map((n) => managementRow(n)));
      expect(ulidsOf(await store.listManagement(logs.db, everything))).toEqual([1, 2, 3, 4, 5].map(auditUlid));
      expect(ulidsOf(await store.listManagement(logs.db, { ...everything, sort: 'created_at_desc' }))).toEqual(
        [5, 4, 3, 2, 1].map(auditUlid),
      );
      expect(ulidsOf(await store.listManagement(logs.db, { ...everything, after: auditUlid(2), limit: 2 }))).toEqual([3, 4].map(auditUlid));
      expect(ulidsOf(await store.listManagement(logs.db, { ...everything, sort: 'created_at_desc', after: auditUlid(4) }))).toEqual(
        [3, 2, 1].map(auditUlid),
      );
      expect(ulidsOf(await store.listManagement(logs.db, { ...everything, fromUlid: auditUlid(2), toUlid: auditUlid(4) }))).toEqual(
        [2, 3, 4].map(auditUlid),
      );
    });

    it('returns the management rows as written', async () => {
      const row = managementRow(1, {
        token_ulid: 'mgt_01J00000000000000000000001',
        token_name: 'CI',
        project_ulid: 'prj_01J00000000000000000000001',
        environment_ulid: 'env_01J00000000000000000000001',
        changes: '{"after":{"key":"shop"}}',
        actor_email: null,
      });
      await logs.addManagement([row]);
      expect(await store.listManagement(logs.db, everything)).toEqual([row]);
    });

    it('filters the management log by each field exactly', async () => {
      const other = 'prj_01J00000000000000000000002';
      await logs.addManagement([
        managementRow(1),
        managementRow(2, { action: 'flag.created', subject_type: 'flag', subject_ulid: 'flg_01J00000000000000000000001' }),
        managementRow(3, { result: 'failure', status_code: 422 }),
        managementRow(4, { actor_ulid: 'usr_01J00000000000000000000002', token_ulid: 'mgt_01J00000000000000000000001' }),
        managementRow(5, { project_ulid: other, environment_ulid: 'env_01J00000000000000000000002' }),
        managementRow(6, { project_ulid: other }),
      ]);
      const only = async (filter: Partial<AuditQuery>) => ulidsOf(await store.listManagement(logs.db, { ...everything, ...filter }));
      expect(await only({ action: 'flag.created' })).toEqual([auditUlid(2)]);
      expect(await only({ subjectType: 'flag' })).toEqual([auditUlid(2)]);
      expect(await only({ subjectUlid: 'flg_01J00000000000000000000001' })).toEqual([auditUlid(2)]);
      expect(await only({ result: 'failure' })).toEqual([auditUlid(3)]);
      expect(await only({ actorUlid: 'usr_01J00000000000000000000002' })).toEqual([auditUlid(4)]);
      expect(await only({ tokenUlid: 'mgt_01J00000000000000000000001' })).toEqual([auditUlid(4)]);
      expect(await only({ projectUlid: other })).toEqual([auditUlid(5), auditUlid(6)]);
      expect(await only({ environmentUlid: 'env_01J00000000000000000000002' })).toEqual([auditUlid(5)]);
      expect(await only({ action: 'FLAG.CREATED' })).toEqual([]);
    });

    it('tells reads (GET, HEAD, evaluations, plans) from changes (other methods, system actions)', async () => {
      await logs.addManagement([
        managementRow(1, { http_method: 'GET', action: 'project.read' }),
        managementRow(2, { http_method: 'HEAD', action: 'project.read' }),
        managementRow(3, { http_method: 'POST', action: 'flag.evaluated' }),
        managementRow(4, { http_method: 'POST', action: 'project.planned' }),
        managementRow(5, { http_method: 'POST', action: 'project.created' }),
        managementRow(6, { http_method: '', action: 'target.rollout_updated', actor_type: 'system' }),
      ]);
      expect(ulidsOf(await store.listManagement(logs.db, { ...everything, kind: 'reads' }))).toEqual([1, 2, 3, 4].map(auditUlid));
      expect(ulidsOf(await store.listManagement(logs.db, { ...everything, kind: 'changes' }))).toEqual([5, 6].map(auditUlid));
    });

    it('shows a restricted caller the entries of its projects, of its environments or of none', async () => {
      const a = 'prj_01J00000000000000000000001';
      const b = 'prj_01J00000000000000000000002';
      const envA1 = 'env_01J00000000000000000000001';
      const envA2 = 'env_01J00000000000000000000002';
      await logs.addManagement([
        managementRow(1, { project_ulid: a }),
        managementRow(2, { project_ulid: a, environment_ulid: envA1 }),
        managementRow(3, { project_ulid: a, environment_ulid: envA2 }),
        managementRow(4, { project_ulid: b }),
        managementRow(5),
      ]);
      const seen = async (projects: string[], environments: string[]) =>
        ulidsOf(await store.listManagement(logs.db, { ...everything, visibility: { projects, environments } }));
      expect(await seen([a], [envA1])).toEqual([1, 2].map(auditUlid));
      expect(await seen([a], [])).toEqual([auditUlid(1)]);
      expect(await seen([a, b], [envA1, envA2])).toEqual([1, 2, 3, 4].map(auditUlid));
      expect(await seen([], [envA1])).toEqual([]);
    });

    it('lists the public log with the same filters, ignoring the environment filter, rows as written', async () => {
      const project = 'prj_01J00000000000000000000001';
      const rows = [
        publicRow(1, {
          project_ulid: project,
          environment_ulid: 'env_01J00000000000000000000001',
          environment_key: 'production',
          count: 7,
        }),
        publicRow(2, { action: 'flag.used', subject_ulid: 'flg_01J00000000000000000000001', subject_label: 'checkout' }),
        publicRow(3, { result: 'failure', status_code: 401, actor_ulid: null }),
      ];
      await logs.addPublic(rows);
      expect(await store.listPublic(logs.db, everything)).toEqual(rows);
      const only = async (filter: Partial<AuditQuery>) => ulidsOf(await store.listPublic(logs.db, { ...everything, ...filter }));
      expect(await only({ projectUlid: project })).toEqual([publicUlid(1)]);
      expect(await only({ action: 'flag.used' })).toEqual([publicUlid(2)]);
      expect(await only({ result: 'failure' })).toEqual([publicUlid(3)]);
      expect(await only({ environmentUlid: 'env_01J00000000000000000000009' })).toEqual([1, 2, 3].map(publicUlid));
      expect(await only({ sort: 'created_at_desc', after: publicUlid(3), limit: 1 })).toEqual([publicUlid(2)]);
    });

    it('finds a project by its exact key, and lists every project and environment', async () => {
      const key = `audit-contract-${++projects}`;
      const project = await logs.addProject(key);
      expect(await store.findProjectUlid(logs.db, key)).toBe(project.ulid);
      expect(await store.findProjectUlid(logs.db, `${key}-x`)).toBeUndefined();
      const listed = await store.listProjectsAndEnvironments(logs.db);
      expect(listed.projects).toContain(project.ulid);
      expect(listed.environments).toContainEqual({ ulid: project.environmentUlid, projectUlid: project.ulid });
    });

    it('purges entries below a ulid, oldest first, at most a batch at a time', async () => {
      await logs.addManagement([1, 2, 3, 4].map((n) => managementRow(n)));
      await logs.addPublic([1, 2].map((n) => publicRow(n)));
      expect(await store.purge(logs.db, 'management', auditUlid(4), 2)).toBe(2);
      expect(ulidsOf(await store.listManagement(logs.db, everything))).toEqual([3, 4].map(auditUlid));
      expect(await store.purge(logs.db, 'management', auditUlid(4), 2)).toBe(1);
      expect(await store.purge(logs.db, 'management', auditUlid(4), 2)).toBe(0);
      expect(ulidsOf(await store.listManagement(logs.db, everything))).toEqual([auditUlid(4)]);
      // The other log is untouched.
      expect(ulidsOf(await store.listPublic(logs.db, everything))).toEqual([1, 2].map(publicUlid));
    });
  });
}

/** The segments store, and how a test puts projects and rules naming a segment in front of it. */
interface SegmentsUnderTest {
  /** The path lookups over the same rows (the fake's own, the Knex store's tables). */
  lookups: LookupStore;
  /** What reads run on, and the transactions writes run in (the fake's roll its state back). */
  db: Db;
  tx: Transactor;
  store: SegmentsStore;
  addProject(key: string): Promise<ProjectRef>;
  /** A flag of the project whose target, in `status`, has a rule naming the segment. */
  addReference(project: ProjectRef, segment: SegmentRecord, flagKey: string, status: 'draft' | 'expired'): Promise<void>;
  /** The project's environment revision. */
  revisionOf(project: ProjectRef): Promise<number>;
}

function fakeSegments(): SegmentsUnderTest {
  const store = new FakeSegmentsStore();
  let projects = 0;
  return {
    store,
    db: fakeDb,
    tx: store.tx,
    lookups: store.lookups,
    async addProject(key) {
      const project = { ulid: `prj_01J1000000000000000000${String(++projects).padStart(4, '0')}`, key, name: key };
      store.state.projects.push(project);
      return project;
    },
    addReference: async (_project, segment, flagKey, status) =>
      void store.state.references.push({ segment_ulid: segment.ulid, flag_key: flagKey, target_status: status }),
    revisionOf: async (project) => store.state.revisions[project.ulid] ?? 0,
  };
}

function knexSegments(app: TestApp): SegmentsUnderTest {
  return {
    store: new KnexSegmentsStore(app.composition.core.dialect),
    db: app.knex,
    tx: knexTransactor(app.knex),
    lookups: new KnexLookupStore(),
    async addProject(key) {
      const created = await app.mgmt('POST', '/projects', { key, name: key, environments: [{ key: 'production', name: 'Production' }] });
      if (created.status !== 200) throw new Error(JSON.stringify(created.body));
      return { ulid: created.body.data.ulid, key, name: key };
    },
    async addReference(project, segment, flagKey, status) {
      const flags = `/projects/${project.key}/flags`;
      await app.mgmt('POST', flags, { key: flagKey, name: flagKey, type: 'boolean' });
      const values = (await app.mgmt('GET', `${flags}/${flagKey}/values`)).body.data as Array<{ ulid: string; display: string }>;
      const targets = `${flags}/${flagKey}/environments/production/targets`;
      const target = (await app.mgmt('POST', targets)).body.data.ulid as string;
      const rule = await app.mgmt('POST', `${targets}/${target}/rules`, {
        value_ulid: values.find((v) => v.display === 'true')!.ulid,
        description: 'Segment',
        criteria: [{ selector: 'segment', comparer: 'in', values: [segment.key] }],
      });
      if (rule.status !== 200) throw new Error(JSON.stringify(rule.body));
      // An expired target is history: only a newer publish makes one, so the fixture sets it.
      if (status === 'expired') await app.knex('targets').where('ulid', target).update({ status: 'expired' });
    },
    async revisionOf(project) {
      const row = await app.knex('environments').where('project_ulid', project.ulid).max({ revision: 'revision' }).first();
      return Number(row?.revision ?? 0);
    },
  };
}

let segmentCount = 0;
function segmentRecord(project: ProjectRef, key: string, overrides: Partial<SegmentRecord> = {}): SegmentRecord {
  const n = String(++segmentCount).padStart(4, '0');
  return {
    ulid: `seg_01J2000000000000000000${n}`,
    project_ulid: project.ulid,
    key,
    name: `Segment ${key}`,
    description: null,
    included: ['u-1', 'U-1'],
    excluded: [],
    rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] } as never] }],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

for (const implementation of implementations<SegmentsUnderTest>(fakeSegments, knexSegments)) {
  describe(`SegmentsStore contract [${implementation.name}]`, () => {
    let segments: SegmentsUnderTest;
    let store: SegmentsStore;
    let close: () => Promise<void>;
    let projects = 0;
    const everyone = ResourceAccess.unrestricted();
    const newProject = () => segments.addProject(`segments-contract-${++projects}`);
    const insert = (segment: SegmentRecord) => segments.tx.transaction((trx) => store.insertSegment(trx, segment));
    beforeAll(async () => {
      ({ store: segments, close } = await implementation.open());
      store = segments.store;
    });
    afterAll(async () => {
      await close?.();
    });

    it('resolves a project by its exact key, within the caller’s grants', async () => {
      const project = await newProject();
      expect(await segments.lookups.findProject(segments.db, everyone, project.key)).toEqual(project);
      await expect(segments.lookups.findProject(segments.db, everyone, `${project.key}-x`)).rejects.toThrow(NotFoundError);
      const elsewhere = new ResourceAccess(new Set(['prj_01J99999999999999999999999']), null);
      await expect(segments.lookups.findProject(segments.db, elsewhere, project.key)).rejects.toThrow(NotFoundError);
    });

    it('stores a segment as given and finds it by project and exact key', async () => {
      const project = await newProject();
      const other = await newProject();
      const segment = segmentRecord(project, 'testers', { description: 'Who tests' });
      await insert(segment);
      expect(await store.findSegment(segments.db, project.ulid, 'testers')).toEqual(segment);
      expect(await store.findSegment(segments.db, project.ulid, 'Testers')).toBeUndefined();
      expect(await store.findSegment(segments.db, other.ulid, 'testers')).toBeUndefined();
      // The same key in another project is another segment.
      await insert(segmentRecord(other, 'testers'));
    });

    it('refuses a key the project already has, as a validation error on key, and keeps the first', async () => {
      const project = await newProject();
      const first = segmentRecord(project, 'beta');
      await insert(first);
      const error = await insert(segmentRecord(project, 'beta', { name: 'Second' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(Object.keys((error as ValidationError).errors)).toEqual(['key']);
      expect(await store.findSegment(segments.db, project.ulid, 'beta')).toEqual(first);
    });

    it('updates all but ulid, project, key and creation time; deletes', async () => {
      const project = await newProject();
      const segment = segmentRecord(project, 'gamma');
      await insert(segment);
      const changed = {
        ...segment,
        key: 'other-key',
        project_ulid: 'prj_01J99999999999999999999999',
        created_at: '2030-01-01T00:00:00.000Z',
        name: 'Renamed',
        description: 'Now described',
        included: [],
        excluded: ['u-2'],
        rules: [],
        updated_at: '2026-02-01T00:00:00.000Z',
      };
      await segments.tx.transaction((trx) => store.updateSegment(trx, changed));
      expect(await store.findSegment(segments.db, project.ulid, 'gamma')).toEqual({
        ...changed,
        key: 'gamma',
        project_ulid: project.ulid,
        created_at: segment.created_at,
      });
      await segments.tx.transaction((trx) => store.deleteSegment(trx, segment.ulid));
      expect(await store.findSegment(segments.db, project.ulid, 'gamma')).toBeUndefined();
    });

    it('rolls back everything a transaction wrote when it throws', async () => {
      const project = await newProject();
      const before = await segments.revisionOf(project);
      const failed = segments.tx.transaction(async (trx) => {
        await store.insertSegment(trx, segmentRecord(project, 'rolled-back'));
        await store.bumpProjectRevisions(trx, project.ulid);
        throw new Error('stop');
      });
      await expect(failed).rejects.toThrow('stop');
      expect(await store.findSegment(segments.db, project.ulid, 'rolled-back')).toBeUndefined();
      expect(await segments.revisionOf(project)).toBe(before);
      await segments.tx.transaction((trx) => store.bumpProjectRevisions(trx, project.ulid));
      expect(await segments.revisionOf(project)).toBe(before + 1);
    });

    it('lists a project’s segments in creation order, a page at a time, both ways', async () => {
      const project = await newProject();
      const made = ['a', 'b', 'c', 'd', 'e'].map((key) => segmentRecord(project, key));
      for (const segment of made) await insert(segment);
      await insert(segmentRecord(await newProject(), 'not-listed'));
      const first = await store.listSegments(segments.db, project.ulid, { per_page: 2 });
      expect(first.data.map((s) => s.key)).toEqual(['a', 'b']);
      expect(first.meta.prev_cursor).toBeNull();
      const second = await store.listSegments(segments.db, project.ulid, { per_page: 2, cursor: first.meta.next_cursor! });
      expect(second.data.map((s) => s.key)).toEqual(['c', 'd']);
      const last = await store.listSegments(segments.db, project.ulid, { per_page: 2, cursor: second.meta.next_cursor! });
      expect(last.data).toEqual([made[4]]);
      expect(last.meta.next_cursor).toBeNull();
      const back = await store.listSegments(segments.db, project.ulid, { per_page: 2, cursor: last.meta.prev_cursor! });
      expect(back.data.map((s) => s.key)).toEqual(['c', 'd']);
    });

    it('names the flags whose live targets have a rule naming the segment, not expired ones, once each, by key', async () => {
      const project = await newProject();
      const segment = segmentRecord(project, 'named');
      const unused = segmentRecord(project, 'unused');
      await insert(segment);
      await insert(unused);
      await segments.addReference(project, segment, 'zeta', 'draft');
      await segments.addReference(project, segment, 'alpha', 'draft');
      await segments.addReference(project, segment, 'old', 'expired');
      expect(await segments.tx.transaction((trx) => store.referencingFlagKeys(trx, segment))).toEqual(['alpha', 'zeta']);
      expect(await segments.tx.transaction((trx) => store.referencingFlagKeys(trx, unused))).toEqual([]);
    });
  });
}

/** The flag store, and how a test puts projects and prerequisites in front of it. */
interface FlagsUnderTest {
  /** The path lookups over the same rows (the fake's own, the Knex store's tables). */
  lookups: LookupStore;
  store: FlagStore;
  /** What reads run on, and the transactions writes run in (the fake's roll its state back). */
  db: Db;
  tx: Transactor;
  addProject(key: string): Promise<ProjectRef>;
  /** A draft target of `requiring` in the environment `production` whose prerequisites name `required`. */
  addRequirement(project: ProjectRef, requiring: FlagRecord, required: FlagRecord, requiredValue: string): Promise<void>;
  revisionOf(project: ProjectRef): Promise<number>;
}

function fakeFlags(): FlagsUnderTest {
  const store = new FakeFlagStore();
  let projects = 0;
  return {
    store,
    db: fakeDb,
    tx: store.tx,
    lookups: store.lookups,
    async addProject(key) {
      const project = { ulid: `prj_01J3000000000000000000${String(++projects).padStart(4, '0')}`, key, name: key };
      store.addProject(project);
      return project;
    },
    addRequirement: async (_project, requiring, required) =>
      void store.state.requirements.push({
        required: required.ulid,
        requiring: requiring.ulid,
        target: { flag_key: requiring.key, environment_key: 'production', environment_ulid: 'env_fake_production' },
      }),
    revisionOf: async (project) => store.state.revisions[project.ulid] ?? 0,
  };
}

function knexFlags(app: TestApp): FlagsUnderTest {
  const segments = knexSegments(app);
  return {
    store: new KnexFlagStore(app.composition.core.dialect),
    db: app.knex,
    tx: knexTransactor(app.knex),
    lookups: new KnexLookupStore(),
    addProject: (key) => segments.addProject(key),
    async addRequirement(project, requiring, required, requiredValue) {
      const targets = `/projects/${project.key}/flags/${requiring.key}/environments/production/targets`;
      const target = (await app.mgmt('POST', targets)).body.data.ulid as string;
      const set = await app.mgmt('PUT', `${targets}/${target}/prerequisites`, {
        prerequisites: [{ flag_key: required.key, value_ulids: [requiredValue] }],
      });
      if (set.status !== 200) throw new Error(JSON.stringify(set.body));
    },
    revisionOf: (project) => segments.revisionOf(project),
  };
}

let flagCount = 0;
function flagRecord(project: ProjectRef, key: string, overrides: Partial<FlagRecord> = {}): FlagRecord {
  const n = String(++flagCount).padStart(4, '0');
  return {
    ulid: `flg_01J4000000000000000000${n}`,
    project_ulid: project.ulid,
    key,
    name: `Flag ${key}`,
    type: 'boolean',
    description: null,
    permanent: false,
    include_in_mobile: true,
    include_in_client: true,
    tags: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The two values a boolean flag starts with; the first is `true`. */
function booleanValues(flag: FlagRecord): FlagValueInsert[] {
  return ['true', 'false'].map((display, i) => ({
    ulid: `val_01J${i}${flag.ulid.slice('flg_01J4'.length)}`,
    flag_ulid: flag.ulid,
    display,
    display_digest: normaliseDisplay('boolean', display).digest,
    is_default: display === 'false',
    created_at: flag.created_at,
    updated_at: flag.updated_at,
  }));
}

for (const implementation of implementations<FlagsUnderTest>(fakeFlags, knexFlags)) {
  describe(`FlagStore contract [${implementation.name}]`, () => {
    let flags: FlagsUnderTest;
    let store: FlagStore;
    let close: () => Promise<void>;
    let projects = 0;
    const everyone = ResourceAccess.unrestricted();
    const newProject = () => flags.addProject(`flags-contract-${++projects}`);
    const insert = (...records: FlagRecord[]) =>
      flags.tx.transaction(async (trx) => {
        for (const flag of records) {
          await store.insertFlag(trx, flag);
          await store.insertValues(trx, booleanValues(flag));
        }
      });
    const keysOf = (page: Page<FlagRecord>) => page.data.map((f) => f.key);
    beforeAll(async () => {
      ({ store: flags, close } = await implementation.open());
      store = flags.store;
    });
    afterAll(async () => {
      await close?.();
    });

    it('finds a project by its exact key, within the caller’s grants', async () => {
      const project = await newProject();
      expect(await flags.lookups.findProject(flags.db, everyone, project.key)).toEqual(project);
      await expect(flags.lookups.findProject(flags.db, everyone, `${project.key}-x`)).rejects.toThrow(NotFoundError);
      await expect(
        flags.lookups.findProject(flags.db, new ResourceAccess(new Set(['prj_01J99999999999999999999999']), null), project.key),
      ).rejects.toThrow(NotFoundError);
    });

    it('stores a flag as given, found by project and exact key, locked by key', async () => {
      const project = await newProject();
      const flag = flagRecord(project, 'checkout', { description: 'Pay', permanent: true, include_in_client: false, tags: ['b', 'a'] });
      await insert(flag);
      expect(await store.findFlag(flags.db, project.ulid, 'checkout')).toEqual(flag);
      expect(await store.findFlag(flags.db, project.ulid, 'checkout-2')).toBeUndefined();
      expect(await store.findFlag(flags.db, (await newProject()).ulid, 'checkout')).toBeUndefined();
      await flags.tx.transaction(async (trx) => {
        expect(await store.lockFlag(trx, project.ulid, 'checkout')).toEqual(flag);
        expect(await store.lockFlag(trx, project.ulid, 'nope')).toBeUndefined();
        expect(await store.lockFlags(trx, project.ulid, ['nope', 'checkout'])).toEqual([flag]);
      });
    });

    it('refuses a key the project already has, as a validation error on key, writing nothing', async () => {
      const project = await newProject();
      const first = flagRecord(project, 'taken');
      await insert(first);
      const error = await insert(flagRecord(project, 'fresh'), flagRecord(project, 'taken')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(Object.keys((error as ValidationError).errors)).toEqual(['key']);
      expect(await store.findFlag(flags.db, project.ulid, 'taken')).toEqual(first);
      expect(await store.findFlag(flags.db, project.ulid, 'fresh')).toBeUndefined();
    });

    it('lists by type, tag (exactly) and search (case-insensitive, key or name, wildcards literal), a page at a time', async () => {
      const project = await newProject();
      await insert(
        flagRecord(project, 'alpha', { name: 'New Checkout', tags: ['team:pay'] }),
        flagRecord(project, 'beta', { type: 'string', tags: ['team'] }),
        flagRecord(project, 'gamma_1', { name: 'Gamma 100%' }),
        flagRecord(project, 'delta', { tags: ['team:pay', 'x'] }),
      );
      const list = (filter: FlagListFilter, page: PageRequest = { per_page: 25 }) => store.listFlags(flags.db, project.ulid, filter, page);
      expect(keysOf(await list({}))).toEqual(['alpha', 'beta', 'gamma_1', 'delta']);
      expect(keysOf(await list({ type: 'string' }))).toEqual(['beta']);
      expect(keysOf(await list({ tag: 'team:pay' }))).toEqual(['alpha', 'delta']);
      expect(keysOf(await list({ tag: 'team' }))).toEqual(['beta']);
      expect(keysOf(await list({ search: 'CHECK' }))).toEqual(['alpha']);
      expect(keysOf(await list({ search: 'ta' }))).toEqual(['beta', 'delta']);
      expect(keysOf(await list({ search: 'a_1' }))).toEqual(['gamma_1']);
      expect(keysOf(await list({ search: 'a%' }))).toEqual([]);
      expect(keysOf(await list({ search: '100%' }))).toEqual(['gamma_1']);
      const first = await list({}, { per_page: 3 });
      expect(keysOf(first)).toEqual(['alpha', 'beta', 'gamma_1']);
      expect(first.meta.prev_cursor).toBeNull();
      const second = await list({}, { per_page: 3, cursor: first.meta.next_cursor! });
      expect(keysOf(second)).toEqual(['delta']);
      expect(second.meta.next_cursor).toBeNull();
      expect(keysOf(await list({}, { per_page: 3, cursor: second.meta.prev_cursor! }))).toEqual(['alpha', 'beta', 'gamma_1']);
    });

    it('updates the fields given, and rolls back everything a failed transaction wrote', async () => {
      const project = await newProject();
      const flag = flagRecord(project, 'changing');
      await insert(flag);
      const changes = {
        name: 'Changed',
        description: 'Now',
        permanent: true,
        include_in_mobile: false,
        tags: ['t'],
        updated_at: '2026-02-01T00:00:00.000Z',
      };
      await flags.tx.transaction((trx) => store.updateFlag(trx, flag.ulid, changes));
      expect(await store.findFlag(flags.db, project.ulid, 'changing')).toEqual({ ...flag, ...changes });
      const before = await flags.revisionOf(project);
      const failed = flags.tx.transaction(async (trx) => {
        await store.updateFlag(trx, flag.ulid, { name: 'Lost' });
        await store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]);
        throw new Error('stop');
      });
      await expect(failed).rejects.toThrow('stop');
      expect((await store.findFlag(flags.db, project.ulid, 'changing'))?.name).toBe('Changed');
      expect(await flags.revisionOf(project)).toBe(before);
      await flags.tx.transaction((trx) => store.bumpProjectRevisions(trx, project.ulid, [flag.ulid]));
      expect(await flags.revisionOf(project)).toBe(before + 1);
    });

    it('names the live targets of other flags that require a flag; deleting the flags lifts it', async () => {
      const project = await newProject();
      const required = flagRecord(project, 'required');
      const zeta = flagRecord(project, 'zeta');
      const alpha = flagRecord(project, 'alpha');
      const free = flagRecord(project, 'free');
      await insert(required, zeta, alpha, free);
      const requiredTrue = booleanValues(required)[0]!.ulid;
      await flags.addRequirement(project, zeta, required, requiredTrue);
      await flags.addRequirement(project, alpha, required, requiredTrue);
      await flags.addRequirement(project, alpha, required, requiredTrue);
      const requiredBy = (ulids: string[]) => flags.tx.transaction((trx) => store.requiredBy(trx, ulids));
      expect(await requiredBy([required.ulid, free.ulid])).toEqual(
        new Map([
          [
            required.ulid,
            [
              { flag_key: 'alpha', ...inProduction },
              { flag_key: 'zeta', ...inProduction },
            ],
          ],
        ]),
      );
      // Requirements among the flags asked about do not count.
      expect(await requiredBy([required.ulid, alpha.ulid])).toEqual(new Map([[required.ulid, [{ flag_key: 'zeta', ...inProduction }]]]));
      expect(await requiredBy([required.ulid, alpha.ulid, zeta.ulid])).toEqual(new Map());
      await flags.tx.transaction((trx) => store.deleteFlags(trx, [zeta.ulid, alpha.ulid]));
      expect(await store.findFlag(flags.db, project.ulid, 'zeta')).toBeUndefined();
      expect(await requiredBy([required.ulid])).toEqual(new Map());
      // The key is free again.
      await insert(flagRecord(project, 'zeta'));
    });
  });
}

/** The flag-value store, and how a test puts a project, flags and what points at values in front of it. */
interface FlagValuesUnderTest {
  /** The path lookups over the same rows (the fake's own, the Knex store's tables). */
  lookups: LookupStore;
  /** What reads run on, and the transactions writes run in (the fake's roll its state back). */
  db: Db;
  tx: Transactor;
  store: FlagValueStore;
  /** A project with the environment `production`, and its string flags of these keys (no values yet). */
  addProject(key: string, flagKeys: string[]): Promise<{ project: ProjectRef; flags: FlagRef[]; environment: EnvironmentRef }>;
  /** A draft target of the value's flag serving it, with a rule serving it too. */
  addTargetAndRule(project: ProjectRef, flag: FlagRef, value: FlagValueRecord): Promise<void>;
  /** A draft target of `requiring` whose prerequisites list the value of `flag`. */
  addPrerequisite(project: ProjectRef, requiring: FlagRef, flag: FlagRef, value: FlagValueRecord): Promise<void>;
}

function fakeFlagValues(): FlagValuesUnderTest {
  const store = new FakeFlagValueStore();
  let projects = 0;
  return {
    store,
    db: fakeDb,
    tx: store.tx,
    lookups: store.lookups,
    async addProject(key, flagKeys) {
      const n = String(++projects).padStart(4, '0');
      const project = { ulid: `prj_01J5000000000000000000${n}`, key, name: key };
      const environment = {
        ulid: `env_01J5000000000000000000${n}`,
        key: 'production',
        name: 'Production',
        project_ulid: project.ulid,
        comments_required: false,
        confirmation_required: false,
      };
      const flags = flagKeys.map((flagKey, i) => ({
        ulid: `flg_01J500000000000000000${n}${i}`,
        key: flagKey,
        name: flagKey,
        type: 'string' as const,
        project_ulid: project.ulid,
      }));
      store.state.projects.push(project);
      store.state.environments.push(environment);
      store.state.flags.push(...flags);
      return { project, flags, environment };
    },
    async addTargetAndRule(_project, _flag, value) {
      store.state.targets.push({ value_ulid: value.ulid, status: 'draft', environment_key: 'production' });
      store.state.rules.push({ value_ulid: value.ulid, target_status: 'draft', environment_key: 'production' });
    },
    addPrerequisite: async (_project, requiring, _flag, value) =>
      void store.state.prerequisites.push({ value_ulid: value.ulid, flag_key: requiring.key, environment_key: 'production' }),
  };
}

function knexFlagValues(app: TestApp): FlagValuesUnderTest {
  const targetsOf = (project: ProjectRef, flag: FlagRef) => `/projects/${project.key}/flags/${flag.key}/environments/production/targets`;
  const expectOk = (res: ApiResponse) => {
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res;
  };
  return {
    store: new KnexFlagValueStore(app.composition.core.dialect),
    db: app.knex,
    tx: knexTransactor(app.knex),
    lookups: new KnexLookupStore(),
    async addProject(key, flagKeys) {
      const created = expectOk(
        await app.mgmt('POST', '/projects', { key, name: key, environments: [{ key: 'production', name: 'Production' }] }),
      );
      const project = { ulid: created.body.data.ulid as string, key, name: key };
      const flags: FlagRef[] = [];
      for (const flagKey of flagKeys) {
        const flag = expectOk(await app.mgmt('POST', `/projects/${key}/flags`, { key: flagKey, name: flagKey, type: 'string' }));
        flags.push({ ulid: flag.body.data.ulid, key: flagKey, name: flagKey, type: 'string', project_ulid: project.ulid });
      }
      const environment = await app.knex('environments').where('project_ulid', project.ulid).first('ulid');
      return {
        project,
        flags,
        environment: {
          ulid: environment.ulid,
          key: 'production',
          name: 'Production',
          project_ulid: project.ulid,
          comments_required: false,
          confirmation_required: false,
        },
      };
    },
    async addTargetAndRule(project, flag, value) {
      const target = expectOk(await app.mgmt('POST', targetsOf(project, flag))).body.data.ulid as string;
      expectOk(await app.mgmt('PUT', `${targetsOf(project, flag)}/${target}`, { value_ulid: value.ulid }));
      expectOk(
        await app.mgmt('POST', `${targetsOf(project, flag)}/${target}/rules`, {
          value_ulid: value.ulid,
          description: 'Rule',
          criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }],
        }),
      );
    },
    async addPrerequisite(project, requiring, flag, value) {
      const target = expectOk(await app.mgmt('POST', targetsOf(project, requiring))).body.data.ulid as string;
      expectOk(
        await app.mgmt('PUT', `${targetsOf(project, requiring)}/${target}/prerequisites`, {
          prerequisites: [{ flag_key: flag.key, value_ulids: [value.ulid] }],
        }),
      );
    },
  };
}

let valueCount = 0;
function valueRecord(flag: FlagRef, display: string, overrides: Partial<FlagValueRecord> = {}): FlagValueRecord {
  return {
    ulid: `val_01J6000000000000000000${String(++valueCount).padStart(4, '0')}`,
    flag_ulid: flag.ulid,
    display,
    display_digest: normaliseDisplay('string', display).digest,
    is_default: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

for (const implementation of implementations<FlagValuesUnderTest>(fakeFlagValues, knexFlagValues)) {
  describe(`FlagValueStore contract [${implementation.name}]`, () => {
    let values: FlagValuesUnderTest;
    let store: FlagValueStore;
    let close: () => Promise<void>;
    let projects = 0;
    const everyone = ResourceAccess.unrestricted();
    const newProject = (flagKeys: string[] = ['colour']) => values.addProject(`values-contract-${++projects}`, flagKeys);
    const insert = (...records: FlagValueRecord[]) =>
      values.tx.transaction(async (trx) => {
        for (const value of records) await store.insertValue(trx, value);
      });
    beforeAll(async () => {
      ({ store: values, close } = await implementation.open());
      store = values.store;
    });
    afterAll(async () => {
      await close?.();
    });

    it('finds the project, flag and environment by exact key, within the caller’s grants', async () => {
      const { project, flags, environment } = await newProject();
      expect(await values.lookups.findProject(values.db, everyone, project.key)).toEqual(project);
      expect(await values.lookups.findFlag(values.db, project, 'colour')).toEqual(flags[0]);
      expect(await values.lookups.findEnvironment(values.db, everyone, project, 'production')).toEqual(environment);
      await expect(values.lookups.findFlag(values.db, project, 'Colour')).rejects.toThrow(NotFoundError);
      await expect(values.lookups.findEnvironment(values.db, everyone, project, 'staging')).rejects.toThrow(NotFoundError);
      const elsewhere = new ResourceAccess(new Set(['prj_01J99999999999999999999999']), null);
      await expect(values.lookups.findProject(values.db, elsewhere, project.key)).rejects.toThrow(NotFoundError);
      const otherEnvironment = new ResourceAccess(null, {
        projects: new Set(),
        environments: new Map([[project.ulid, new Set(['env_01J99999999999999999999999'])]]),
      });
      await expect(values.lookups.findEnvironment(values.db, otherEnvironment, project, 'production')).rejects.toThrow(NotFoundError);
    });

    it('stores values as given in creation order, refusing an equal display of the same flag only', async () => {
      const { flags } = await newProject(['colour', 'shade']);
      const [colour, shade] = flags as [FlagRef, FlagRef];
      const red = valueRecord(colour, 'red');
      const blue = valueRecord(colour, 'blue', { is_default: true });
      await insert(red, blue, valueRecord(shade, 'red'));
      expect(await store.listValues(values.db, colour.ulid)).toEqual([red, blue]);
      await values.tx.transaction(async (trx) => {
        expect(await store.lockFlag(trx, colour.ulid)).toBe(true);
        expect(await store.lockFlag(trx, 'flg_01J99999999999999999999999')).toBe(false);
        expect(await store.findValue(trx, colour.ulid, red.ulid)).toEqual(red);
        expect(await store.findValue(trx, shade.ulid, red.ulid)).toBeUndefined();
        expect(await store.hasDefault(trx, colour.ulid)).toBe(true);
        expect(await store.hasDefault(trx, shade.ulid)).toBe(false);
      });
      const error = await insert(valueRecord(colour, 'green'), valueRecord(colour, 'red')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(Object.keys((error as ValidationError).errors)).toEqual(['display']);
      // Nothing of the failed transaction stays; `Red` is another display.
      expect(await store.listValues(values.db, colour.ulid)).toEqual([red, blue]);
      await insert(valueRecord(colour, 'Red'));
    });

    it('changes a display (refusing another value’s), moves the default, deletes', async () => {
      const { flags } = await newProject();
      const colour = flags[0]!;
      const red = valueRecord(colour, 'red', { is_default: true });
      const blue = valueRecord(colour, 'blue');
      await insert(red, blue);
      const crimson = normaliseDisplay('string', 'crimson').digest;
      await values.tx.transaction((trx) => store.updateDisplay(trx, red.ulid, 'crimson', crimson, '2026-02-01T00:00:00.000Z'));
      const error = await values.tx
        .transaction((trx) => store.updateDisplay(trx, blue.ulid, 'crimson', crimson, '2026-02-01T00:00:00.000Z'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      await values.tx.transaction((trx) => store.setDefault(trx, colour.ulid, blue.ulid, '2026-03-01T00:00:00.000Z'));
      expect(await store.listValues(values.db, colour.ulid)).toEqual([
        { ...red, display: 'crimson', display_digest: crimson, is_default: false, updated_at: '2026-03-01T00:00:00.000Z' },
        { ...blue, is_default: true, updated_at: '2026-03-01T00:00:00.000Z' },
      ]);
      await values.tx.transaction((trx) => store.deleteValue(trx, red.ulid));
      expect((await store.listValues(values.db, colour.ulid)).map((v) => v.ulid)).toEqual([blue.ulid]);
    });

    it('reports what points at a value: targets, rules, and other flags’ prerequisites', async () => {
      const { project, flags } = await newProject(['colour', 'paint', 'brush']);
      const [colour, paint, brush] = flags as [FlagRef, FlagRef, FlagRef];
      const red = valueRecord(colour, 'red', { is_default: true });
      const blue = valueRecord(colour, 'blue');
      // The requiring flags need a value of their own for a target.
      await insert(red, blue, valueRecord(paint, 'wet', { is_default: true }), valueRecord(brush, 'soft', { is_default: true }));
      await values.addTargetAndRule(project, colour, red);
      await values.addPrerequisite(project, paint, colour, blue);
      await values.addPrerequisite(project, brush, colour, blue);
      const usage = (value: FlagValueRecord) => values.tx.transaction((trx) => store.usage(trx, value.ulid));
      expect(await usage(red)).toEqual({
        targets: [{ status: 'draft', ...inProduction }],
        rules: [{ target_status: 'draft', ...inProduction }],
        prerequisites: [],
      });
      expect(await usage(blue)).toEqual({
        targets: [],
        rules: [],
        prerequisites: [
          { flag_key: 'brush', ...inProduction },
          { flag_key: 'paint', ...inProduction },
        ],
      });
    });
  });
}

/** A project with a boolean flag, the environment `production`, a draft target and a segment. */
interface RulesFixture {
  path: TargetPath;
  resolved: ResolvedTarget;
  /** The flag's values `true` and `false`. */
  values: { on: string; off: string };
  segment: { ulid: string; key: string };
}

/** The rules store, and how a test makes a target with its surroundings in front of it. */
interface RulesUnderTest {
  /** What reads run on, and the transactions writes run in (the fake's roll its state back). */
  db: Db;
  tx: Transactor;
  store: RulesStore;
  addTarget(projectKey: string): Promise<RulesFixture>;
}

function fakeRules(): RulesUnderTest {
  const store = new FakeRulesStore();
  let projects = 0;
  return {
    store,
    db: fakeDb,
    tx: store.tx,
    async addTarget(projectKey) {
      const n = String(++projects).padStart(4, '0');
      const project = { ulid: `prj_01J7000000000000000000${n}`, key: projectKey, name: projectKey };
      const flag = {
        ulid: `flg_01J7000000000000000000${n}`,
        key: 'checkout',
        name: 'checkout',
        type: 'boolean' as const,
        project_ulid: project.ulid,
      };
      const environment = {
        ulid: `env_01J7000000000000000000${n}`,
        key: 'production',
        name: 'Production',
        project_ulid: project.ulid,
        comments_required: false,
        confirmation_required: false,
      };
      const target = { ulid: `tgt_01J7000000000000000000${n}`, status: 'draft' };
      const values = { on: `val_01J7000000000000000001${n}`, off: `val_01J7000000000000000000${n}` };
      const segment = { ulid: `seg_01J7000000000000000000${n}`, key: 'testers' };
      const s = store.state;
      s.projects.push(project);
      s.flags.push(flag);
      s.environments.push(environment);
      s.targets.push({ ...target, flag_ulid: flag.ulid, environment_ulid: environment.ulid });
      s.values.push({ ulid: values.on, flag_ulid: flag.ulid }, { ulid: values.off, flag_ulid: flag.ulid });
      s.segments.push({ ...segment, project_ulid: project.ulid });
      return {
        path: { projectKey, flagKey: flag.key, environmentKey: environment.key, targetUlid: target.ulid },
        resolved: { project, flag, environment, target },
        values,
        segment,
      };
    },
  };
}

function knexRules(app: TestApp): RulesUnderTest {
  const expectOk = (res: ApiResponse) => {
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body.data;
  };
  return {
    store: new KnexRulesStore(app.composition.core.dialect),
    db: app.knex,
    tx: knexTransactor(app.knex),
    async addTarget(projectKey) {
      const project = expectOk(
        await app.mgmt('POST', '/projects', {
          key: projectKey,
          name: projectKey,
          environments: [{ key: 'production', name: 'Production' }],
        }),
      );
      const p = `/projects/${projectKey}`;
      const flag = expectOk(await app.mgmt('POST', `${p}/flags`, { key: 'checkout', name: 'checkout', type: 'boolean' }));
      const values = expectOk(await app.mgmt('GET', `${p}/flags/checkout/values`)) as Array<{ ulid: string; display: string }>;
      const target = expectOk(await app.mgmt('POST', `${p}/flags/checkout/environments/production/targets`));
      const segment = expectOk(await app.mgmt('POST', `${p}/segments`, { key: 'testers', name: 'Testers' }));
      const environment = await app.knex('environments').where('project_ulid', project.ulid).first('ulid');
      return {
        path: { projectKey, flagKey: 'checkout', environmentKey: 'production', targetUlid: target.ulid },
        resolved: {
          project: { ulid: project.ulid, key: projectKey, name: projectKey },
          flag: { ulid: flag.ulid, key: 'checkout', name: 'checkout', type: 'boolean', project_ulid: project.ulid },
          environment: {
            ulid: environment.ulid,
            key: 'production',
            name: 'Production',
            project_ulid: project.ulid,
            comments_required: false,
            confirmation_required: false,
          },
          target: { ulid: target.ulid, status: 'draft' },
        },
        values: { on: values.find((v) => v.display === 'true')!.ulid, off: values.find((v) => v.display === 'false')!.ulid },
        segment: { ulid: segment.ulid, key: 'testers' },
      };
    },
  };
}

let ruleCount = 0;
function ruleOf(fixture: RulesFixture, position: number, overrides: Partial<RuleRow> = {}): { row: RuleRow; criteria: CriterionRecord[] } {
  const n = String(++ruleCount).padStart(4, '0');
  const row: RuleRow = {
    ulid: `rul_01J8000000000000000000${n}`,
    target_ulid: fixture.path.targetUlid,
    value_ulid: fixture.values.on,
    split: null,
    description: `Rule ${n}`,
    position,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
  const criteria: CriterionRecord[] = [1, 0].map((p) => ({
    ulid: `crt_01J8000000000000000${n}${p}`,
    rule_ulid: row.ulid,
    selector: 'attribute',
    sub_selector: p === 0 ? 'plan' : 'country',
    comparer: 'in',
    position: p,
    values: p === 0 ? ['pro', 'Pro'] : ['FR'],
  }));
  return { row, criteria };
}

/** The record listRules answers for a rule written as `row` and `criteria`. */
const asListed = ({ row, criteria }: { row: RuleRow; criteria: CriterionRecord[] }): RuleRecord => ({
  ...row,
  criteria: [...criteria].sort((a, b) => a.position - b.position),
});

for (const implementation of implementations<RulesUnderTest>(fakeRules, knexRules)) {
  describe(`RulesStore contract [${implementation.name}]`, () => {
    let rules: RulesUnderTest;
    let store: RulesStore;
    let close: () => Promise<void>;
    let projects = 0;
    const everyone = ResourceAccess.unrestricted();
    const newTarget = () => rules.addTarget(`rules-contract-${++projects}`);
    const insert = (rule: { row: RuleRow; criteria: CriterionRecord[] }, links: SegmentLink[] = []) =>
      rules.tx.transaction((trx) => store.insertRule(trx, rule.row, rule.criteria, links));
    beforeAll(async () => {
      ({ store: rules, close } = await implementation.open());
      store = rules.store;
    });
    afterAll(async () => {
      await close?.();
    });

    it('resolves a target by its path, within the caller’s grants; anything else is not found', async () => {
      const fixture = await newTarget();
      const other = await newTarget();
      expect(await store.resolveTarget(rules.db, everyone, fixture.path)).toEqual(fixture.resolved);
      for (const wrong of [
        { ...fixture.path, projectKey: `${fixture.path.projectKey}-x` },
        { ...fixture.path, flagKey: 'Checkout' },
        { ...fixture.path, environmentKey: 'staging' },
        { ...fixture.path, targetUlid: other.path.targetUlid },
      ]) {
        await expect(store.resolveTarget(rules.db, everyone, wrong)).rejects.toThrow(NotFoundError);
      }
      const elsewhere = new ResourceAccess(new Set([other.resolved.project.ulid]), null);
      await expect(store.resolveTarget(rules.db, elsewhere, fixture.path)).rejects.toThrow(NotFoundError);
    });

    it('stores rules with criteria and splits, listed by position then ulid, criteria by position', async () => {
      const fixture = await newTarget();
      const second = ruleOf(fixture, 1);
      const first = ruleOf(fixture, 0, {
        split: {
          attribute: 'team',
          shares: [
            { value_ulid: fixture.values.off, weight: 25_000 },
            { value_ulid: fixture.values.on, weight: 75_000 },
          ],
        },
      });
      const tie = ruleOf(fixture, 1, { value_ulid: fixture.values.off, description: 'Tie' });
      for (const rule of [second, first, tie]) await insert(rule);
      expect(await store.listRules(rules.db, fixture.path.targetUlid)).toEqual([first, second, tie].map(asListed));
      expect(await store.listRules(rules.db, (await newTarget()).path.targetUlid)).toEqual([]);
    });

    it('replaces a rule (creation time kept), moves rules, deletes one; rolls back a failed transaction', async () => {
      const fixture = await newTarget();
      const a = ruleOf(fixture, 0);
      const b = ruleOf(fixture, 1);
      await insert(a, [{ criterion_ulid: a.criteria[0]!.ulid, segment_ulid: fixture.segment.ulid }]);
      await insert(b);
      const replaced = {
        row: {
          ...a.row,
          description: 'Replaced',
          value_ulid: fixture.values.off,
          created_at: '2030-01-01T00:00:00.000Z',
          updated_at: '2026-02-01T00:00:00.000Z',
        },
        criteria: [
          {
            ...ruleOf(fixture, 0).criteria[0]!,
            rule_ulid: a.row.ulid,
            selector: 'segment' as const,
            sub_selector: null,
            values: ['testers'],
          },
        ],
      };
      await rules.tx.transaction((trx) =>
        store.replaceRule(trx, replaced.row, replaced.criteria, [
          { criterion_ulid: replaced.criteria[0]!.ulid, segment_ulid: fixture.segment.ulid },
        ]),
      );
      await rules.tx.transaction((trx) =>
        store.setPositions(
          trx,
          [
            { ulid: a.row.ulid, position: 1 },
            { ulid: b.row.ulid, position: 0 },
          ],
          '2026-03-01T00:00:00.000Z',
        ),
      );
      expect(await store.listRules(rules.db, fixture.path.targetUlid)).toEqual([
        asListed({ row: { ...b.row, position: 0, updated_at: '2026-03-01T00:00:00.000Z' }, criteria: b.criteria }),
        asListed({
          row: { ...replaced.row, created_at: a.row.created_at, position: 1, updated_at: '2026-03-01T00:00:00.000Z' },
          criteria: replaced.criteria,
        }),
      ]);
      const failed = rules.tx.transaction(async (trx) => {
        await store.deleteRule(trx, b.row.ulid);
        throw new Error('stop');
      });
      await expect(failed).rejects.toThrow('stop');
      expect(await store.listRules(rules.db, fixture.path.targetUlid)).toHaveLength(2);
      await rules.tx.transaction((trx) => store.deleteRule(trx, a.row.ulid));
      expect((await store.listRules(rules.db, fixture.path.targetUlid)).map((r) => r.ulid)).toEqual([b.row.ulid]);
    });

    it('refuses a segment link to no segment', async () => {
      const fixture = await newTarget();
      const rule = ruleOf(fixture, 0);
      await expect(
        insert(rule, [{ criterion_ulid: rule.criteria[0]!.ulid, segment_ulid: 'seg_01J99999999999999999999999' }]),
      ).rejects.toThrow();
      expect(await store.listRules(rules.db, fixture.path.targetUlid)).toEqual([]);
    });

    it('tells the flag’s own values, and finds the project’s segments by exact key', async () => {
      const fixture = await newTarget();
      const other = await newTarget();
      await rules.tx.transaction(async (trx) => {
        expect(await store.flagHasValue(trx, fixture.resolved.flag.ulid, fixture.values.on)).toBe(true);
        expect(await store.flagHasValue(trx, fixture.resolved.flag.ulid, other.values.on)).toBe(false);
        expect(await store.findSegments(trx, fixture.resolved.project.ulid, ['testers', 'Testers', 'ghost'])).toEqual(
          new Map([['testers', fixture.segment.ulid]]),
        );
        expect(await store.findSegments(trx, fixture.resolved.project.ulid, [])).toEqual(new Map());
      });
    });
  });
}

/** The configuration source, and how a test makes and changes an environment's flags in front of it. */
interface ConfigSourceUnderTest {
  source: ConfigSource;
  /** An environment whose project has boolean flags of these keys; its ulid. */
  addEnvironment(projectKey: string, flagKeys: string[]): Promise<string>;
  /** Renames a flag: a change of that flag alone. */
  renameFlag(environmentUlid: string, flagKey: string, name: string): Promise<void>;
  deleteFlag(environmentUlid: string, flagKey: string): Promise<void>;
}

function fakeConfigSource(): ConfigSourceUnderTest {
  const source = new FakeConfigSource();
  const projectKeys = new Map<string, string>();
  let environments = 0;
  const flagOf = (key: string, name = key): CompiledFlag => ({
    key,
    name,
    type: 'boolean',
    include_in_mobile: true,
    include_in_client: true,
    default: { value: false },
    serving: null,
    previous: null,
    rollout: null,
  });
  const change = (ulid: string, flagKey: string, edit: (flags: CompiledFlag[]) => CompiledFlag[]) => {
    const current = source.environments.get(ulid)!;
    source.change(ulid, { ...current.config, revision: current.revision + 1, flags: edit([...current.config.flags]) }, [flagKey]);
  };
  return {
    source,
    async addEnvironment(projectKey, flagKeys) {
      const ulid = `env_01J9000000000000000000${String(++environments).padStart(4, '0')}`;
      projectKeys.set(ulid, projectKey);
      source.set({ ulid, key: 'production', config: { revision: 1, flags: [...flagKeys].sort().map((key) => flagOf(key)), segments: [] } });
      return ulid;
    },
    renameFlag: async (ulid, flagKey, name) =>
      change(ulid, flagKey, (flags) => flags.map((f) => (f.key === flagKey ? flagOf(flagKey, name) : f))),
    deleteFlag: async (ulid, flagKey) => change(ulid, flagKey, (flags) => flags.filter((f) => f.key !== flagKey)),
  };
}

function knexConfigSource(app: TestApp): ConfigSourceUnderTest {
  const projectOf = new Map<string, string>();
  const ok = async (res: Promise<ApiResponse>) => {
    const answer = await res;
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    return answer.body.data;
  };
  return {
    source: new KnexConfigSource(app.knex, app.composition.core.dialect),
    async addEnvironment(projectKey, flagKeys) {
      const project = await ok(
        app.mgmt('POST', '/projects', { key: projectKey, name: projectKey, environments: [{ key: 'production', name: 'Production' }] }),
      );
      for (const key of flagKeys) await ok(app.mgmt('POST', `/projects/${projectKey}/flags`, { key, name: key, type: 'boolean' }));
      const environment = await app.knex('environments').where('project_ulid', project.ulid).first('ulid');
      projectOf.set(environment.ulid, projectKey);
      return environment.ulid;
    },
    async renameFlag(ulid, flagKey, name) {
      await ok(app.mgmt('PUT', `/projects/${projectOf.get(ulid)}/flags/${flagKey}`, { name, permanent: false }));
    },
    async deleteFlag(ulid, flagKey) {
      await ok(app.mgmt('DELETE', `/projects/${projectOf.get(ulid)}/flags/${flagKey}`));
    },
  };
}

for (const implementation of implementations<ConfigSourceUnderTest>(fakeConfigSource, knexConfigSource)) {
  describe(`ConfigSource contract [${implementation.name}]`, () => {
    let sources: ConfigSourceUnderTest;
    let source: ConfigSource;
    let close: () => Promise<void>;
    let projects = 0;
    const newEnvironment = (flagKeys: string[]) => sources.addEnvironment(`config-contract-${++projects}`, flagKeys);
    beforeAll(async () => {
      ({ store: sources, close } = await implementation.open());
      source = sources.source;
    });
    afterAll(async () => {
      await close?.();
    });

    it('knows nothing of an environment that does not exist', async () => {
      const ghost = 'env_01J99999999999999999999999';
      expect(await source.revisionOf(ghost)).toBeUndefined();
      expect(await source.load(ghost)).toBeUndefined();
      expect(await source.loadChangesSince(ghost, 0)).toBeUndefined();
      expect((await source.listRevisions()).map((r) => r.ulid)).not.toContain(ghost);
    });

    it('loads an environment at its revision: flags by key, their ulids, its revision everywhere', async () => {
      const ulid = await newEnvironment(['beta', 'alpha']);
      const revision = await source.revisionOf(ulid);
      expect(revision).toBeGreaterThan(0);
      expect(await source.listRevisions()).toContainEqual({ ulid, revision });
      const loaded = (await source.load(ulid))!;
      expect(loaded).toMatchObject({ environmentUlid: ulid, environmentKey: 'production', revision });
      expect(loaded.config.revision).toBe(revision);
      expect(loaded.config.flags.map((f) => f.key)).toEqual(['alpha', 'beta']);
      expect([...loaded.flagUlids.keys()].sort()).toEqual(['alpha', 'beta']);
      expect(new Set(loaded.flagUlids.values()).size).toBe(2);
      // Nothing changed since the current revision.
      expect(await source.loadChangesSince(ulid, revision!)).toEqual({ kind: 'flags', environmentUlid: ulid, revision, flags: new Map() });
    });

    it('answers a change of one flag with that flag alone, at the new revision; a deleted flag as null', async () => {
      const ulid = await newEnvironment(['alpha', 'beta', 'gamma']);
      const before = (await source.load(ulid))!;
      await sources.renameFlag(ulid, 'beta', 'Beta renamed');
      const renamedAt = (await source.revisionOf(ulid))!;
      expect(renamedAt).toBeGreaterThan(before.revision);
      const changes = await source.loadChangesSince(ulid, before.revision);
      expect(changes?.kind).toBe('flags');
      if (changes?.kind !== 'flags') return;
      expect(changes.revision).toBe(renamedAt);
      const betaUlid = before.flagUlids.get('beta')!;
      expect([...changes.flags.keys()]).toEqual([betaUlid]);
      expect(changes.flags.get(betaUlid)).toMatchObject({
        key: 'beta',
        revision: renamedAt,
        config: { key: 'beta', name: 'Beta renamed' },
      });
      // A whole load records the same: beta changed last, at that revision.
      const after = (await source.load(ulid))!;
      expect(after.changes?.flags.get(betaUlid)).toBe(renamedAt);
      for (const key of ['alpha', 'gamma']) expect(after.changes?.flags.get(after.flagUlids.get(key)!) ?? 0).toBeLessThan(renamedAt);

      await sources.deleteFlag(ulid, 'gamma');
      const gammaUlid = before.flagUlids.get('gamma')!;
      const deleted = await source.loadChangesSince(ulid, renamedAt);
      expect(deleted).toMatchObject({ kind: 'flags', revision: await source.revisionOf(ulid) });
      if (deleted?.kind !== 'flags') return;
      expect(deleted.flags).toEqual(new Map([[gammaUlid, null]]));
      expect((await source.load(ulid))!.config.flags.map((f) => f.key)).toEqual(['alpha', 'beta']);
    });
  });
}

/** The telemetry store, and an environment with one flag for its batches to name. */
interface TelemetryUnderTest {
  store: TelemetryStore;
  addFlag(projectKey: string): Promise<{ environmentUlid: string; flagUlid: string }>;
}

function fakeTelemetry(): TelemetryUnderTest {
  let flags = 0;
  return {
    store: new FakeTelemetryStore(),
    addFlag: async () => {
      const n = String(++flags).padStart(4, '0');
      return { environmentUlid: `env_01JA000000000000000000${n}`, flagUlid: `flg_01JA000000000000000000${n}` };
    },
  };
}

function knexTelemetry(app: TestApp): TelemetryUnderTest {
  const configs = knexConfigSource(app);
  return {
    store: new KnexTelemetryStore(app.knex, app.composition.core.dialect),
    async addFlag(projectKey) {
      const environmentUlid = await configs.addEnvironment(projectKey, ['tracked']);
      const flag = await app
        .knex('flags')
        .join('projects', 'projects.ulid', 'flags.project_ulid')
        .where('projects.key', projectKey)
        .first('flags.ulid');
      return { environmentUlid, flagUlid: flag.ulid };
    },
  };
}

function batchFor(environmentUlid: string, flagUlid: string, at: string): TelemetryBatch {
  return {
    flags: [{ environmentUlid, flagUlid, retrieved: 1, used: 2, evaluated: 3, lastRetrievedAt: at, lastUsedAt: at, lastEvaluatedAt: at }],
    defaultReports: [{ environmentUlid, kind: 'unknown_flag', flagKey: 'ghost', declaredType: 'string', count: 1, lastSeenAt: at }],
    contexts: [{ environmentUlid, kind: 'attribute', name: 'plan', value: '', count: 1, lastSeenAt: at }],
    evaluationHours: [{ environmentUlid, flagUlid, hour: hourOf(at), value: 'true', count: 3 }],
  };
}

const nothingLeft: TelemetryBatch = { flags: [], defaultReports: [], contexts: [], evaluationHours: [] };

for (const implementation of implementations<TelemetryUnderTest>(fakeTelemetry, knexTelemetry)) {
  describe(`TelemetryStore contract [${implementation.name}]`, () => {
    let telemetry: TelemetryUnderTest;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store: telemetry, close } = await implementation.open());
    });
    afterAll(async () => {
      await close?.();
    });

    it('writes a batch whole: nothing is left to retry, twice over', async () => {
      const { environmentUlid, flagUlid } = await telemetry.addFlag('telemetry-contract-1');
      const batch = batchFor(environmentUlid, flagUlid, '2026-01-01T10:15:00.000Z');
      expect(await telemetry.store.write(batch)).toEqual(nothingLeft);
      expect(await telemetry.store.write(batch)).toEqual(nothingLeft);
      expect(await telemetry.store.write(nothingLeft)).toEqual(nothingLeft);
    });

    it('drops, rather than retries, the deltas of a flag deleted since', async () => {
      const { environmentUlid, flagUlid } = await telemetry.addFlag('telemetry-contract-2');
      const gone = batchFor(environmentUlid, 'flg_01J99999999999999999999999', '2026-01-01T11:00:00.000Z');
      const kept = batchFor(environmentUlid, flagUlid, '2026-01-01T11:00:00.000Z');
      const mixed: TelemetryBatch = {
        ...kept,
        flags: [...gone.flags, ...kept.flags],
        evaluationHours: [...gone.evaluationHours, ...kept.evaluationHours],
      };
      expect(await telemetry.store.write(mixed)).toEqual(nothingLeft);
    });
  });
}

/** A flag with the values `true` (not default) and `false` (default) in an environment. */
interface TargetsFixture {
  flagUlid: string;
  environmentUlid: string;
  values: { on: string; off: string };
}

/** The targets store, and how a test makes a flag in an environment in front of it. */
interface TargetsUnderTest {
  store: TargetStore;
  /** The pool the reads run on, and the transactions the changes run in (a service's deps.db and deps.tx). */
  db: Db;
  tx: Transactor;
  addFlag(projectKey: string): Promise<TargetsFixture>;
  revisionOf(environmentUlid: string): Promise<number>;
}

function fakeTargets(): TargetsUnderTest {
  const store = new FakeTargetStore();
  let flags = 0;
  return {
    store,
    db: store.db,
    tx: store.tx,
    async addFlag(projectKey) {
      const n = String(++flags).padStart(4, '0');
      const fixture = {
        flagUlid: `flg_01JB000000000000000000${n}`,
        environmentUlid: `env_01JB000000000000000000${n}`,
        values: { on: `val_01JB000000000000000001${n}`, off: `val_01JB000000000000000000${n}` },
      };
      store.addEnvironment({ ulid: fixture.environmentUlid, project_ulid: `prj_01JB000000000000000000${n}`, project_key: projectKey });
      store.addFlag(fixture.flagUlid, 'checkout');
      store.addValue({ ulid: fixture.values.on, flag_ulid: fixture.flagUlid, is_default: false });
      store.addValue({ ulid: fixture.values.off, flag_ulid: fixture.flagUlid, is_default: true });
      return fixture;
    },
    revisionOf: async (environmentUlid) => store.revision(environmentUlid),
  };
}

function knexTargets(app: TestApp): TargetsUnderTest {
  const configs = knexConfigSource(app);
  return {
    store: new KnexTargetStore(app.composition.core.dialect),
    db: app.knex,
    tx: knexTransactor(app.knex),
    async addFlag(projectKey) {
      const environmentUlid = await configs.addEnvironment(projectKey, ['checkout']);
      const flag = await app
        .knex('flags')
        .join('projects', 'projects.ulid', 'flags.project_ulid')
        .where('projects.key', projectKey)
        .first('flags.ulid');
      const values = (await app.knex('flag_values').where('flag_ulid', flag.ulid).select('ulid', 'display')) as Array<{
        ulid: string;
        display: string;
      }>;
      return {
        flagUlid: flag.ulid,
        environmentUlid,
        values: { on: values.find((v) => v.display === 'true')!.ulid, off: values.find((v) => v.display === 'false')!.ulid },
      };
    },
    async revisionOf(environmentUlid) {
      return Number((await app.knex('environments').where('ulid', environmentUlid).first('revision')).revision);
    },
  };
}

let targetCount = 0;
function targetRecord(fixture: TargetsFixture, overrides: Partial<TargetRecord> = {}): TargetRecord {
  const n = String(++targetCount).padStart(4, '0');
  return {
    ulid: `tgt_01JC000000000000000000${n}`,
    flag_ulid: fixture.flagUlid,
    environment_ulid: fixture.environmentUlid,
    value_ulid: fixture.values.off,
    status: 'draft',
    comment: null,
    scheduled_at: null,
    published_at: null,
    rollout_percentage: null,
    rollout_mode: null,
    rollout_status: null,
    rollout_step_started_at: null,
    created_at: `2026-01-01T00:00:${String(targetCount % 60).padStart(2, '0')}.000Z`,
    updated_at: '2026-01-01T00:00:00.000Z',
    split: null,
    ...overrides,
  };
}

for (const implementation of implementations<TargetsUnderTest>(fakeTargets, knexTargets)) {
  describe(`TargetStore contract [${implementation.name}]`, () => {
    let targets: TargetsUnderTest;
    let store: TargetStore;
    let db: Db;
    let tx: Transactor;
    let close: () => Promise<void>;
    let projects = 0;
    const newFlag = () => targets.addFlag(`targets-contract-${++projects}`);
    const insert = (...records: TargetRecord[]) =>
      tx.transaction(async (trx) => {
        for (const record of records) await store.insert(trx, record);
      });
    beforeAll(async () => {
      ({ store: targets, close } = await implementation.open());
      ({ store, db, tx } = targets);
    });
    afterAll(async () => {
      await close?.();
    });

    it('stores a target as given, found only under its flag and environment, listed newest first', async () => {
      const fixture = await newFlag();
      const other = await newFlag();
      const older = targetRecord(fixture, { created_at: '2026-01-01T00:00:00.000Z' });
      const newer = targetRecord(fixture, {
        created_at: '2026-01-02T00:00:00.000Z',
        comment: 'Half',
        split: {
          attribute: null,
          shares: [
            { value_ulid: fixture.values.on, weight: 50_000 },
            { value_ulid: fixture.values.off, weight: 50_000 },
          ],
        },
      });
      await insert(older, newer);
      expect(await store.find(db, fixture.flagUlid, fixture.environmentUlid, newer.ulid)).toEqual(newer);
      expect(await store.find(db, other.flagUlid, fixture.environmentUlid, newer.ulid)).toBeUndefined();
      expect(await store.find(db, fixture.flagUlid, other.environmentUlid, newer.ulid)).toBeUndefined();
      expect((await store.list(db, fixture.flagUlid, fixture.environmentUlid)).map((t) => t.ulid)).toEqual([newer.ulid, older.ulid]);
      await tx.transaction(async (trx) => {
        expect(await store.findLocked(trx, fixture.flagUlid, fixture.environmentUlid, older.ulid)).toEqual(older);
        expect(await store.lockFlagTargets(trx, fixture.flagUlid, fixture.environmentUlid)).toEqual({
          ulid: fixture.environmentUlid,
          comments_required: false,
          confirmation_required: false,
        });
        expect(await store.lockFlagTargets(trx, fixture.flagUlid, 'env_01J99999999999999999999999')).toBeUndefined();
        expect(await store.defaultValueUlid(trx, fixture.flagUlid)).toBe(fixture.values.off);
        expect(await store.valueBelongsToFlag(trx, fixture.values.on, fixture.flagUlid)).toBe(true);
        expect(await store.valueBelongsToFlag(trx, other.values.on, fixture.flagUlid)).toBe(false);
      });
    });

    it('updates and deletes only while the condition holds', async () => {
      const fixture = await newFlag();
      const target = targetRecord(fixture);
      await insert(target);
      await tx.transaction(async (trx) => {
        expect(await store.updateIf(trx, target.ulid, { status: ['published'] }, { comment: 'no' })).toBe(false);
        expect(
          await store.updateIf(
            trx,
            target.ulid,
            { status: ['draft', 'scheduled'], rollout_status: [null] },
            { comment: 'yes', value_ulid: fixture.values.on },
          ),
        ).toBe(true);
        expect(await store.updateIf(trx, 'tgt_01J99999999999999999999999', {}, { comment: 'gone' })).toBe(false);
      });
      expect(await store.find(db, fixture.flagUlid, fixture.environmentUlid, target.ulid)).toEqual({
        ...target,
        comment: 'yes',
        value_ulid: fixture.values.on,
      });
      await tx.transaction(async (trx) => {
        expect(await store.deleteIf(trx, target.ulid, { status: ['published'] })).toBe(false);
        expect(await store.deleteIf(trx, target.ulid, { status: ['draft'] })).toBe(true);
        expect(await store.deleteIf(trx, target.ulid, {})).toBe(false);
      });
      expect(await store.find(db, fixture.flagUlid, fixture.environmentUlid, target.ulid)).toBeUndefined();
    });

    it('lists published targets newest publish first, expires them (ending their rollouts), bumps the revision; rolls back', async () => {
      const fixture = await newFlag();
      const first = targetRecord(fixture, { status: 'published', published_at: '2026-01-01T00:00:00.000Z' });
      const second = targetRecord(fixture, {
        status: 'published',
        published_at: '2026-01-02T00:00:00.000Z',
        rollout_percentage: 10,
        rollout_mode: 'manual',
        rollout_status: 'active',
      });
      const draft = targetRecord(fixture);
      await insert(first, second, draft);
      await tx.transaction(async (trx) => {
        expect((await store.listPublished(trx, fixture.flagUlid, fixture.environmentUlid)).map((t) => t.ulid)).toEqual([
          second.ulid,
          first.ulid,
        ]);
        expect(await store.latestPublishedAt(trx, fixture.flagUlid, fixture.environmentUlid)).toBe('2026-01-02T00:00:00.000Z');
      });
      const before = await targets.revisionOf(fixture.environmentUlid);
      const failed = tx.transaction(async (trx) => {
        await store.expire(trx, [first.ulid], '2026-01-03T00:00:00.000Z');
        await store.bumpRevision(trx, fixture.environmentUlid, fixture.flagUlid);
        throw new Error('stop');
      });
      await expect(failed).rejects.toThrow('stop');
      expect((await store.find(db, fixture.flagUlid, fixture.environmentUlid, first.ulid))?.status).toBe('published');
      expect(await targets.revisionOf(fixture.environmentUlid)).toBe(before);
      await tx.transaction(async (trx) => {
        await store.expire(trx, [first.ulid, second.ulid, draft.ulid], '2026-01-03T00:00:00.000Z');
        await store.bumpRevision(trx, fixture.environmentUlid, fixture.flagUlid);
      });
      expect(await targets.revisionOf(fixture.environmentUlid)).toBe(before + 1);
      expect(await store.find(db, fixture.flagUlid, fixture.environmentUlid, first.ulid)).toEqual({
        ...first,
        status: 'expired',
        updated_at: '2026-01-03T00:00:00.000Z',
      });
      expect(await store.find(db, fixture.flagUlid, fixture.environmentUlid, second.ulid)).toEqual({
        ...second,
        status: 'expired',
        rollout_status: 'completed',
        updated_at: '2026-01-03T00:00:00.000Z',
      });
      expect((await store.find(db, fixture.flagUlid, fixture.environmentUlid, draft.ulid))?.status).toBe('draft');
      await tx.transaction(async (trx) => {
        expect(await store.listPublished(trx, fixture.flagUlid, fixture.environmentUlid)).toEqual([]);
        // Expired targets keep their publish time.
        expect(await store.latestPublishedAt(trx, fixture.flagUlid, fixture.environmentUlid)).toBe('2026-01-02T00:00:00.000Z');
      });
    });

    it('finds scheduled targets that are due, oldest first, and automatic rollout steps that are due, with their names', async () => {
      const fixture = await newFlag();
      const projectKey = `targets-contract-${projects}`;
      const later = targetRecord(fixture, { status: 'scheduled', scheduled_at: '2001-01-01T00:00:02.000Z' });
      const earlier = targetRecord(fixture, { status: 'scheduled', scheduled_at: '2001-01-01T00:00:01.000Z' });
      const notYet = targetRecord(fixture, { status: 'scheduled', scheduled_at: '2001-01-01T00:00:03.000Z' });
      const stepping = targetRecord(fixture, {
        status: 'published',
        published_at: '2001-01-01T00:00:00.000Z',
        rollout_percentage: 10,
        rollout_mode: 'automatic',
        rollout_status: 'active',
        rollout_step_started_at: '2001-01-01T00:00:01.000Z',
      });
      const paused = targetRecord(fixture, { ...stepping, ulid: `${stepping.ulid.slice(0, -1)}9`, rollout_status: 'paused' });
      await insert(later, earlier, notYet, stepping, paused);
      const ours = new Set([later.ulid, earlier.ulid, notYet.ulid, stepping.ulid, paused.ulid]);
      const due = (await store.dueScheduled(db, '2001-01-01T00:00:02.000Z', 1000)).filter((s) => ours.has(s.target.ulid));
      expect(due.map((s) => s.target.ulid)).toEqual([earlier.ulid, later.ulid]);
      // The scope's target may leave out an absent split.
      const { split: _split, ...earlierRow } = earlier;
      expect(due[0]).toMatchObject({ projectKey, flagKey: 'checkout', environmentKey: 'production', target: earlierRow });
      const steps = (await store.dueRolloutSteps(db, '2001-01-01T00:00:01.000Z', 1000)).filter((s) => ours.has(s.target.ulid));
      expect(steps.map((s) => s.target.ulid)).toEqual([stepping.ulid]);
      expect((await store.dueRolloutSteps(db, '2001-01-01T00:00:00.999Z', 1000)).filter((s) => ours.has(s.target.ulid))).toEqual([]);
    });
  });
}
