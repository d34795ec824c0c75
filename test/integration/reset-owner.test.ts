import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compose } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';
import { bootstrapFirstStart } from '../../src/features/accounts/bootstrap.js';
import { generateSecret } from '../../src/auth/secrets.js';
import { describeEachDatabase } from '../support/databases.js';
import { builtResetOwner, requireFreshBuild } from '../support/built.js';

const run = promisify(execFile);

// The way back when the owner's secrets are lost: a command run on the machine, not the API.
// `npm run reset-owner` runs the built command (package.json).
describeEachDatabase('npm run reset-owner', (db) => {
  let database: { url: string; drop(): Promise<void> };
  let databaseUrl = '';
  beforeAll(async () => {
    requireFreshBuild();
    database = await db.create();
    databaseUrl = database.url;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('gives the owner a new token and a temporary console password that work, printed once', async () => {
    const config = { ...loadConfig({ DATABASE_URL: databaseUrl }), logLevel: 'silent' };
    const first = await compose(config);
    await bootstrapFirstStart(first.core, generateSecret('pat_'));
    await first.close();

    const { stdout, stderr } = await run(process.execPath, [builtResetOwner], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    expect(stderr).toBe('');
    const token = /Personal access token: (pat_[0-9A-Za-z]{40})/.exec(stdout)?.[1];
    const password = /Console password: +(\S{20})/.exec(stdout)?.[1];
    expect(token).toBeDefined();
    expect(password).toBeDefined();

    const again = await compose(config);
    try {
      const digest = (await import('../../src/auth/secrets.js')).digestSecret(token as string);
      expect(await again.core.knex('personal_access_tokens').where('digest', digest).first('ulid')).toBeDefined();
      const signedIn = await again.consoleSessions.signIn('owner@vexil.local', password as string, '127.0.0.1');
      expect(signedIn.principal.account.role).toBe('owner');
      // Temporary: the session it opens may only choose the owner's own password.
      expect(signedIn.session.password_change_required).toBe(true);
      // The secrets are not in the database in clear.
      const account = await again.core.knex('accounts').where('role', 'owner').first('password_hash');
      expect(account.password_hash).toMatch(/^scrypt\$/);
      expect(account.password_hash).not.toContain(password);
    } finally {
      await again.close();
    }
  });

  it('creates the owner account when the database has none', async () => {
    const empty = await db.create();
    try {
      const { stdout } = await run(process.execPath, [builtResetOwner], {
        env: { ...process.env, DATABASE_URL: empty.url },
      });
      expect(stdout).toContain('Owner account owner@vexil.local: new secrets');
      const config = { ...loadConfig({ DATABASE_URL: empty.url }), logLevel: 'silent' };
      const composition = await compose(config);
      try {
        expect(await composition.core.knex('accounts').select('email', 'role')).toEqual([{ email: 'owner@vexil.local', role: 'owner' }]);
      } finally {
        await composition.close();
      }
    } finally {
      await empty.drop();
    }
  });
});
