/** A value bound to a statement's placeholder. */
export type Value = string | number | null;

/**
 * The rows of one multi-row INSERT whose values mostly repeat from row to row, packed: each
 * shared part once, and per row the index of its shared part followed by the row's own values.
 * A public audit entry differs from the one before only in its ulid, time and count; its key,
 * environment, path, action, subject and result repeat request after request. Packed, a batch
 * of 1,024 entries travels to SQLite's worker thread as about a fifth of the text, and the
 * serving thread builds no array of 16,000 values for it.
 */
export interface PackedRows {
  /** The shared parts, each as many values as the statement's shared columns. */
  shared: Value[][];
  /** How many values of its own each row has (the statement's first columns). */
  own: number;
  /** Row after row: the index of the row's shared part in `shared`, then its `own` values. */
  cells: Value[];
}

/**
 * The statement's values, row after row: a row's own values, then its shared part's. Uses
 * nothing outside itself: SQLite's worker thread runs this function's source (sqlite-worker.ts).
 */
export function unpackRows(packed: PackedRows): Value[] {
  const { shared, own, cells } = packed;
  const values: Value[] = [];
  for (let i = 0; i < cells.length; i += own + 1) {
    for (let k = 1; k <= own; k++) values.push(cells[i + k] as Value);
    const part = shared[cells[i] as number] as Value[];
    for (let k = 0; k < part.length; k++) values.push(part[k] as Value);
  }
  return values;
}
