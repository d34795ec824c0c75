import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { buildEnvironmentService } from '../environments/index.js';
import { FlagValueService } from '../flag-values/service.js';
import { KnexFlagValueStore } from '../flag-values/store.js';
import { FlagService } from '../flags/service.js';
import { KnexFlagStore } from '../flags/store.js';
import { buildProjectService } from '../projects/index.js';
import { RulesService } from '../rules/service.js';
import { KnexRulesStore } from '../rules/store.js';
import { PrerequisitesService } from '../prerequisites/service.js';
import { KnexPrerequisitesStore } from '../prerequisites/store.js';
import { knexLookups } from '../shared/lookup-store.js';
import { SegmentsService } from '../segments/service.js';
import { type Auditor, knexTransactor } from '../shared/transactions.js';
import { KnexSegmentsStore } from '../segments/store.js';
import { buildTargetServices } from '../targets/services.js';
import { KnexTargetStore } from '../targets/store.js';

/**
 * The feature services, built over one database transaction: their own transactions become
 * savepoints, so every change of one flags-as-code request commits or rolls back together.
 */
export function servicesOver(trx: Knex.Transaction, core: CoreDeps) {
  const over = { ...core, knex: trx };
  const tx = knexTransactor(trx);
  return {
    /** The path lookups, run on the transaction. */
    lookups: knexLookups,
    projects: buildProjectService(over),
    environments: buildEnvironmentService(over),
    segments: new SegmentsService({ db: trx, tx, lookups: knexLookups, store: new KnexSegmentsStore(core.dialect), clock: core.clock }),
    flags: new FlagService({ db: trx, tx, lookups: knexLookups, store: new KnexFlagStore(core.dialect), clock: core.clock }),
    values: new FlagValueService({ db: trx, tx, lookups: knexLookups, store: new KnexFlagValueStore(core.dialect), clock: core.clock }),
    targets: buildTargetServices({
      db: trx,
      tx,
      store: new KnexTargetStore(core.dialect),
      lookups: knexLookups,
      clock: core.clock,
      rolloutStepMs: core.config.rolloutStepMs,
    }),
    rules: new RulesService({ db: trx, tx, store: new KnexRulesStore(core.dialect), clock: core.clock }),
    prerequisites: new PrerequisitesService({ db: trx, tx, store: new KnexPrerequisitesStore(core.dialect) }),
  };
}

export type TransactionalServices = ReturnType<typeof servicesOver>;

/** What a flags-as-code request acts with: the transaction's services, the caller, and a fresh Auditor per change. */
export interface ActingContext {
  services: TransactionalServices;
  trx: Knex.Transaction;
  principal: ManagementPrincipal;
  projectKey: string;
  /** A fresh trail per change (the request's `Auditor.fresh()`), so each audit entry describes only its own subject. */
  newTrail(): Auditor;
}

export function actingContext(
  trx: Knex.Transaction,
  core: CoreDeps,
  principal: ManagementPrincipal,
  projectKey: string,
  audit: Auditor,
): ActingContext {
  return {
    services: servicesOver(trx, core),
    trx,
    principal,
    projectKey,
    newTrail: () => audit.fresh(),
  };
}
