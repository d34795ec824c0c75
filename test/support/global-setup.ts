/**
 * Vitest's global set-up (vitest.config.ts): builds the migrated database templates once per run
 * (database-templates.ts) and hands them to the test files, which copy them for each test app.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { buildMariadbTemplate, buildSqliteTemplate } from './database-templates.js';
import { mysqlAnswers } from './mysql-answers.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
  const sqliteFile = await buildSqliteTemplate();
  // Without MariaDB, test/support/databases.ts decides what happens (skip or fail): no template then.
  const withMariadb = process.env.VEXIL_TEST_DATABASES !== 'sqlite' && (await mysqlAnswers(mysqlBase, 2000));
  const mariadbStatements = withMariadb
    ? await buildMariadbTemplate(mysqlBase, `vexil_t_template_${randomBytes(6).toString('hex')}`)
    : undefined;
  project.provide('databaseTemplates', { sqliteFile, mariadbStatements });
  return () => fs.rmSync(path.dirname(sqliteFile), { recursive: true, force: true });
}
