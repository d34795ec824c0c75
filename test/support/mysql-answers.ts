import knexFactory from 'knex';

/** Whether a MySQL/MariaDB server answers `SELECT 1` at `url` within `connectTimeoutMs`; knex's log is silenced. */
export async function mysqlAnswers(url: string, connectTimeoutMs: number): Promise<boolean> {
  const quiet = () => undefined;
  const k = knexFactory({
    client: 'mysql2',
    connection: { uri: url, connectTimeout: connectTimeoutMs } as never,
    log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
  });
  try {
    await k.raw('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await k.destroy();
  }
}
