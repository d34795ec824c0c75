/** What the statements of prepared-sql.ts and the SQLite worker (sqlite-worker.ts) are made of. */

/** A value bound to a statement's placeholder. */
export type Value = string | number | null;

/** One statement of an append: its text and its values. */
export interface AppendStatement {
  sql: string;
  values: Value[];
}
