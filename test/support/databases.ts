import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { describe } from 'vitest';
import { mysqlAnswers } from './mysql-answers.js';

export interface TestDatabase {
  name: 'sqlite' | 'mariadb';
  /** A fresh, empty database for one suite; drop() removes it. */
  create(): Promise<{ url: string; drop(): Promise<void> }>;
}

const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

const sqlite: TestDatabase = {
  name: 'sqlite',
  async create() {
    const dir = `/tmp/vexil-test-${process.pid}-${randomBytes(4).toString('hex')}`;
    return {
      url: `sqlite:${dir}/vexil.db`,
      drop: async () => {
        const fs = await import('node:fs');
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
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
  },
};

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
