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
  return (
    e?.code === 'ER_DUP_ENTRY' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    // PostgreSQL: unique_violation
    e?.code === '23505'
  );
}

export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as DriverError;
  return (
    e?.code === 'ER_NO_REFERENCED_ROW_2' ||
    e?.code === 'ER_ROW_IS_REFERENCED_2' ||
    e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    // PostgreSQL: foreign_key_violation
    e?.code === '23503'
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
  const e = error as DriverError & { name?: string; fatal?: boolean; message?: string };
  if (e?.name === 'KnexTimeoutError' || e?.fatal === true) return true;
  if (isPostgresUnavailable(e)) return true;
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
    // Galera: the node is not in the primary component (1047, "WSREP has not yet prepared node
    // for application use"), or writes kept conflicting after every retry (1213).
    'ER_UNKNOWN_COM_ERROR',
    'ER_LOCK_DEADLOCK',
    // PostgreSQL: a deadlock or serialization failure that outlasted inTransaction's retries.
    '40P01',
    '40001',
    // SQLite: another process kept the write lock for longer than VEXIL_SQLITE_LOCK_WAIT_MS.
    'SQLITE_LOCK_WAIT_EXCEEDED',
    // PostgreSQL with several hosts: none takes writes now (postgres-writable-host.ts).
    'VEXIL_NO_WRITABLE_HOST',
  ].includes(e?.code ?? '');
}

/**
 * PostgreSQL (SQLSTATE codes): a connection failure (class 08), the server shutting down or not
 * yet accepting connections (57P01-57P03), too many connections (53300), a statement canceled at
 * statement_timeout (57014); the pg driver's own: its client-side query timeout (postgres-knex.ts)
 * and a connection that ended or broke, which it reports without a code.
 */
const postgresUnavailableCodes = ['57014', '57P01', '57P02', '57P03', '53300', 'PG_QUERY_READ_TIMEOUT'];
const pgConnectionLost =
  /(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;
function isPostgresUnavailable(e: (DriverError & { message?: string }) | undefined): boolean {
  const code = e?.code ?? '';
  if (postgresUnavailableCodes.includes(code) || code.startsWith('08')) return true;
  // Knex puts the SQL in front of the driver's message: "select ... - Connection terminated unexpectedly".
  return code === '' && pgConnectionLost.test(e?.message ?? '');
}

/** A failure of a statement that a store may turn into a domain error. */
export type StorageFailure = 'unique_violation' | 'foreign_key_violation' | 'deadlock' | 'lock_timeout';

export function storageFailureOf(error: unknown): StorageFailure | undefined {
  if (isUniqueViolation(error)) return 'unique_violation';
  if (isForeignKeyViolation(error)) return 'foreign_key_violation';
  const code = (error as DriverError)?.code;
  // PostgreSQL: deadlock_detected, serialization_failure (both: run the transaction again).
  if (code === 'ER_LOCK_DEADLOCK' || code === '40P01' || code === '40001') return 'deadlock';
  // SQLite's busy timeout ran out: another connection held the write lock as long.
  // PostgreSQL: lock_not_available (lock_timeout, NOWAIT).
  if (code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY' || code === '55P03') return 'lock_timeout';
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

/**
 * The connection failed before its server answered (the server died or refused, or a Galera node
 * left the primary component): what was sent on it and not committed was rolled back. Not a
 * timeout: a query that timed out may still be running.
 */
export function isConnectionLost(error: unknown): boolean {
  const e = error as (DriverError & { message?: string }) | undefined;
  const code = e?.code ?? '';
  if (['PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ER_SERVER_SHUTDOWN', 'ER_UNKNOWN_COM_ERROR'].includes(code))
    return true;
  // PostgreSQL: the server shut down (57P01-57P03) or the connection failed (class 08); pg reports
  // a connection that ended with no code.
  if (['57P01', '57P02', '57P03'].includes(code) || code.startsWith('08')) return true;
  return code === '' && /Connection terminated|Client has encountered a connection error/.test(e?.message ?? '');
}
