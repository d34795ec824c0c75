/** Which databases a run tests on: read by global-setup.ts (templates) and databases.ts (suites). */
export type DatabaseName = 'sqlite' | 'mariadb' | 'postgres';

/**
 * The databases named by VEXIL_TEST_DATABASES (comma-separated: sqlite, mariadb, postgres), all
 * three when unset. Used by global-setup.ts too, which builds templates for these only.
 */
export function selectedDatabaseNames(): DatabaseName[] {
  const listed = process.env.VEXIL_TEST_DATABASES?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const known: DatabaseName[] = ['sqlite', 'mariadb', 'postgres'];
  if (!listed || listed.length === 0) return known;
  const unknown = listed.filter((name) => !known.includes(name as DatabaseName));
  if (unknown.length > 0)
    throw new Error(`VEXIL_TEST_DATABASES names unknown databases: ${unknown.join(', ')} (known: ${known.join(', ')})`);
  return known.filter((name) => listed.includes(name));
}
