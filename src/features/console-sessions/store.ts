import type { Knex } from 'knex';
import type { Db } from '../../storage/db.js';
import type { Role } from '../../auth/principal.js';

export interface SessionAccount {
  ulid: string;
  name: string;
  email: string;
  role: Role;
  password_hash: string | null;
  /** Set while the password is temporary: it only lets its holder choose a new one, until then. */
  password_temporary_until: string | null;
}

export interface SessionRow {
  ulid: string;
  account_ulid: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** Accounts' passwords and console sessions. Each method takes the `Db` it runs on. */
export class ConsoleSessionStore {
  async accountByEmail(db: Db, email: string): Promise<SessionAccount | undefined> {
    return (await db('accounts')
      .where('email', email.toLowerCase())
      .first('ulid', 'name', 'email', 'role', 'password_hash', 'password_temporary_until')) as SessionAccount | undefined;
  }

  async accountByUlid(db: Db, ulid: string): Promise<SessionAccount | undefined> {
    return (await db('accounts').where('ulid', ulid).first('ulid', 'name', 'email', 'role', 'password_hash', 'password_temporary_until')) as
      | SessionAccount
      | undefined;
  }

  async insertSession(db: Db, row: SessionRow & { digest: string }): Promise<void> {
    await db('console_sessions').insert(row);
  }

  async sessionByDigest(db: Db, digest: string): Promise<(SessionRow & { account: SessionAccount }) | undefined> {
    const row = await db('console_sessions as s')
      .join('accounts as a', 'a.ulid', 's.account_ulid')
      .where('s.digest', digest)
      .first(
        's.ulid',
        's.account_ulid',
        's.created_at',
        's.last_seen_at',
        's.expires_at',
        'a.name',
        'a.email',
        'a.role',
        'a.password_hash',
        'a.password_temporary_until',
      );
    if (!row) return undefined;
    const { name, email, role, password_hash, password_temporary_until, ...session } = row;
    return { ...session, account: { ulid: row.account_ulid, name, email, role, password_hash, password_temporary_until } };
  }

  async touch(db: Db, ulid: string, lastSeenAt: string): Promise<void> {
    await db('console_sessions').where('ulid', ulid).update({ last_seen_at: lastSeenAt });
  }

  async deleteSession(db: Db, ulid: string): Promise<void> {
    await db('console_sessions').where('ulid', ulid).delete();
  }

  /** Sets the password (temporary until the given time, or the person's own) and ends every session of the account. */
  async setPassword(trx: Knex.Transaction, accountUlid: string, hash: string, temporaryUntil: string | null, now: string): Promise<void> {
    await trx('accounts')
      .where('ulid', accountUlid)
      .update({ password_hash: hash, password_temporary_until: temporaryUntil, updated_at: now });
    await trx('console_sessions').where('account_ulid', accountUlid).delete();
  }

  /** Projects a member account was given; null for owners and admins (every project). */
  async accountProjects(db: Db, accountUlid: string, role: string): Promise<string[] | null> {
    if (role !== 'member') return null;
    const rows = (await db('account_projects').where('account_ulid', accountUlid).select('project_ulid')) as Array<{
      project_ulid: string;
    }>;
    return rows.map((r) => r.project_ulid);
  }
}
