import { describe, expect, it } from 'vitest';
import {
  isConnectionLost,
  isDatabaseUnavailable,
  isRetryableConflict,
  storageFailureOf,
  translateStorageErrors,
} from '../../../src/storage/db-errors.js';
import { NoWritableHost } from '../../../src/storage/postgres-writable-host.js';

const driverError = (code: string) => Object.assign(new Error(code), { code });

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

  it("is recognised in PostgreSQL's errors: SQLSTATEs and the pg driver's own", () => {
    for (const code of ['57014', '57P01', '57P02', '57P03', '53300', '08006', '08001', 'PG_QUERY_READ_TIMEOUT', 'ECONNREFUSED']) {
      expect(isDatabaseUnavailable(driverError(code)), code).toBe(true);
    }
    // pg reports a lost connection without a code; Knex puts the SQL in front of its message.
    expect(isDatabaseUnavailable(new Error('select 1 - Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    for (const code of ['23505', '42P01', '22P02']) expect(isDatabaseUnavailable(driverError(code)), code).toBe(false);
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
    expect(isConnectionLost(driverError('57P01'))).toBe(true);
    expect(isConnectionLost(new Error('select 1 - Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(driverError('57014'))).toBe(false);
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
      // PostgreSQL's SQLSTATEs.
      ['23505', 'unique_violation'],
      ['23503', 'foreign_key_violation'],
      ['40P01', 'deadlock'],
      ['40001', 'deadlock'],
      ['55P03', 'lock_timeout'],
      ['42601', undefined],
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
