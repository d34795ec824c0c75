/** Driver error codes, per dialect, mapped to the few facts services act on. */
interface DriverError {
  code?: string;
  errno?: number;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as DriverError;
  return e?.code === 'ER_DUP_ENTRY' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as DriverError;
  return (
    e?.code === 'ER_NO_REFERENCED_ROW_2' || e?.code === 'ER_ROW_IS_REFERENCED_2' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/**
 * The database did not answer in time or could not be reached: the pool's acquire timeout
 * (KnexTimeoutError), the driver's query timeout, a refused, reset or lost connection, or any
 * error mysql2 marks fatal (the connection is unusable), or a SQLite write lock held elsewhere
 * beyond the lock wait. Mysql2's fatal flag covers the ROLLBACK Knex sends on a connection the
 * query timeout has just closed, which fails with no code of its own.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as DriverError & { name?: string; fatal?: boolean };
  if (e?.name === 'KnexTimeoutError' || e?.fatal === true) return true;
  return [
    'PROTOCOL_SEQUENCE_TIMEOUT',
    'PROTOCOL_CONNECTION_LOST',
    'ETIMEDOUT',
    'ECONNREFUSED',
    'ECONNRESET',
    'EHOSTUNREACH',
    'EPIPE',
    'ER_CON_COUNT_ERROR',
    'ER_SERVER_SHUTDOWN',
    // SQLite: another process kept the write lock for longer than VEXIL_SQLITE_LOCK_WAIT_MS.
    'SQLITE_LOCK_WAIT_EXCEEDED',
  ].includes(e?.code ?? '');
}

/** Errors after which the whole transaction may simply be tried again. */
export function isRetryableConflict(error: unknown): boolean {
  const e = error as DriverError;
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.code === 'ER_LOCK_WAIT_TIMEOUT' || e?.code === 'SQLITE_BUSY';
}
