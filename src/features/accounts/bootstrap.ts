import { looksLikeSecret } from '../../auth/secrets.js';
import { generatePassword, hashPassword, temporaryPasswordUntil } from '../console-sessions/passwords.js';
import type { CoreDeps } from '../../core.js';
import type { Config } from '../../config.js';
import { inTransaction } from '../../storage/transaction.js';
import { buildEnvironmentKeyService } from '../environment-keys/index.js';
import type { EnvironmentKeyCreated } from '../environment-keys/service.js';
import { buildProjectService } from '../projects/index.js';
import { addDemoFlags } from './demo-flags.js';
import { KnexStartupStore } from './startup-store.js';
import { KnexAccountStore } from './store.js';
import { buildAccountService } from './index.js';

/** The job_leases row whose lock serialises first starts of instances sharing one database. */
const leaseName = 'first-start';
const demoKinds = ['server', 'client'] as const;

export const ownerAccount = { name: 'Owner', email: 'owner@vexil.local' } as const;

export interface FirstStartResult {
  /**
   * What happened: nothing (accounts exist), the owner from VEXIL_INIT_OWNER_TOKEN, owner plus demo
   * project, or only the owner (projects existed already).
   */
  outcome: 'existing' | 'init-token' | 'demo' | 'owner';
  ownerUlid?: string;
}

/**
 * First start (README, "First start"). With `VEXIL_INIT_OWNER_TOKEN=pat_...` and no account yet,
 * creates the owner account with that token. Without it, an empty database gets an owner with a
 * generated personal access token and a `demo` project (development and production, a server
 * and a client key each, and the flags of demo-flags.ts); the secrets are written once to standard output, never to the log.
 * Instances starting together are serialised by a row lock: exactly one creates the owner.
 */
export async function bootstrapFirstStart(
  core: CoreDeps,
  initOwnerToken: string | undefined,
  write: (text: string) => void = (text) => void process.stdout.write(text),
  /** False when a configuration file will be imported instead (VEXIL_IMPORT_FILE). */
  createDemo = true,
): Promise<FirstStartResult> {
  if (initOwnerToken !== undefined && !looksLikeSecret(initOwnerToken, ['pat_'])) {
    throw new Error('VEXIL_INIT_OWNER_TOKEN must be a personal access token: "pat_" followed by 32 to 200 letters and digits.');
  }
  const { knex, clock, logger } = core;
  const accounts = buildAccountService(core);
  const projects = buildProjectService(core);
  const keys = buildEnvironmentKeyService(core);
  const startup = new KnexStartupStore();
  const accountStore = new KnexAccountStore(core.dialect);

  await startup.ensureLease(knex, leaseName);
  const created = await inTransaction(knex, async (trx) => {
    // Writing the row first takes its lock before anything is read.
    await startup.takeLease(trx, leaseName, `pid-${process.pid}`, clock.now().toISOString());
    if ((await accountStore.count(trx)) > 0) return undefined;

    const owner = await accounts.createIn(trx, { ...ownerAccount, role: 'owner' });
    const pat = await accounts.createPersonalTokenIn(trx, owner.ulid, { name: 'First start' }, initOwnerToken);
    if (initOwnerToken !== undefined) return { owner, pat, demo: undefined };
    // A temporary password to sign in to the console, shown with the token: it only lets the owner
    // choose their own password, within VEXIL_TEMPORARY_PASSWORD_DAYS.
    const password = generatePassword();
    const temporaryUntil = temporaryPasswordUntil(clock.now(), core.config.sessions.temporaryPasswordDays);
    await startup.setTemporaryPassword(trx, owner.ulid, await hashPassword(password), temporaryUntil);

    if (!createDemo || (await startup.projectCount(trx)) > 0) return { owner, pat, password, temporaryUntil, demo: undefined };
    const { project, environments } = await projects.createIn(trx, {
      key: 'demo',
      name: 'Demo',
      description: 'Created at first start to try Vexil out; delete it when you no longer need it.',
    });
    await addDemoFlags(trx, core, owner, pat, project, environments);
    const demoKeys: Array<{ environment: string; key: EnvironmentKeyCreated }> = [];
    for (const environment of environments) {
      for (const kind of demoKinds) demoKeys.push({ environment: environment.key, key: await keys.createIn(trx, environment, { kind }) });
    }
    return { owner, pat, password, temporaryUntil, demo: { project, keys: demoKeys } };
  });

  if (!created) {
    if (initOwnerToken !== undefined)
      logger.warn(
        'VEXIL_INIT_OWNER_TOKEN is ignored: the database already has accounts (see "Lost the owner token or password?" in the README)',
      );
    return { outcome: 'existing' };
  }
  if (initOwnerToken !== undefined) {
    logger.info({ account: created.owner.ulid }, 'first start: created the owner account with VEXIL_INIT_OWNER_TOKEN');
    return { outcome: 'init-token', ownerUlid: created.owner.ulid };
  }
  const demo = created.demo;
  const lines = [
    '',
    demo ? 'Vexil first start: created the owner account and a demo project.' : 'Vexil first start: created the owner account.',
    'These secrets are shown only this once; store them now.',
    '',
    `  Owner personal access token (${created.owner.email}):`,
    `    ${created.pat.token}`,
    '',
    `  Web console: open ${consoleAddress(core.config)} and sign in as ${created.owner.email}`,
    `    with the temporary password ${created.password}`,
    `    (it only lets you choose your own password, until ${created.temporaryUntil})`,
    '',
    ...(demo
      ? [
          `  Environment keys of project "${demo.project.key}":`,
          ...demo.keys.map(({ environment, key }) => `    ${environment.padEnd(12)} ${key.kind.padEnd(7)} ${key.key}`),
          '',
        ]
      : []),
    '  Management API: Authorization: Bearer <owner token>, under /management/v1',
    '  Public API:     X-VEXIL-API-KEY: <environment key>, under /v1',
    '',
  ];
  write(lines.join('\n') + '\n');
  return { outcome: demo ? 'demo' : 'owner', ownerUlid: created.owner.ulid };
}

/** Where a person opens the console: the public address when one is set, else this machine's listener. */
export function consoleAddress(config: Pick<Config, 'publicOrigin' | 'host' | 'port'>): string {
  if (config.publicOrigin !== undefined) return `${config.publicOrigin}/`;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}/`;
}
