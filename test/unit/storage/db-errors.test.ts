import { describe, expect, it } from 'vitest';
import { NoWritableHost } from '../../../src/storage/postgres-writable-host.js';
import { isDatabaseUnavailable, isRetryableConflict, storageFailureOf, translateStorageErrors } from '../../../src/storage/db-errors.js';

describe('a database that is not answering', () => {
  it('is recognised in the errors of the pool, the driver and the connection', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('Timeout acquiring a connection'), { name: 'KnexTimeoutError' }))).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT', fatal: true })),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }))).toBe(true);
    // Knex's ROLLBACK on the connection a query timeout has just closed: mysql2 gives it no code.
    const rollback = Object.assign(new Error("ROLLBACK - Can't add new command when connection is in closed state"), { fatal: true });
    expect(isDatabaseUnavailable(rollback)).toBe(true);
    // PostgreSQL with a standby: the primary is dead and the standby not yet promoted.
    expect(isDatabaseUnavailable(new NoWritableHost(['127.0.0.1:5432 is a standby']))).toBe(true);
  });

  it('is not mistaken for errors of the request or the data', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('Deadlock'), { code: 'ER_LOCK_DEADLOCK', fatal: false }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

const driverError = (code: string) => Object.assign(new Error(code), { code });

describe('the storage-error adapter', () => {
  it('names the failures of both drivers', () => {
    const cases: Array<[string, ReturnType<typeof storageFailureOf>]> = [
      ['ER_DUP_ENTRY', 'unique_violation'],
      ['SQLITE_CONSTRAINT_UNIQUE', 'unique_violation'],
      ['SQLITE_CONSTRAINT_PRIMARYKEY', 'unique_violation'],
      ['ER_NO_REFERENCED_ROW_2', 'foreign_key_violation'],
      ['ER_ROW_IS_REFERENCED_2', 'foreign_key_violation'],
      ['SQLITE_CONSTRAINT_FOREIGNKEY', 'foreign_key_violation'],
      ['ER_LOCK_DEADLOCK', 'deadlock'],
      ['ER_LOCK_WAIT_TIMEOUT', 'lock_timeout'],
      ['SQLITE_BUSY', 'lock_timeout'],
      ['ER_PARSE_ERROR', undefined],
    ];
    for (const [code, failure] of cases) expect(storageFailureOf(driverError(code)), code).toBe(failure);
    expect(storageFailureOf(undefined)).toBeUndefined();
    expect([driverError('ER_LOCK_DEADLOCK'), driverError('SQLITE_BUSY'), driverError('ER_DUP_ENTRY')].map(isRetryableConflict)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('throws the domain error named for a failure, and any other error as it came', async () => {
    const taken = new Error('key taken');
    const translations = { unique_violation: () => taken };
    await expect(translateStorageErrors(() => Promise.reject(driverError('ER_DUP_ENTRY')), translations)).rejects.toBe(taken);
    const other = driverError('SQLITE_CONSTRAINT_FOREIGNKEY');
    await expect(translateStorageErrors(() => Promise.reject(other), translations)).rejects.toBe(other);
    await expect(translateStorageErrors(async () => 'written', translations)).resolves.toBe('written');
  });
});
