import pino, { type Logger } from 'pino';

export interface LoggerOptions {
  /**
   * Write each line before the call returns (tests and tools); by default lines are handed to the
   * file descriptor asynchronously: lines logged while a write is under way go out together in
   * the next one, so a busy server pays for a memory copy per line, not a system call.
   */
  sync?: boolean;
}

/** Structured JSON logs on standard output. Authorization and key headers are never logged (redacted if ever passed). */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-vexil-api-key"]', 'req.headers["x-api-key"]', 'req.headers["x-vexil-key"]'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: options.sync ?? false }),
  );
}

/** Resolves once every line logged so far is written (a clean shutdown awaits it before exiting). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
