import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { portableSqlRules, rulesTable, violationsIn, violationsUnder, withoutComments } from '../support/portable-sql-rules.js';

const root = path.resolve(import.meta.dirname, '../..');

/** One use of each ruled-out construct, as code would write it (keyed by the rule's construct). */
const planted: Record<string, string> = {
  [portableSqlRules[0]!.construct]: "await trx.raw('SELECT GET_LOCK(?, 10)', ['scheduler']);",
  [portableSqlRules[1]!.construct]: "await trx.raw('select pg_try_advisory_xact_lock(?)', [42]);",
  [portableSqlRules[2]!.construct]: "await knex.raw('LOCK TABLES targets WRITE');",
  [portableSqlRules[3]!.construct]: "const query = trx('flag_values').where('ulid', ulid).forShare();",
  [portableSqlRules[4]!.construct]: "const next = await trx('webhook_events').where('status', 'pending').forUpdate().skipLocked().first();",
  [portableSqlRules[5]!.construct]: "await knex.raw('SELECT SQL_CALC_FOUND_ROWS * FROM flags LIMIT 10');",
  [portableSqlRules[6]!.construct]: "await knex.raw('ALTER TABLE flags ADD FULLTEXT INDEX flags_name (name)');",
  [portableSqlRules[7]!.construct]:
    "await knex.raw('CREATE TRIGGER audit_after_insert AFTER INSERT ON audit_logs FOR EACH ROW SET @n = 1');",
  [portableSqlRules[8]!.construct]: "await knex.raw('CALL purge_audit(?)', [cutoff]);",
  [portableSqlRules[9]!.construct]: 'await knex.raw("XA START \'apply\'");',
  [portableSqlRules[10]!.construct]: "await knex.raw('CREATE TEMPORARY TABLE wanted (ulid varchar(40))');",
  [portableSqlRules[11]!.construct]:
    "await knex.raw('SELECT ulid, row_number() over (partition by flag_ulid order by ulid) AS n FROM rules');",
};

describe('portable SQL: constructs the support matrix rules out', () => {
  it('no file under src/ or db/ uses one', () => {
    const found = violationsUnder(root, ['src', 'db']);
    expect(found.map((v) => `${v.file}:${v.line} ${v.construct}: ${v.text}`)).toEqual([]);
  });

  it('docs/databases.md states exactly these rules', () => {
    const doc = fs.readFileSync(path.join(root, 'docs/databases.md'), 'utf8');
    const block = /<!-- portable-sql-rules:start -->\n([\s\S]*?)\n<!-- portable-sql-rules:end -->/.exec(doc);
    expect(block, 'docs/databases.md has no portable-sql-rules markers').not.toBeNull();
    expect(block![1], `the table in docs/databases.md must read:\n${rulesTable()}`).toBe(rulesTable());
  });

  it('every rule has a planted example, and each example is caught by its own rule', () => {
    expect(Object.keys(planted).sort()).toEqual(portableSqlRules.map((rule) => rule.construct).sort());
    for (const [construct, code] of Object.entries(planted)) {
      expect(violationsIn('planted.ts', code).map((v) => v.construct)).toEqual([construct]);
    }
  });

  it('catches a planted use in a file under src/, naming the file and line', () => {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-portable-sql-'));
    try {
      const store = path.join(tree, 'src/features/widgets/store.ts');
      fs.mkdirSync(path.dirname(store), { recursive: true });
      fs.writeFileSync(
        store,
        [
          "import type { Knex } from 'knex';",
          '/** Takes the lock with GET_LOCK( in prose only: not a use. */',
          'export async function lockWidget(trx: Knex.Transaction, ulid: string) {',
          "  return trx('widgets').where('ulid', ulid).forShare().first('ulid'); // shared",
          '}',
        ].join('\n'),
      );
      fs.writeFileSync(path.join(tree, 'src/features/widgets/notes.md'), 'LOCK TABLES widgets WRITE');
      expect(violationsUnder(tree, ['src', 'db'])).toEqual([
        {
          file: 'src/features/widgets/store.ts',
          line: 4,
          construct: portableSqlRules[3]!.construct,
          text: "return trx('widgets').where('ulid', ulid).forShare().first('ulid');",
        },
      ]);
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });

  it('reads comments as prose but keeps strings that contain //', () => {
    expect(withoutComments("const url = 'mysql://db/vexil'; // GET_LOCK(").trimEnd()).toBe("const url = 'mysql://db/vexil';");
    expect(violationsIn('a.ts', '/* LOCK TABLES\n   x */ const a = 1;')).toEqual([]);
    expect(violationsIn('a.ts', "knex.raw('select 1') // the rollout is over (done)")).toEqual([]);
  });

  it('matches SQL in any case, as drivers accept it', () => {
    expect(violationsIn('a.ts', "knex.raw('select * from t lock in share mode')").map((v) => v.line)).toEqual([1]);
    expect(violationsIn('a.ts', "knex.raw('SELECT * FROM t FOR UPDATE')")).toEqual([]);
  });
});
