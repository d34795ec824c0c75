import type { EventEmitter } from 'node:events';
import type { Knex } from 'knex';

/** What Knex's query events carry that observers use (never the bindings: they hold data). */
export interface QueryEvent {
  __knexQueryUid?: string;
  sql: string;
}

export interface QueryObserver {
  /** A statement starts (on the caller's async context, so a trace span can be its child). */
  started(uid: string, sql: string): void;
  /** It finished; `failed` when the database answered with an error. */
  finished(uid: string, failed: boolean): void;
}

/**
 * Calls `observer` around every statement Knex runs (its query, query-response and query-error
 * events) and every one prepared-sql.ts runs (which emits the same events). Statements without a
 * query id (transaction control) are not observed.
 */
export function observeQueries(knex: Knex, observer: QueryObserver): void {
  knex.on('query', (query: QueryEvent) => {
    if (query.__knexQueryUid !== undefined) observer.started(query.__knexQueryUid, query.sql);
  });
  knex.on('query-response', (_response: unknown, query: QueryEvent) => {
    if (query.__knexQueryUid !== undefined) observer.finished(query.__knexQueryUid, false);
  });
  knex.on('query-error', (_error: unknown, query: QueryEvent) => {
    if (query.__knexQueryUid !== undefined) observer.finished(query.__knexQueryUid, true);
  });
}

/** The statement's SQL verb, a fixed label value: select, insert, update, delete or other. */
export function sqlVerb(sql: string): 'select' | 'insert' | 'update' | 'delete' | 'other' {
  const head = sql.trimStart().slice(0, 6).toLowerCase();
  if (head === 'select' || head === 'insert' || head === 'update' || head === 'delete') return head;
  // Knex writes `with ...` for common table expressions; those Vexil runs are reads.
  if (head.startsWith('with ') || head.startsWith('(selec')) return 'select';
  return 'other';
}

let preparedQueries = 0;

/**
 * For statements run beside Knex's query builder (prepared-sql.ts): emits Knex's own events on
 * the client, so observers see them like any other. Returns the function that reports the end.
 */
export function announceQuery(client: EventEmitter, sql: string): (error?: unknown) => void {
  const query: QueryEvent = { __knexQueryUid: `prepared-${++preparedQueries}`, sql };
  client.emit('query', query);
  return (error) => {
    if (error === undefined) client.emit('query-response', undefined, query);
    else client.emit('query-error', error, query);
  };
}
