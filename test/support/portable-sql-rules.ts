import fs from 'node:fs';
import path from 'node:path';

/**
 * SQL constructs Vexil's code must not use, because a database in the support matrix
 * (docs/databases.md) lacks them or gives them other semantics. This list is the one source of
 * truth: test/unit/portable-sql.test.ts scans src/ and db/ with it, and checks that the table
 * in docs/databases.md (between its portable-sql-rules markers) is exactly `rulesTable()`.
 */
export interface PortableSqlRule {
  /** The construct, as the documentation's table names it. */
  construct: string;
  /** Matched against code with comments removed, case-insensitively. */
  pattern: RegExp;
  /** The engines of the matrix that lack it or give it other semantics. */
  rulesOut: string;
  /** What Vexil does instead. */
  instead: string;
}

export const portableSqlRules: readonly PortableSqlRule[] = [
  {
    construct: 'MySQL user-level locks: `GET_LOCK`, `RELEASE_LOCK`, `IS_FREE_LOCK`, `IS_USED_LOCK`',
    pattern: /\b(GET_LOCK|RELEASE_LOCK|RELEASE_ALL_LOCKS|IS_FREE_LOCK|IS_USED_LOCK)\s*\(/i,
    rulesOut: 'Galera (unsupported)',
    instead: 'a row lock (`job_leases`, the target row) or a lease column checked in the database clock',
  },
  {
    construct: 'PostgreSQL advisory locks: `pg_advisory_lock` and the rest of the family',
    pattern: /\bpg_(try_)?advisory_(xact_)?(un)?lock(_shared|_all)?\s*\(/i,
    rulesOut: 'CockroachDB (none), YugabyteDB (only in recent releases)',
    instead: 'the same row locks and leases as on MySQL',
  },
  {
    construct: '`LOCK TABLES` / `LOCK TABLE`',
    pattern: /\bLOCK\s+TABLES?\b/i,
    rulesOut: 'Galera (unsupported), TiDB (off unless `enable-table-lock`)',
    instead: 'row locks taken in a fixed order',
  },
  {
    construct: 'Shared row locks: `LOCK IN SHARE MODE`, `FOR SHARE`, `FOR KEY SHARE`, Knex `forShare()`',
    pattern: /\bLOCK\s+IN\s+SHARE\s+MODE\b|\bFOR\s+(KEY\s+)?SHARE\b|\.for(Key)?Share\s*\(/i,
    rulesOut: 'TiDB (refused, or a no-op), CockroachDB (no lock under `SERIALIZABLE` by default)',
    instead: '`FOR UPDATE` (Knex `forUpdate()`)',
  },
  {
    construct: '`SKIP LOCKED` / `NOWAIT`',
    pattern: /\bSKIP\s+LOCKED\b|\bNOWAIT\b|\.skipLocked\s*\(|\.noWait\s*\(/i,
    rulesOut: 'Galera (locks are local to one node), TiDB (no `SKIP LOCKED`)',
    instead: 'waiting for the lock, bounded by the lock wait timeout and retried',
  },
  {
    construct: '`SQL_CALC_FOUND_ROWS` / `FOUND_ROWS()`',
    pattern: /\bSQL_CALC_FOUND_ROWS\b|\bFOUND_ROWS\s*\(/i,
    rulesOut: 'TiDB (a no-op function, off by default); MySQL-only and deprecated in MySQL 8',
    instead: 'keyset pages with a separate `COUNT(*)` where a total is needed',
  },
  {
    construct: '`FULLTEXT` indexes and `MATCH ... AGAINST`',
    pattern: /\bFULLTEXT\b|\bMATCH\s*\([^)]*\)\s*AGAINST\b/i,
    rulesOut: 'TiDB',
    instead: '`LIKE` with an escape character (flag search)',
  },
  {
    construct: 'Triggers (`CREATE TRIGGER`)',
    pattern: /\bCREATE\s+(OR\s+REPLACE\s+)?(DEFINER\s*=\s*\S+\s+)?TRIGGER\b/i,
    rulesOut: 'TiDB',
    instead: "the store writes every row itself, in the change's transaction",
  },
  {
    construct: 'Stored procedures and functions, events (`CREATE PROCEDURE`, `CREATE FUNCTION`, `CREATE EVENT`, `CALL`)',
    pattern: /\bCREATE\s+(OR\s+REPLACE\s+)?(DEFINER\s*=\s*\S+\s+)?(PROCEDURE|FUNCTION|EVENT)\b|\bCALL\s+\w+\s*\(/i,
    rulesOut: 'TiDB (none), Vitess (`CREATE PROCEDURE` not through VTGate)',
    instead: 'TypeScript in the store; background work in the poller',
  },
  {
    construct: 'XA transactions',
    pattern: /\bXA\s+(START|BEGIN|END|PREPARE|COMMIT|ROLLBACK|RECOVER)\b/i,
    rulesOut: 'Galera, TiDB',
    instead: 'one local transaction per change',
  },
  {
    construct: 'Temporary tables (`CREATE TEMPORARY TABLE`)',
    pattern: /\bCREATE\s+(GLOBAL\s+|LOCAL\s+)?TEMP(ORARY)?\s+TABLE\b|\.createTemp\w*\s*\(/i,
    rulesOut: 'Vitess (unsharded keyspaces only, pinning a connection)',
    instead: 'derived tables and `IN` lists read in chunks',
  },
  {
    construct: 'Window functions (`... OVER (...)`, Knex `rowNumber()`, `rank()`, `denseRank()`)',
    pattern: /\bOVER\s*\(|\.(rowNumber|rank|denseRank)\s*\(/i,
    rulesOut: 'Vitess',
    instead: 'grouped subqueries (`MAX(...) GROUP BY`)',
  },
];

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The table docs/databases.md carries between its portable-sql-rules markers. */
export function rulesTable(): string {
  return [
    '| Construct | Ruled out by | What Vexil does instead |',
    '|---|---|---|',
    ...portableSqlRules.map((rule) => `| ${cell(rule.construct)} | ${cell(rule.rulesOut)} | ${cell(rule.instead)} |`),
  ].join('\n');
}

/** Source text without its comments, so that prose about a construct is not a use of it. */
export function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).replace(/(^|[\s;,({])\/\/.*$/gm, '$1');
}

export interface PortableSqlViolation {
  file: string;
  line: number;
  construct: string;
  text: string;
}

/** Files whose text is code or SQL. */
const scanned = /\.(ts|mts|cts|js|mjs|cjs|sql)$/;

/** Every file under `dirs` (relative to `root`) that the rules apply to, as paths relative to `root`. */
export function scannedFiles(root: string, dirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (scanned.test(entry.name)) files.push(child);
    }
  };
  for (const dir of dirs) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return files.sort();
}

/** Every use of a ruled-out construct in the files under `dirs`. */
export function violationsUnder(root: string, dirs: readonly string[]): PortableSqlViolation[] {
  return scannedFiles(root, dirs).flatMap((file) => violationsIn(file, fs.readFileSync(path.join(root, file), 'utf8')));
}

/** Every use of a ruled-out construct in `source` (a file's text), with its line. */
export function violationsIn(file: string, source: string): PortableSqlViolation[] {
  const lines = withoutComments(source).split('\n');
  const found: PortableSqlViolation[] = [];
  lines.forEach((text, index) => {
    for (const rule of portableSqlRules) {
      if (rule.pattern.test(text)) found.push({ file, line: index + 1, construct: rule.construct, text: text.trim() });
    }
  });
  return found;
}
