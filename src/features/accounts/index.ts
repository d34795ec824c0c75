import type { CoreDeps } from '../../core.js';
import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { KnexProjectStore } from '../projects/store.js';
import { accountHandlers } from './controller.js';
import { AccountService } from './service.js';
import { KnexAccountStore } from './store.js';

export function buildAccountService(core: Pick<CoreDeps, 'knex' | 'dialect' | 'clock'>): AccountService {
  return new AccountService({
    db: core.knex,
    tx: knexTransactor(core.knex),
    accounts: new KnexAccountStore(core.dialect),
    projects: new KnexProjectStore(),
    clock: core.clock,
  });
}

export function createAccountsFeature(deps: FeatureDeps) {
  return { managementHandlers: accountHandlers(buildAccountService(deps)) };
}
