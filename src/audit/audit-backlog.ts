import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { BackgroundTask } from '../core.js';
import { poller } from '../poller.js';
import { type AuditValues, auditEntriesPerInsert, insertAuditEntries } from './audit-entry-store.js';

/**
 * Management audit entries of reads and refusals that could not be stored before their answer
 * because another process held the SQLite write lock: kept in memory (bounded) and written by a
 * background task once the lock is free, so a read neither waits for the lock nor loses its entry.
 * Beyond the capacity entries are dropped, counted in /metrics and logged.
 */
export class AuditBacklog {
  private rows: Array<{ knex: Knex; values: AuditValues }> = [];
  writtenTotal = 0;
  droppedTotal = 0;
  private droppedUnlogged = 0;
  readonly task: BackgroundTask;

  constructor(
    private readonly logger: Logger,
    private readonly capacity = 10_000,
    intervalMs = 1000,
  ) {
    const inner = poller('management-audit-backlog', intervalMs, () => this.flush(), logger);
    this.task = {
      name: inner.name,
      start: () => inner.start(),
      stop: async () => {
        await inner.stop();
        await this.flush().catch((err: unknown) => logger.error({ err }, 'management audit entries could not be written'));
      },
    };
  }

  get size(): number {
    return this.rows.length;
  }

  add(knex: Knex, rows: readonly AuditValues[]): void {
    for (const values of rows) {
      if (this.rows.length >= this.capacity) {
        this.droppedTotal += 1;
        this.droppedUnlogged += 1;
      } else this.rows.push({ knex, values });
    }
  }

  /** Writes what is kept, oldest first; a chunk refused stays for the next run. */
  async flush(): Promise<void> {
    if (this.droppedUnlogged > 0) {
      this.logger.warn({ dropped: this.droppedUnlogged }, 'management audit backlog full: entries dropped');
      this.droppedUnlogged = 0;
    }
    while (this.rows.length > 0) {
      const knex = this.rows[0]!.knex;
      let n = 1;
      while (n < this.rows.length && n < auditEntriesPerInsert && this.rows[n]!.knex === knex) n += 1;
      const chunk = this.rows.slice(0, n);
      await insertAuditEntries(
        knex,
        chunk.map((row) => row.values),
      );
      this.rows.splice(0, chunk.length);
      this.writtenTotal += chunk.length;
    }
  }
}
