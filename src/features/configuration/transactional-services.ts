import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { buildEnvironmentService } from '../environments/index.js';
import { buildFlagValueService } from '../flag-values/index.js';
import { buildFlagService } from '../flags/index.js';
import { buildPrerequisitesService } from '../prerequisites/index.js';
import { buildProjectService } from '../projects/index.js';
import { buildRulesService } from '../rules/index.js';
import { buildSegmentsService } from '../segments/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexLookups } from '../shared/lookup-store.js';
import type { Auditor } from '../shared/transactions.js';
import { buildTargetServices } from '../targets/services.js';

/**
 * The feature services, built over one database transaction by the features' own builders:
 * their own transactions become savepoints, so every change of one flags-as-code request commits
 * or rolls back together.
 */
export function servicesOver(trx: Knex.Transaction, core: CoreDeps) {
  const over: ServiceDeps = { ...core, knex: trx, lookups: knexLookups };
  return {
    /** The path lookups, run on the transaction. */
    lookups: knexLookups,
    projects: buildProjectService(over),
    environments: buildEnvironmentService(over),
    segments: buildSegmentsService(over),
    flags: buildFlagService(over),
    values: buildFlagValueService(over),
    targets: buildTargetServices(over),
    rules: buildRulesService(over),
    prerequisites: buildPrerequisitesService(over),
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
