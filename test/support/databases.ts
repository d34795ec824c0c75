import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import knexFactory from 'knex';
import { describe, inject } from 'vitest';
import { createFromMariadbTemplate, type DatabaseTemplates } from './database-templates.js';
import { type DatabaseName, selectedDatabaseNames } from './databases-selection.js';
import { mysqlAnswers } from './mysql-answers.js';
import { createPostgresDatabase, dropPostgresDatabase, postgresAnswers, postgresBase, postgresDatabaseUrl } from './postgres-admin.js';

export interface TestDatabase {
  name: DatabaseName;
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

const postgres: TestDatabase = {
  name: 'postgres',
  async create() {
    const name = `vexil_t_${randomBytes(6).toString('hex')}`;
    await createPostgresDatabase(postgresBase, name);
    return postgresDatabase(name);
  },
  async createMigrated() {
    const { postgresTemplate } = templates();
    if (!postgresTemplate) return postgres.create();
    const name = `vexil_t_${randomBytes(6).toString('hex')}`;
    await createPostgresDatabase(postgresBase, name, postgresTemplate);
    return postgresDatabase(name);
  },
};

function postgresDatabase(name: string): { url: string; drop(): Promise<void> } {
  return { url: postgresDatabaseUrl(postgresBase, name), drop: () => dropPostgresDatabase(postgresBase, name) };
}

/** A database server the suites run on when it answers. */
interface ServerDatabase {
  database: TestDatabase;
  label: string;
  url: string;
  answers(url: string, timeoutMs: number): Promise<boolean>;
  /** The variable that makes it required (besides CI). */
  required: string;
}

const servers: ServerDatabase[] = [
  { database: mariadb, label: 'MariaDB', url: mysqlBase, answers: mysqlAnswers, required: 'VEXIL_REQUIRE_MARIADB' },
  { database: postgres, label: 'PostgreSQL', url: postgresBase, answers: postgresAnswers, required: 'VEXIL_REQUIRE_POSTGRES' },
];

/**
 * The databases every integration suite runs against. MariaDB and PostgreSQL are required in CI,
 * whenever VEXIL_REQUIRE_MARIADB=1 / VEXIL_REQUIRE_POSTGRES=1, and when VEXIL_TEST_DATABASES names
 * them; elsewhere the absence of one is reported loudly and its suites are skipped.
 */
export const testDatabases: TestDatabase[] = await (async () => {
  const selected = selectedDatabaseNames();
  const explicit = process.env.VEXIL_TEST_DATABASES !== undefined && process.env.VEXIL_TEST_DATABASES !== '';
  const chosen: TestDatabase[] = selected.includes('sqlite') ? [sqlite] : [];
  for (const server of servers) {
    if (!selected.includes(server.database.name)) continue;
    if (await server.answers(server.url, 2000)) {
      chosen.push(server.database);
      continue;
    }
    if (process.env.CI || process.env[server.required] === '1' || explicit) {
      throw new Error(`${server.label} is required for the integration tests but ${server.url} is not reachable.`);
    }
    console.warn(`\n*** ${server.label} not reachable at ${server.url}: its integration suites are skipped. ***\n`);
  }
  if (chosen.length === 0) throw new Error('VEXIL_TEST_DATABASES selects no database');
  return chosen;
})();

/** `describe` once per database, naming the database in the suite title. */
export function describeEachDatabase(title: string, body: (db: TestDatabase) => void): void {
  for (const db of testDatabases) describe(`${title} [${db.name}]`, () => body(db));
}
