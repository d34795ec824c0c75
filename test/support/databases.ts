import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import knexFactory from 'knex';
import { describe, inject } from 'vitest';
import { createFromMariadbTemplate, type DatabaseTemplates } from './database-templates.js';
import { mysqlAnswers } from './mysql-answers.js';

export interface TestDatabase {
  name: 'sqlite' | 'mariadb';
  /** A fresh, empty database for one suite; drop() removes it. */
  create(): Promise<{ url: string; drop(): Promise<void> }>;
  /**
   * A fresh database with the schema migrated, copied from the run's template (global-setup.ts);
   * an empty one, which the server migrates, when there is no template (a run without the set-up).
   */
  createMigrated(): Promise<{ url: string; drop(): Promise<void> }>;
}

/** The run's templates; none in a run without test/support/global-setup.ts. Asked when used: only a test can. */
const templates = (): DatabaseTemplates => inject('databaseTemplates') ?? {};

const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

const sqlite: TestDatabase = {
  name: 'sqlite',
  async create() {
    const dir = `/tmp/vexil-test-${process.pid}-${randomBytes(4).toString('hex')}`;
    return {
      url: `sqlite:${dir}/vexil.db`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
  async createMigrated() {
    const database = await sqlite.create();
    const { sqliteFile } = templates();
    if (sqliteFile) {
      const file = database.url.slice('sqlite:'.length);
      fs.mkdirSync(file.slice(0, file.lastIndexOf('/')), { recursive: true });
      fs.copyFileSync(sqliteFile, file);
    }
    return database;
  },
};

const mariadb: TestDatabase = {
  name: 'mariadb',
  async create() {
    const name = `vexil_t_${randomBytes(6).toString('hex')}`;
    const admin = knexFactory({ client: 'mysql2', connection: { uri: mysqlBase } as never });
    try {
      await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    } finally {
      await admin.destroy();
    }
    return mariadbDatabase(name);
  },
  async createMigrated() {
    const { mariadbStatements } = templates();
    if (!mariadbStatements) return mariadb.create();
    const name = `vexil_t_${randomBytes(6).toString('hex')}`;
    await createFromMariadbTemplate(mysqlBase, name, mariadbStatements);
    return mariadbDatabase(name);
  },
};

function mariadbDatabase(name: string): { url: string; drop(): Promise<void> } {
  return {
    url: `${mysqlBase}/${name}`,
    drop: async () => {
      const k = knexFactory({ client: 'mysql2', connection: { uri: mysqlBase } as never });
      try {
        await k.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await k.destroy();
      }
    },
  };
}

/**
 * The databases every integration suite runs against. MariaDB is required in CI and whenever
 * VEXIL_REQUIRE_MARIADB=1; elsewhere its absence is reported loudly and its suites are skipped.
 */
export const testDatabases: TestDatabase[] = await (async () => {
  if (process.env.VEXIL_TEST_DATABASES === 'sqlite') return [sqlite];
  if (await mysqlAnswers(mysqlBase, 2000)) return [sqlite, mariadb];
  if (process.env.CI || process.env.VEXIL_REQUIRE_MARIADB === '1') {
    throw new Error(`MariaDB is required for the integration tests but ${mysqlBase} is not reachable.`);
  }
  console.warn(`\n*** MariaDB not reachable at ${mysqlBase}: integration suites run on SQLite only. ***\n`);
  return [sqlite];
})();

/** `describe` once per database, naming the database in the suite title. */
export function describeEachDatabase(title: string, body: (db: TestDatabase) => void): void {
  for (const db of testDatabases) describe(`${title} [${db.name}]`, () => body(db));
}
