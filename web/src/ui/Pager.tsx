import { useState } from 'react';

/** Cursor paging of a list the server pages: the cursors that led to the page shown (none on the first). */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    number: cursors.length + 1,
    next: (cursor: string) => setCursors((c) => [...c, cursor]),
    previous: () => setCursors((c) => c.slice(0, -1)),
    restart: () => setCursors([]),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

interface PagerProps {
  pages: CursorPages;
  /** The shown page's `meta.next_cursor`: null on the last page. */
  nextCursor: string | null | undefined;
  /** While a page loads a click waits (a disabled button would lose the keyboard focus). */
  loading: boolean;
  label?: string;
}

/** Previous and Next page under a server-paged list; absent while the list fits on one page. */
export function Pager({ pages, nextCursor, loading, label = 'Pages' }: PagerProps) {
  if (pages.number === 1 && !nextCursor) return null;
  return (
    <nav aria-label={label} className="pager">
      <button type="button" disabled={pages.number === 1} onClick={() => !loading && pages.previous()}>
        Previous page
      </button>
      <span aria-live="polite">Page {pages.number}</span>
      <button type="button" disabled={!nextCursor} onClick={() => !loading && nextCursor && pages.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}
