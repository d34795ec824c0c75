import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { bumpProjectRevisions } from '../../src/storage/revisions.js';
import { inTransaction, runBeforeCommit } from '../../src/storage/transaction.js';
import { describeEachDatabase } from '../support/databases.js';

/**
 * The revision bump every change makes is sent last in its transaction (storage/revisions.ts), so
 * the environments' row locks it takes are held for the bump and the commit only.
 */
describeEachDatabase('the revision bump, last in its transaction', (db) => {
  let database: { url: string; drop(): Promise<void> };
  let knex: ReturnType<typeof openDatabase>['knex'];
  const project = 'prj_01JREVISIONBUMPLAST0000000';
  const environments = ['env_01JREVISIONBUMPLAST0000001', 'env_01JREVISIONBUMPLAST0000002'];

  beforeAll(async () => {
    database = await db.createMigrated();
    knex = openDatabase(database.url).knex;
    const now = new Date().toISOString();
    await knex('projects').insert({
      ulid: project,
      key: 'bump-last',
      name: 'Bump last',
      description: '',
      created_at: now,
      updated_at: now,
    });
    await knex('environments').insert(
      environments.map((ulid, i) => ({
        ulid,
        project_ulid: project,
        key: `env-${i}`,
        name: `Env ${i}`,
        color: '#000000',
        comments_required: false,
        confirmation_required: false,
        created_at: now,
        updated_at: now,
      })),
    );
  });
  afterAll(async () => {
    await knex?.destroy();
    await database?.drop();
  });

  const revisions = async () =>
    (await knex('environments').whereIn('ulid', environments).orderBy('ulid').select('revision')).map((r) => Number(r.revision));
  const changes = async (flag: string) =>
    (await knex('revision_changes').where('flag_ulid', flag).orderBy('environment_ulid').select('environment_ulid', 'revision')).map(
      (r) => [r.environment_ulid, Number(r.revision)],
    );

  it('is made after the rest of the work, once per environment however often it was asked for', async () => {
    const before = await revisions();
    const order: string[] = [];
    await inTransaction(knex, async (trx) => {
      await bumpProjectRevisions(trx, project, ['flg_01JREVISIONBUMPLASTFLAGA00']);
      // Not bumped yet: the work goes on without the environments' rows locked.
      expect(
        (await trx('environments').whereIn('ulid', environments).orderBy('ulid').select('revision')).map((r) => Number(r.revision)),
      ).toEqual(before);
      await bumpProjectRevisions(trx, project, ['flg_01JREVISIONBUMPLASTFLAGB00']);
      runBeforeCommit(trx, async () => {
        order.push('step');
      });
      order.push('work');
    });
    expect(order).toEqual(['work', 'step']);
    expect(await revisions()).toEqual(before.map((r) => r + 1));
    // Both flags are recorded as changed in the one new revision of each environment.
    for (const flag of ['flg_01JREVISIONBUMPLASTFLAGA00', 'flg_01JREVISIONBUMPLASTFLAGB00']) {
      expect(await changes(flag)).toEqual(environments.map((ulid, i) => [ulid, before[i]! + 1]));
    }
  });

  it('is not made when the work fails, and is made at once outside inTransaction', async () => {
    const before = await revisions();
    await expect(
      inTransaction(knex, async (trx) => {
        await bumpProjectRevisions(trx, project, ['flg_01JREVISIONBUMPLASTFLAGC00']);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await revisions()).toEqual(before);
    expect(await changes('flg_01JREVISIONBUMPLASTFLAGC00')).toEqual([]);

    await knex.transaction(async (trx) => {
      await bumpProjectRevisions(trx, project, ['flg_01JREVISIONBUMPLASTFLAGD00']);
      expect(
        (await trx('environments').whereIn('ulid', environments).orderBy('ulid').select('revision')).map((r) => Number(r.revision)),
      ).toEqual(before.map((r) => r + 1));
    });
  });

  it('in a nested transaction, is made when that savepoint ends', async () => {
    const before = await revisions();
    await inTransaction(knex, async (trx) => {
      await inTransaction(trx, (savepoint) => bumpProjectRevisions(savepoint, project, ['flg_01JREVISIONBUMPLASTFLAGE00']));
      expect(
        (await trx('environments').whereIn('ulid', environments).orderBy('ulid').select('revision')).map((r) => Number(r.revision)),
      ).toEqual(before.map((r) => r + 1));
    });
    expect(await changes('flg_01JREVISIONBUMPLASTFLAGE00')).toEqual(environments.map((ulid, i) => [ulid, before[i]! + 1]));
  });
});
