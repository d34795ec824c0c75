/**
 * Vitest's global set-up (vitest.config.ts): builds the migrated database templates once per run
 * (database-templates.ts) and hands them to the test files, which copy them for each test app.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { buildMariadbTemplate, buildPostgresTemplate, buildSqliteTemplate } from './database-templates.js';
import { mysqlAnswers } from './mysql-answers.js';
import { dropPostgresDatabase, postgresAnswers, postgresBase } from './postgres-admin.js';
import { selectedDatabaseNames } from './databases-selection.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
  const selected = selectedDatabaseNames();
  const sqliteFile = await buildSqliteTemplate();
  // Without a server, test/support/databases.ts decides what happens (skip or fail): no template then.
  const withMariadb = selected.includes('mariadb') && (await mysqlAnswers(mysqlBase, 2000));
  const withPostgres = selected.includes('postgres') && (await postgresAnswers(postgresBase, 2000));
  const suffix = randomBytes(6).toString('hex');
  // Side by side: the two servers migrate at once.
  const [mariadbStatements, postgresTemplate] = await Promise.all([
    withMariadb ? buildMariadbTemplate(mysqlBase, `vexil_t_template_${suffix}`) : undefined,
    withPostgres ? buildPostgresTemplate(postgresBase, `vexil_t_template_${suffix}`) : undefined,
  ]);
  project.provide('databaseTemplates', { sqliteFile, mariadbStatements, postgresTemplate });
  return async () => {
    fs.rmSync(path.dirname(sqliteFile), { recursive: true, force: true });
    if (postgresTemplate) await dropPostgresDatabase(postgresBase, postgresTemplate);
  };
}
