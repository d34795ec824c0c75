import { describe, expect, it } from 'vitest';
import { isConcurrentMigration } from '../../../src/storage/migrate.js';

describe('isConcurrentMigration: errors a start waits out, as another instance migrates', () => {
  it('waits on the lock and on a race over Knex’s own tables', () => {
    const lockError = Object.assign(new Error('Migration table is already locked'), { name: 'MigrationLocked' });
    expect(isConcurrentMigration(lockError)).toBe(true);
    expect(
      isConcurrentMigration({
        code: 'ER_TABLE_EXISTS_ERROR',
        message: "Table 'knex_migrations_lock' already exists",
        sql: 'create table `knex_migrations_lock` (...)',
      }),
    ).toBe(true);
    expect(
      isConcurrentMigration({
        code: 'SQLITE_ERROR',
        message: 'create table `knex_migrations` (...) - table `knex_migrations` already exists',
      }),
    ).toBe(true);
    expect(
      isConcurrentMigration({
        code: 'ER_DUP_ENTRY',
        message: "Duplicate entry '1' for key 'PRIMARY'",
        sql: 'insert into `knex_migrations_lock` (`is_locked`) values (?)',
      }),
    ).toBe(true);
    // PostgreSQL: duplicate_table, and the unique violation of its catalog when two CREATE TABLEs meet.
    expect(
      isConcurrentMigration({
        code: '42P07',
        message: 'create table "knex_migrations" (...) - relation "knex_migrations" already exists',
      }),
    ).toBe(true);
    expect(
      isConcurrentMigration({
        code: '23505',
        message: 'create table "knex_migrations_lock" (...) - duplicate key value violates unique constraint "pg_type_typname_nsp_index"',
      }),
    ).toBe(true);
    expect(isConcurrentMigration({ code: '42P07', message: 'create table "flags" (...) - relation "flags" already exists' })).toBe(false);
  });

  it('fails at once when one of Vexil’s own migrations fails, whatever the error', () => {
    expect(
      isConcurrentMigration({
        code: 'ER_DUP_ENTRY',
        message: "Duplicate entry 'a' for key 'flags_key_unique'",
        sql: 'alter table `flags` add unique `flags_key_unique`(`key`)',
      }),
    ).toBe(false);
    expect(
      isConcurrentMigration({ code: 'ER_TABLE_EXISTS_ERROR', message: "Table 'flags' already exists", sql: 'create table `flags` (...)' }),
    ).toBe(false);
    expect(isConcurrentMigration({ code: 'SQLITE_ERROR', message: 'no such column: knex_migrations_typo' })).toBe(false);
    expect(isConcurrentMigration(new Error('Connection lost: The server closed the connection.'))).toBe(false);
  });
});
