import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { StartupError } from '../../src/startup-error.js';
import { describeEachDatabase } from '../support/databases.js';

/** A logger that keeps its lines, to count what a start says while it waits. */
function collectingLogger() {
  const lines: Array<{ msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describeEachDatabase('migrations while another instance holds the lock', (db) => {
  let database: { url: string; drop(): Promise<void> };
  let knex: ReturnType<typeof openDatabase>['knex'];
  const lock = (held: boolean) => knex('knex_migrations_lock').update({ is_locked: held ? 1 : 0 });

  beforeAll(async () => {
    database = await db.create();
    knex = openDatabase(database.url).knex;
    await migrateToLatest(knex, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await knex?.destroy();
    await database?.drop();
  });

  it('waits for the lock to be released, says so once, then finds nothing left to migrate', async () => {
    await lock(true);
    const { logger, lines } = collectingLogger();
    const release = new Promise((resolve) => setTimeout(resolve, 600)).then(() => lock(false));
    const started = Date.now();
    await migrateToLatest(knex, logger, { lockWaitMs: 10_000, pollMs: 50 });
    await release;
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(lines.map((line) => line.msg)).toEqual(['another instance is migrating the schema; waiting for it to finish']);
    expect((await knex('knex_migrations_lock').first('is_locked')).is_locked).toBe(0);
  });

  it('stops the start with one line naming the way out when the lock stays taken', async () => {
    await lock(true);
    try {
      const attempt = migrateToLatest(knex, pino({ level: 'silent' }), { lockWaitMs: 300, pollMs: 50 });
      await expect(attempt).rejects.toBeInstanceOf(StartupError);
      await expect(attempt).rejects.toThrow(/lock is still taken after 0 s: .*UPDATE knex_migrations_lock SET is_locked = 0/);
    } finally {
      await lock(false);
    }
  });
  it('repairs a lock table given two rows by two first starts at once, and migrates', async () => {
    await knex('knex_migrations_lock').insert({ is_locked: 0 });
    expect(await knex('knex_migrations_lock').count({ n: '*' }).first()).toMatchObject({ n: 2 });
    await migrateToLatest(knex, pino({ level: 'silent' }), { lockWaitMs: 5_000, pollMs: 50 });
    expect(await knex('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
  });
});
