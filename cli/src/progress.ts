import { cutText } from './compact.js';
import { printable } from './output.js';
import type { StatusStream } from './status-stream.js';

/** A line saying what a long request is doing, until it is done. */
export interface Progress {
  /** Clears the line; the command's own output follows on a clean line. */
  stop(): void;
}

const silent: Progress = { stop: () => undefined };

/**
 * Shows "Planning…" on a terminal and, once a second, how long it has been ("Planning… 3s"); the
 * line is cleared when the work ends. Not on a terminal (a script, CI, a pipe) it writes nothing,
 * so scripts read only what they asked for. Rewrites use a carriage return, which every terminal honours.
 */
export function startProgress(stream: StatusStream, text: string): Progress {
  if (!stream.isTTY) return silent;
  // A line wider than the terminal wraps, and a carriage return would no longer clear all of it
  // (a terminal whose size nobody set says 0 columns).
  const label = cutText(printable(text), Math.max((stream.columns || 80) - 10, 10));
  const started = Date.now();
  const working = label.endsWith('…') ? label : `${label}…`;
  let shown = working;
  stream.write(shown);
  const timer = setInterval(() => {
    const next = `${working} ${Math.floor((Date.now() - started) / 1000)}s`;
    stream.write(`\r${next}`);
    shown = next;
  }, 1000);
  // A request that fails or ends must not wait for the next tick to let the process exit.
  timer.unref();
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write(`\r${' '.repeat(shown.length)}\r`);
    },
  };
}

/** Runs `work` with a progress line on `stream`, cleared whether the work succeeds or fails. */
export async function withProgress<T>(stream: StatusStream, label: string, work: () => Promise<T>): Promise<T> {
  const progress = startProgress(stream, label);
  try {
    return await work();
  } finally {
    progress.stop();
  }
}
