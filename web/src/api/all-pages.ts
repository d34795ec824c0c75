/** One page of a management list, as every list operation answers. */
interface Page<T> {
  data: T[];
  meta: { next_cursor?: string | null };
}

/** Enough for any picker a person scrolls through (100 pages of 100); beyond it a picker shows what it has. */
const maxPages = 100;

/**
 * Every item of a paged list, fetched page after page by following `meta.next_cursor`: pickers
 * and filters offer every project, segment or environment, not only the first page. `page` asks
 * for one page, given the cursor of the page before (none for the first).
 */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<{ data: T[] }> {
  const data: T[] = [];
  let cursor: string | undefined;
  for (let fetched = 0; fetched < maxPages; fetched++) {
    const next = await page(cursor);
    data.push(...next.data);
    if (!next.meta.next_cursor) break;
    cursor = next.meta.next_cursor;
  }
  return { data };
}
