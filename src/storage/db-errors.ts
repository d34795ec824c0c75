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

/** Errors after which the whole transaction may simply be tried again. */
export function isRetryableConflict(error: unknown): boolean {
  const e = error as DriverError;
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.code === 'ER_LOCK_WAIT_TIMEOUT' || e?.code === 'SQLITE_BUSY';
}
