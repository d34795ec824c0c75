import pino, { type Logger } from 'pino';

/** Structured JSON logs. Authorization and key headers are never logged (redacted if ever passed). */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-vexil-api-key"]', 'req.headers["x-api-key"]', 'req.headers["x-vexil-key"]'],
      censor: '[redacted]',
    },
  });
}
