import type { StatusStream } from './status-stream.js';

/** How a command writes: human tables by default, JSON with --json; colour only on a terminal. */
export interface Output {
  json: boolean;
  colour: boolean;
  write(text: string): void;
  /** Where progress lines of long requests go (standard error; see progress.ts). */
  status: StatusStream;
}

export function consoleOutput(json: boolean): Output {
  const colour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !json;
  return {
    json,
    colour,
    write: (text) => {
      process.stdout.write(text);
    },
    status: process.stderr,
  };
}

export function printJson(out: Output, value: unknown): void {
  out.write(JSON.stringify(value, null, 2) + '\n');
}

const bold = (out: Output, text: string) => (out.colour ? `\u001b[1m${text}\u001b[22m` : text);

/** Control characters from the API are shown escaped, so no value can drive the terminal. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  return printable(typeof value === 'string' ? value : JSON.stringify(value));
}

/** A plain aligned table: one header row, one row per item. */
export function printTable(out: Output, columns: string[], rows: unknown[][]): void {
  const text = rows.map((row) => row.map(cell));
  const widths = columns.map((c, i) => Math.max(c.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  out.write(bold(out, line(columns.map((c) => c.toUpperCase()))) + '\n');
  for (const row of text) out.write(line(row) + '\n');
  if (rows.length === 0) out.write('(none)\n');
}

/** Label: value lines for one record. */
export function printRecord(out: Output, fields: [string, unknown][]): void {
  const width = Math.max(...fields.map(([label]) => label.length));
  for (const [label, value] of fields) out.write(`${bold(out, label.padEnd(width))}  ${cell(value)}\n`);
}
