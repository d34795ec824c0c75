import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStoreFile, sqlAllowed, sqlLines, sqlOutsideStores } from '../../support/sql-outside-stores.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('SQL lives in stores and src/storage/', () => {
  it('no other file of src/ runs SQL', () => {
    expect(sqlOutsideStores(root, 'src'), 'move the SQL into the feature’s store (docs/architecture.md)').toEqual([]);
  });

  it('every allowed file exists, is no store, and still runs SQL', () => {
    for (const [file, reason] of Object.entries(sqlAllowed)) {
      expect(reason.length, file).toBeGreaterThan(20);
      expect(isStoreFile(file), file).toBe(false);
      expect(sqlLines(fs.readFileSync(path.join(root, file), 'utf8')).length, `${file} runs no SQL: take it off the list`).toBeGreaterThan(
        0,
      );
    }
  });

  it('finds each kind of SQL, and not prose or a store', () => {
    const planted = [
      "const rows = await this.deps.db('flags').where('ulid', ulid);",
      "await trx('targets').update({ status: 'expired' });",
      "await knex.raw('select 1');",
      'const sql = `SELECT ulid FROM flags WHERE key = ?`;',
      "await execute(db, 'x', []);",
      "const text = 'DELETE FROM audit_entries';",
    ];
    expect(planted.map((line) => sqlLines(line).length)).toEqual(planted.map(() => 1));
    expect(sqlLines("// knex('flags') in a comment\nthrow new Error('Select a value from the list.');")).toEqual([]);
    expect(isStoreFile('src/features/flags/store.ts')).toBe(true);
    expect(isStoreFile('src/features/flags/serving-overview-store.ts')).toBe(true);
    expect(isStoreFile('src/features/flags/service.ts')).toBe(false);
  });
});
