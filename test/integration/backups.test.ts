import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fencedBlocks } from '../docs/blocks.js';
import { describeEachDatabase, type TestDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The ```sh blocks of one section of docs/backups.md: the backup, then the restore. */
function procedure(heading: string): { backup: string; restore: string } {
  const page = fs.readFileSync('docs/backups.md', 'utf8');
  const section = new RegExp(`^## ${heading}\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(page)?.[1];
  if (!section) throw new Error(`docs/backups.md has no "${heading}" section`);
  const blocks = fencedBlocks(section).filter((b) => b.lang === 'sh');
  expect(blocks, `docs/backups.md, ${heading}`).toHaveLength(2);
  return { backup: blocks[0]!.text, restore: blocks[1]!.text };
}

const sections: Record<TestDatabase['name'], string> = { sqlite: 'SQLite', mariadb: 'MySQL and MariaDB', postgres: 'PostgreSQL' };

/** The variables the page's blocks name, for the database at `url` and a restore into `restoreName`. */
function variables(url: string, dir: string, restoreName: string): Record<string, string> {
  if (url.startsWith('sqlite:')) {
    return { VEXIL_DB: url.slice('sqlite:'.length), BACKUP: path.join(dir, 'backup.db'), RESTORE_DIR: path.join(dir, 'restored') };
  }
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (u.protocol === 'mysql:' || u.protocol === 'mariadb:') {
    return {
      DB_HOST: u.hostname,
      DB_PORT: u.port || '3306',
      DB_USER: decodeURIComponent(u.username),
      DB_NAME: name,
      BACKUP: path.join(dir, 'backup.sql'),
      RESTORE_DB_NAME: restoreName,
    };
  }
  return {
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username),
    DB_NAME: name,
    BACKUP: path.join(dir, 'backup.dump'),
    RESTORE_DB_NAME: restoreName,
  };
}

/** The URL of the restored database, by the same variables. */
function restoredUrl(url: string, vars: Record<string, string>): string {
  if (url.startsWith('sqlite:')) return `sqlite:${vars.RESTORE_DIR}/vexil.db`;
  const u = new URL(url);
  u.pathname = `/${vars.RESTORE_DB_NAME}`;
  return u.toString();
}

function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -e -o pipefail\n${script}`], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, output }));
  });
}

// The procedures of docs/backups.md, run as written while clients write: the copy holds every
// write acknowledged before the backup began, none in part, and a fresh instance serves it.
describeEachDatabase('backups of docs/backups.md', (db) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-backup-'));
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while clients write, restores into a fresh database, and finds every acknowledged write', async () => {
    const steps = procedure(sections[db.name]);
    const database = await db.createMigrated();
    cleanups.push(database.drop);
    const app: TestApp = await startTestApp(db, { databaseUrl: database.url });
    cleanups.push(() => app.close());
    expect((await app.mgmt('POST', '/projects', { key: 'shop', name: 'Shop' })).status).toBeLessThan(300);

    // Three clients create flags one after another until told to stop; each acknowledged key is kept with its time.
    const acknowledged: Array<{ key: string; at: number }> = [];
    let writing = true;
    const writer = async (client: number) => {
      for (let i = 0; writing; i++) {
        const key = `flag-${client}-${i}`;
        const res = await app.mgmt('POST', '/projects/shop/flags', { key, name: key, type: 'boolean' });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        acknowledged.push({ key, at: performance.now() });
      }
    };
    const writers = [writer(1), writer(2), writer(3)];
    while (acknowledged.length < 30) await new Promise((r) => setTimeout(r, 20));

    const restoreName = `vexil_restored_${Math.random().toString(16).slice(2, 10)}`;
    const vars = variables(database.url, dir, restoreName);
    const began = performance.now();
    const backup = await bash(steps.backup, vars);
    expect(backup.code, backup.output).toBe(0);
    const countAtEnd = acknowledged.length;
    writing = false;
    await Promise.all(writers);
    const before = acknowledged.filter((w) => w.at < began).map((w) => w.key);
    // The writes went on during the backup: it did not hold them up.
    expect(countAtEnd).toBeGreaterThan(before.length);

    const restore = await bash(steps.restore, vars);
    expect(restore.code, restore.output).toBe(0);
    const url = restoredUrl(database.url, vars);
    const restored = await startTestApp(db, { databaseUrl: url, keepDatabase: true });
    cleanups.push(async () => {
      await restored.close();
      if (db.name !== 'sqlite') {
        const dropUrl = new URL(url);
        const admin = await import('knex').then((k) =>
          k.default(
            db.name === 'mariadb'
              ? { client: 'mysql2', connection: { uri: url.replace(`/${restoreName}`, '') } as never }
              : { client: 'pg', connection: dropUrl.toString().replace(`/${restoreName}`, '/postgres') },
          ),
        );
        try {
          await admin.raw(
            db.name === 'mariadb' ? `DROP DATABASE IF EXISTS \`${restoreName}\`` : `DROP DATABASE IF EXISTS "${restoreName}"`,
          );
        } finally {
          await admin.destroy();
        }
      }
    });

    const keys = new Set<string>(await restored.knex('flags').pluck('key'));
    expect(before.filter((key) => !keys.has(key))).toEqual([]);
    // No write in part: every flag in the copy has both of its values.
    const counts = await restored.knex('flag_values').select('flag_ulid').count({ n: '*' }).groupBy('flag_ulid');
    expect(counts).toHaveLength(keys.size);
    expect(counts.every((c) => Number(c.n) === 2)).toBe(true);
    // And the fresh instance serves it.
    const sample = before.at(-1)!;
    expect((await restored.mgmt('GET', `/projects/shop/flags/${sample}`)).status).toBe(200);
  }, 120_000);
});
