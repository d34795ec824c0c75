import type { Knex } from 'knex';
import type { AuditSubject } from '../../audit/audit-trail.js';
import { inTransaction } from '../../storage/transaction.js';

/** What a service needs of the request's audit trail (AuditTrail implements it). */
export interface Auditor {
  commit(trx: Knex.Transaction, subject: AuditSubject): Promise<void>;
  describe(subject: AuditSubject): void;
  /**
   * An Auditor of the same actor and request that carries nothing this one described or
   * committed: flags as code audit each change they make as an entry of its own.
   */
  fresh(): Auditor;
}

/** Runs work in one transaction; a thrown error leaves no write behind. */
export interface Transactor {
  transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

export function knexTransactor(knex: Knex): Transactor {
  return { transaction: (work) => inTransaction(knex, work) };
}
