import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProgress, withProgress } from '../../../cli/src/progress.js';
import type { StatusStream } from '../../../cli/src/status-stream.js';

/** A stream that keeps what is written, a terminal or not. */
function stream(isTTY: boolean, columns?: number): StatusStream & { written: string } {
  return {
    isTTY,
    ...(columns === undefined ? {} : { columns }),
    written: '',
    write(text: string) {
      this.written += text;
      return true;
    },
  };
}

describe('progress lines of long requests', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the label, then the seconds it has taken, and clears the line when done', () => {
    const terminal = stream(true, 80);
    const progress = startProgress(terminal, 'Planning shop.yaml');
    expect(terminal.written).toBe('Planning shop.yaml…');
    vi.advanceTimersByTime(999);
    expect(terminal.written).toBe('Planning shop.yaml…');
    vi.advanceTimersByTime(2001);
    expect(terminal.written).toBe('Planning shop.yaml…\rPlanning shop.yaml… 1s\rPlanning shop.yaml… 2s\rPlanning shop.yaml… 3s');
    progress.stop();
    progress.stop();
    expect(terminal.written.endsWith(`\rPlanning shop.yaml… 3s\r${' '.repeat(22)}\r`)).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(terminal.written.endsWith(`\r${' '.repeat(22)}\r`)).toBe(true);
  });

  it('writes nothing when the stream is not a terminal', async () => {
    const pipe = stream(false);
    expect(await withProgress(pipe, 'Applying shop.yaml', async () => 'applied')).toBe('applied');
    vi.advanceTimersByTime(5000);
    expect(pipe.written).toBe('');
  });

  it('fits the line in the terminal and shows no control characters of a file name', () => {
    const narrow = stream(true, 40);
    startProgress(narrow, 'Planning \u001b[2Jshop.yaml against project shop').stop();
    expect(narrow.written).toBe(`Planning \\u001b[2Jshop.yaml a…\r${' '.repeat(30)}\r`);
    // A terminal whose size nobody set says 0 columns: 80 is assumed.
    const unsized = stream(true, 0);
    startProgress(unsized, 'Exporting project shop').stop();
    expect(unsized.written.startsWith('Exporting project shop…\r')).toBe(true);
  });

  it('clears the line when the request fails, and passes the error on', async () => {
    const terminal = stream(true, 80);
    await expect(
      withProgress(terminal, 'Promoting staging to production', async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(terminal.written).toBe(`Promoting staging to production…\r${' '.repeat(32)}\r`);
  });
});
