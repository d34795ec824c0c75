import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../src/storage/db-errors.js';

describe('a database that is not answering', () => {
  it('is recognised in the errors of the pool, the driver and the connection', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('Timeout acquiring a connection'), { name: 'KnexTimeoutError' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT', fatal: true }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }))).toBe(true);
    // Knex's ROLLBACK on the connection a query timeout has just closed: mysql2 gives it no code.
    const rollback = Object.assign(new Error("ROLLBACK - Can't add new command when connection is in closed state"), { fatal: true });
    expect(isDatabaseUnavailable(rollback)).toBe(true);
  });

  it('is not mistaken for errors of the request or the data', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('Deadlock'), { code: 'ER_LOCK_DEADLOCK', fatal: false }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
