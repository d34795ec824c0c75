/**
 * `npm run reset-owner` (after `make build`): the way back in when every owner token and password
 * is lost. Needs access to the machine and its database settings, not to the API: it gives the
 * oldest owner account (creating one if none exists) a new personal access token and a new
 * temporary console password, ends that account's console sessions, and prints both secrets once.
 */
import { compose } from '../composition-root.js';
import { loadConfig } from '../config.js';
import { ownerAccount } from '../features/accounts/bootstrap.js';
import { buildAccountService } from '../features/accounts/index.js';
import { KnexStartupStore } from '../features/accounts/startup-store.js';
import { ConsoleSessionStore } from '../features/console-sessions/store.js';
import { generatePassword, hashPassword, temporaryPasswordUntil } from '../features/console-sessions/passwords.js';
import { StartupError } from '../startup-error.js';
import { inTransaction } from '../storage/transaction.js';

async function resetOwner(): Promise<void> {
  const config = loadConfig();
  const composition = await compose({ ...config, logLevel: 'silent' });
  const { core } = composition;
  try {
    const accounts = buildAccountService(core);
    const startup = new KnexStartupStore();
    const sessions = new ConsoleSessionStore();
    const password = generatePassword();
    const hash = await hashPassword(password);
    const { email, token } = await inTransaction(core.knex, async (trx) => {
      let owner: { ulid: string; email: string } | undefined = await startup.oldestOwnerAccount(trx);
      owner ??= await accounts.createIn(trx, { ...ownerAccount, role: 'owner' });
      const created = await accounts.createPersonalTokenIn(trx, owner.ulid, { name: `Reset ${core.clock.now().toISOString()}` });
      // Temporary: it only lets the owner choose their own password.
      const temporaryUntil = temporaryPasswordUntil(core.clock.now(), config.sessions.temporaryPasswordDays);
      // The new password ends the account's console sessions.
      await sessions.setPassword(trx, owner.ulid, hash, temporaryUntil, core.clock.now().toISOString());
      await composition.auditWriter.writeSystem(trx, {
        action: 'account.password_set',
        subjectType: 'account',
        subjectUlid: owner.ulid,
        subjectLabel: owner.email,
      });
      return { email: owner.email, token: created.token };
    });
    process.stdout.write(
      [
        '',
        `Owner account ${email}: new secrets, shown only this once.`,
        `  Personal access token: ${token}`,
        `  Console password:      ${password} (temporary: sign in and choose your own)`,
        'Older tokens of the account still work; revoke the lost ones once signed in.',
        '',
      ].join('\n'),
    );
  } finally {
    await composition.close();
  }
}

resetOwner().catch((error: unknown) => {
  if (error instanceof StartupError) console.error(`Cannot reset the owner: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
