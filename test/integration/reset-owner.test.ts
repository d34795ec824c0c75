import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';
import { bootstrapFirstStart } from '../../src/features/accounts/bootstrap.js';
import { generateSecret } from '../../src/auth/secrets.js';

const run = promisify(execFile);

// The way back when the owner's secrets are lost: a command run on the machine, not the API.
describe('npm run reset-owner', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-reset-'));
  const databaseUrl = `sqlite:${dir}/vexil.db`;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the owner a new token and console password that work, printed once', async () => {
    const config = { ...loadConfig({ DATABASE_URL: databaseUrl }), logLevel: 'silent' };
    const first = await compose(config);
    await bootstrapFirstStart(first.core, generateSecret('pat_'));
    await first.close();

    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/tools/reset-owner.ts'], {
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
      // The secrets are not in the database in clear.
      const account = await again.core.knex('accounts').where('role', 'owner').first('password_hash');
      expect(account.password_hash).toMatch(/^scrypt\$/);
      expect(account.password_hash).not.toContain(password);
    } finally {
      await again.close();
    }
  });
});
