/** An error the CLI reports as one line and a non-zero exit code, never as a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    /** The API's machine-readable error code, when the error came from the API. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Wrong use of the command line: the usage text follows the message. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 64);
  }
}
