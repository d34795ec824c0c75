/**
 * The storage boundary's error adapter: driver error codes, per dialect, mapped to the few
 * failures the rest of the code acts on. Stores translate them into domain errors here
 * (translateStorageErrors), so nothing above a store looks at a driver's codes.
 */
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
  return e?.code === 'ER_NO_REFERENCED_ROW_2' || e?.code === 'ER_ROW_IS_REFERENCED_2' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
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
    // PostgreSQL with several hosts: none takes writes now (postgres-writable-host.ts).
    'VEXIL_NO_WRITABLE_HOST',
  ].includes(e?.code ?? '');
}

/** A failure of a statement that a store may turn into a domain error. */
export type StorageFailure = 'unique_violation' | 'foreign_key_violation' | 'deadlock' | 'lock_timeout';

export function storageFailureOf(error: unknown): StorageFailure | undefined {
  if (isUniqueViolation(error)) return 'unique_violation';
  if (isForeignKeyViolation(error)) return 'foreign_key_violation';
  const code = (error as DriverError)?.code;
  if (code === 'ER_LOCK_DEADLOCK') return 'deadlock';
  // SQLite's busy timeout ran out: another connection held the write lock as long.
  if (code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY') return 'lock_timeout';
  return undefined;
}

/**
 * Runs `work`; a failure listed in `domainErrors` is thrown as the domain error it names (a key
 * taken, a parent deleted meanwhile), anything else as it came.
 */
export async function translateStorageErrors<T>(
  work: () => Promise<T>,
  domainErrors: Partial<Record<StorageFailure, () => Error>>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const failure = storageFailureOf(error);
    const domainError = failure === undefined ? undefined : domainErrors[failure];
    throw domainError ? domainError() : error;
  }
}

/** Errors after which the whole transaction may simply be tried again. */
export function isRetryableConflict(error: unknown): boolean {
  const failure = storageFailureOf(error);
  return failure === 'deadlock' || failure === 'lock_timeout';
}
