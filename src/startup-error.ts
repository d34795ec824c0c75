/**
 * A reason the process cannot start that the operator can fix (a bad setting, a port in use, a
 * missing database). main.ts prints its message as one line, without a stack trace, and exits 1.
 */
export class StartupError extends Error {}
