import type { FeatureDeps } from '../feature.js';
import { consoleSessionController } from './controller.js';
import { ConsoleSessionService } from './service.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { ConsoleSessionStore } from './store.js';
import { knexTransactor } from '../shared/transactions.js';

/** Built once in the composition root: the authentication stage and the handlers share it. */
export function buildConsoleSessionService(deps: Pick<FeatureDeps, 'knex' | 'clock' | 'config'>): ConsoleSessionService {
  const { sessions } = deps.config;
  return new ConsoleSessionService({
    db: deps.knex,
    store: new ConsoleSessionStore(),
    tx: knexTransactor(deps.knex),
    // One address may try several accounts (an office behind one NAT): ten times the account's free failures.
    throttle: new SignInThrottle({
      freeFailures: sessions.signInAttempts,
      freeAddressFailures: sessions.signInAttempts * 10,
      windowMs: 15 * 60_000,
    }),
    clock: deps.clock,
    settings: {
      absoluteMs: sessions.hours * 3_600_000,
      idleMs: sessions.idleMinutes * 60_000,
      temporaryPasswordDays: sessions.temporaryPasswordDays,
      publicOrigin: deps.config.publicOrigin,
      passwordHashing: sessions.passwordHashing,
    },
  });
}

/** Console sign-in (createSession ... setAccountPassword). */
export function createConsoleSessionsFeature(deps: FeatureDeps) {
  return { managementHandlers: consoleSessionController(deps.consoleSessions) };
}
