/** A whole administration back end on fake stores, for the service unit tests. */
import type { Knex } from 'knex';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess, type ManagementPrincipal, type Role, type Scope } from '../../../src/auth/principal.js';
import { FakeAccountStore } from '../../../src/features/accounts/fake-store.js';
import { AccountService } from '../../../src/features/accounts/service.js';
import { FakeEnvironmentKeyStore } from '../../../src/features/environment-keys/fake-store.js';
import { EnvironmentKeyService } from '../../../src/features/environment-keys/service.js';
import { FakeEnvironmentStore } from '../../../src/features/environments/fake-store.js';
import { EnvironmentService } from '../../../src/features/environments/service.js';
import { fakeTransactor, type Auditor } from '../../../src/features/projects/admin-common.js';
import { FakeProjectStore } from '../../../src/features/projects/fake-store.js';
import { ProjectService } from '../../../src/features/projects/service.js';
import { FakeManagementTokenStore } from '../../../src/features/tokens/fake-store.js';
import { ManagementTokenService } from '../../../src/features/tokens/service.js';

export class TestClock {
  time = new Date('2026-03-04T05:06:07.000Z').getTime();
  now(): Date {
    return new Date(this.time);
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export function world() {
  const clock = new TestClock();
  const projects = new FakeProjectStore();
  const environments = new FakeEnvironmentStore();
  const keys = new FakeEnvironmentKeyStore();
  const tokens = new FakeManagementTokenStore();
  const accounts = new FakeAccountStore(projects);
  // The database's cascades.
  projects.onDelete = (ulid) => {
    const envUlids = [...environments.rows.values()].filter((e) => e.project_ulid === ulid).map((e) => e.ulid);
    environments.deleteProject(ulid);
    for (const [k, key] of keys.rows) if (envUlids.includes(key.environment_ulid)) keys.rows.delete(k);
    tokens.dropGrants({ projectUlid: ulid });
  };
  environments.onDelete = (ulid) => {
    for (const [k, key] of keys.rows) if (key.environment_ulid === ulid) keys.rows.delete(k);
    tokens.dropGrants({ environmentUlid: ulid });
  };
  const tx = fakeTransactor(projects, environments, keys, tokens, accounts);
  const db = {} as Knex;
  const environmentService = new EnvironmentService({ db, tx, projects, environments, tokens, clock });
  return {
    clock,
    stores: { projects, environments, keys, tokens, accounts },
    projects: new ProjectService({ db, tx, projects, environments: environmentService, tokens, clock }),
    environments: environmentService,
    keys: new EnvironmentKeyService({ db, tx, projects, environments, keys, clock }),
    tokens: new ManagementTokenService({ db, tx, projects, environments, tokens, clock }),
    accounts: new AccountService({ db, tx, accounts, projects, clock }),
  };
}

export type World = ReturnType<typeof world>;

/** An audit trail that remembers what it was told. */
export function recordingAudit(): Auditor & { committed: AuditSubject[]; described: AuditSubject[] } {
  const committed: AuditSubject[] = [];
  const described: AuditSubject[] = [];
  return {
    committed,
    described,
    async commit(_trx: Knex.Transaction, subject: AuditSubject) {
      committed.push(subject);
    },
    describe(subject: AuditSubject) {
      described.push(subject);
    },
  };
}

let n = 0;
export function principal(
  options: {
    role?: Role;
    type?: ManagementPrincipal['type'];
    scopes?: Scope[] | null;
    access?: ResourceAccess;
    accountUlid?: string;
  } = {},
): ManagementPrincipal {
  n += 1;
  return {
    type: options.type ?? 'personal_access_token',
    tokenUlid: `tok_${n}`,
    tokenName: 'test',
    account: { ulid: options.accountUlid ?? `usr_${n}`, name: 'Tester', email: `t${n}@example.test`, role: options.role ?? 'owner' },
    scopes: options.scopes === undefined ? null : options.scopes && new Set(options.scopes),
    tier: 'elevated',
    access: options.access ?? ResourceAccess.unrestricted(),
  };
}

/** Access of a token granted whole projects and single environments (by ulid). */
export function granted(projects: string[], environments: Array<[string, string]> = []): ResourceAccess {
  const map = new Map<string, Set<string>>();
  for (const [p, e] of environments) map.set(p, new Set([...(map.get(p) ?? []), e]));
  return new ResourceAccess(null, { projects: new Set(projects), environments: map });
}
