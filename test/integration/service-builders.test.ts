/**
 * Each feature's services are built by one builder (docs/architecture.md, "One feature shape"),
 * wherever they are needed: the composition root, the flag page's overview and each flags-as-code
 * transaction (configuration/transactional-services.ts). A service built by hand in one of these
 * places drifts (the flags-as-code flag service once lacked its serving reader): here each place's
 * services are compared by what they are built from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOver } from '../../src/features/configuration/transactional-services.js';
import { buildFlagOverviewService } from '../../src/features/flag-overview/index.js';
import { knexLookups } from '../../src/features/shared/lookup-store.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** What a service is built from: its class, and each member of its `deps` with the class of its value, nested services in full. */
function builtFrom(value: unknown, depth = 0): unknown {
  if (typeof value === 'function') return 'function';
  if (value === null || typeof value !== 'object') return typeof value;
  const deps = (value as { deps?: unknown }).deps;
  if (deps && typeof deps === 'object' && depth < 4) {
    const members = Object.entries(deps as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return { class: value.constructor.name, deps: Object.fromEntries(members.map(([key, member]) => [key, builtFrom(member, depth + 1)])) };
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype && depth < 4) {
    // A group of services (the targets'): each member.
    const members = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return Object.fromEntries(members.map(([key, member]) => [key, builtFrom(member, depth + 1)]));
  }
  return value.constructor.name;
}

describeEachDatabase('service builders', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('builds each transaction’s services as the composition builds its own', async () => {
    const built = app.composition.services;
    await app.knex.transaction(async (trx) => {
      const { lookups: _lookups, ...perTransaction } = servicesOver(trx, app.composition.core);
      expect(Object.keys(perTransaction).length).toBeGreaterThan(5);
      for (const [name, service] of Object.entries(perTransaction)) {
        expect(built[name], `the composition has no "${name}" service (FeatureParts.services)`).toBeDefined();
        expect(builtFrom(service), name).toEqual(builtFrom(built[name]));
      }
    });
  });

  it('builds the flag overview’s services as the composition builds its own', () => {
    const built = app.composition.services;
    const overview = buildFlagOverviewService(
      { ...app.composition.core, lookups: knexLookups },
      { explained: async () => ({}) as never },
    ) as unknown as { deps: Record<string, unknown> };
    for (const name of ['flags', 'targets', 'rules', 'prerequisites', 'insights']) {
      expect(builtFrom(overview.deps[name]), name).toEqual(builtFrom(built[name]));
    }
  });

  it('tells services apart that are built from different parts', () => {
    const built = app.composition.services;
    const flags = built.flags as { deps: Record<string, unknown> };
    const { serving: _serving, ...withoutServing } = flags.deps;
    const handBuilt = Object.assign(Object.create(Object.getPrototypeOf(flags)), { deps: withoutServing });
    expect(builtFrom(handBuilt)).not.toEqual(builtFrom(flags));
  });
});

describe('builtFrom', () => {
  it('names the class of each dependency', () => {
    class Store {}
    class Service {
      constructor(readonly deps: object) {}
    }
    expect(builtFrom(new Service({ store: new Store(), clock: { now: () => new Date() } }))).toEqual({
      class: 'Service',
      deps: { clock: { now: 'function' }, store: 'Store' },
    });
  });
});
