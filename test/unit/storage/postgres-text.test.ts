import { describe, expect, it } from 'vitest';
import { postgresText } from '../../../src/storage/prepared-sql.js';

describe('postgresText: a prepared statement as PostgreSQL reads it', () => {
  it('quotes identifiers with double quotes and numbers the placeholders in order', () => {
    expect(postgresText('SELECT `ulid`, `count` FROM `public_audit_requests` WHERE `part_id` IN (?, ?) AND `ulid` < ? LIMIT ?')).toBe(
      'SELECT "ulid", "count" FROM "public_audit_requests" WHERE "part_id" IN ($1, $2) AND "ulid" < $3 LIMIT $4',
    );
  });

  it('leaves string literals and everything else as written', () => {
    expect(postgresText("SELECT 1 FROM `t` WHERE `m` IN ('GET', 'HEAD') AND `n` = ?")).toBe(
      `SELECT 1 FROM "t" WHERE "m" IN ('GET', 'HEAD') AND "n" = $1`,
    );
  });
});
