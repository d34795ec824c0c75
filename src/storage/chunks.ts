/** Keeps IN lists well below every driver's parameter limit. */
export const IN_LIST_CHUNK = 500;

/** `items` cut into lists of at most `size`. */
export function chunks<T>(items: readonly T[], size = IN_LIST_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One query per chunk of `ulids` (none for an empty list), the rows concatenated in order. */
export async function inChunks<Row>(ulids: readonly string[], read: (part: string[]) => Promise<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const part of chunks(ulids)) for (const row of await read(part)) rows.push(row);
  return rows;
}
