export interface FreshServer {
  baseUrl: string;
  /** The owner's personal access token, bootstrapped with VEXIL_INIT_OWNER_TOKEN. */
  ownerToken: string;
  /** The server's temporary directory (its database), removed by `stop`. */
  dir: string;
  stop(): Promise<void>;
}

export function startFreshServer(options: {
  /** The repository's root (dist/src/main.js is run). */
  root: string;
  /** The temporary directory's name prefix. */
  tmpPrefix: string;
  /** Settings added to (or overriding) the defaults. */
  env?: Record<string, string>;
}): Promise<FreshServer>;
