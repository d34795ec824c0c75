import { describe, expect, it } from 'vitest';
import {
  isConnectionLost,
  isDatabaseUnavailable,
  isRetryableConflict,
  storageFailureOf,
  translateStorageErrors,
} from '../../../src/storage/db-errors.js';

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
  });

  it('covers a Galera node outside the primary component and a conflict that outlasted its retries', () => {
    const notReady = Object.assign(new Error('WSREP has not yet prepared node for application use'), {
      code: 'ER_UNKNOWN_COM_ERROR',
      errno: 1047,
    });
    expect(isDatabaseUnavailable(notReady)).toBe(true);
    expect(isConnectionLost(notReady)).toBe(true);
    // Reached the top only once inTransaction (or the autocommit retry) gave up on it.
    expect(
      isDatabaseUnavailable(Object.assign(new Error('WSREP detected deadlock/conflict'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 })),
    ).toBe(true);
  });

  it('tells a lost connection from a timed-out query, which may still be running', () => {
    expect(isConnectionLost(Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT', fatal: true }))).toBe(
      false,
    );
    expect(isConnectionLost(Object.assign(new Error('Timeout acquiring a connection'), { name: 'KnexTimeoutError' }))).toBe(false);
  });

  it('is not mistaken for errors of the request or the data', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 }))).toBe(false);
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
