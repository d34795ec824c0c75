/** Where a progress line goes: standard error, shown only when it is a terminal. */
export interface StatusStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}
