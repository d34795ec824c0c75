/**
 * What every environment variable of src/config.ts means, and its default: the source of the
 * configuration reference (docs/configuration.md, written by scripts/generate-config-reference.ts).
 * test/unit/config-reference.test.ts checks that it names exactly the variables loadConfig reads and
 * that each default it states is the one loadConfig applies.
 */
export interface SettingReference {
  name: string;
  /** What an unset variable means, as a reader would write it; null: unset means off or none. */
  default: string | null;
  meaning: string;
  group: 'server' | 'webhooks' | 'tracing';
}

export const settingsReference: SettingReference[] = [
  {
    name: 'DATABASE_URL',
    default: 'sqlite:./data/vexil.db',
    meaning:
      '`sqlite:PATH` (embedded), `mysql://user:password@host:3306/database` (MySQL 8, MariaDB 10.11), or `postgres://user:password@host:5432/database` (also `postgresql://`; PostgreSQL 15 or later). A missing MySQL or PostgreSQL database is created at start when the user may',
    group: 'server',
  },
  {
    name: 'PORT',
    default: '8080',
    meaning: 'where the server listens',
    group: 'server',
  },
  {
    name: 'HOST',
    default: '0.0.0.0',
    meaning: 'where the server listens',
    group: 'server',
  },
  {
    name: 'LOG_LEVEL',
    default: 'info',
    meaning: 'pino level (`silent`, `error`, `warn`, `info`, `debug`)',
    group: 'server',
  },
  {
    name: 'VEXIL_REQUEST_LOG',
    default: 'management',
    meaning: "which requests get a log line: `management` (all but the public API's), `all`, `none` (docs/operating.md)",
    group: 'server',
  },
  {
    name: 'VEXIL_INIT_OWNER_TOKEN',
    default: null,
    meaning: 'owner personal access token to create on first start',
    group: 'server',
  },
  {
    name: 'REDIS_URL',
    default: null,
    meaning: 'e.g. `redis://127.0.0.1:6379`: shares rate-limit counters and change notifications between instances',
    group: 'server',
  },
  {
    name: 'VEXIL_PUBLIC_RATE_LIMIT',
    default: '100',
    meaning: 'public API requests per minute per client IP; `0` turns it off',
    group: 'server',
  },
  {
    name: 'VEXIL_TRUST_PROXY',
    default: 'false',
    meaning: "trust `X-Forwarded-For`, `-Proto` and `-Host` for the client IP and the console's origin (only behind your own proxy)",
    group: 'server',
  },
  {
    name: 'VEXIL_PUBLIC_URL',
    default: null,
    meaning:
      "the address people open the console at, e.g. `https://flags.example.com`, when a proxy in front changes the scheme or host: the console's same-origin check accepts it, and on https the session cookie is Secure",
    group: 'server',
  },
  {
    name: 'VEXIL_RATE_LIMIT_STANDARD',
    default: '60',
    meaning: 'management requests per minute for `standard` tier tokens',
    group: 'server',
  },
  {
    name: 'VEXIL_RATE_LIMIT_ELEVATED',
    default: '300',
    meaning: 'management requests per minute for `elevated` tier tokens (`unlimited` has no ceiling)',
    group: 'server',
  },
  {
    name: 'VEXIL_CONSOLE_READ_RATE_LIMIT',
    default: '3000',
    meaning:
      'reads (GET) per minute per console session, counted apart from its changes (which count at the `elevated` tier): a ceiling against runaway scripts that a person browsing the console never reaches; `0` turns it off',
    group: 'server',
  },
  {
    name: 'VEXIL_REVISION_POLL_MS',
    default: '250',
    meaning:
      'how often each instance checks for configuration changes made elsewhere; also how long an instance trusts a management token it has looked up before looking it up again',
    group: 'server',
  },
  {
    name: 'VEXIL_SCHEDULER_INTERVAL_MS',
    default: '1000',
    meaning: 'how often scheduled publishes and automatic rollout steps are checked',
    group: 'server',
  },
  {
    name: 'VEXIL_ROLLOUT_STEP_MS',
    default: '3600000',
    meaning: 'interval between automatic rollout steps (1, 5, 10, 25, 50, 100 %)',
    group: 'server',
  },
  {
    name: 'VEXIL_AUDIT_RETENTION_DAYS',
    default: '90',
    meaning: 'audit entries and hourly evaluation counts older than this are removed',
    group: 'server',
  },
  {
    name: 'VEXIL_PUBLIC_AUDIT',
    default: 'every',
    meaning:
      "what the public API's audit trail records: `every` request, only `errors` (answers of 400 and above), `aggregate` (one entry per key, flag, status and minute, with a count) or `sample:<rate>` (errors and that fraction of the rest, e.g. `sample:0.01`); docs/operating.md",
    group: 'server',
  },
  {
    name: 'VEXIL_PUBLIC_AUDIT_BUFFER',
    default: '50000',
    meaning:
      'public audit entries an instance holds before writing them; beyond that new entries are dropped (counted in `/metrics`), never delaying an answer',
    group: 'server',
  },
  {
    name: 'VEXIL_PUBLIC_AUDIT_FLUSH_MS',
    default: '1000',
    meaning: 'time from one public audit write to the next: what a `kill -9` can lose (docs/operating.md)',
    group: 'server',
  },
  {
    name: 'VEXIL_FAST_PUBLIC_READS',
    default: 'true',
    meaning:
      'answer GET /v1/flags, /v1/flags/{key}, /v1/payload and POST /ofrep/v1/evaluate/flags on a shorter path in front of the general request pipeline (same checks, limits, audit and answers; `false` sends them through the general pipeline)',
    group: 'server',
  },
  {
    name: 'VEXIL_SECRET_KEY',
    default: null,
    meaning: '32 bytes (base64 or 64 hex digits) encrypting stored webhook secrets; the same on every instance (docs/webhooks.md)',
    group: 'server',
  },
  {
    name: 'VEXIL_MAX_BODY_BYTES',
    default: '1048576',
    meaning: 'largest accepted request body',
    group: 'server',
  },
  {
    name: 'VEXIL_MAX_HEADER_BYTES',
    default: '65536',
    meaning: 'largest accepted request line and headers (context headers carry JSON); larger requests get 431',
    group: 'server',
  },
  {
    name: 'VEXIL_REDIS_PREFIX',
    default: 'vexil:',
    meaning: 'prefix of every Redis key Vexil writes; deployments sharing one Redis need different prefixes',
    group: 'server',
  },
  {
    name: 'VEXIL_REDIS_CHANNEL',
    default: '<prefix>environment-revisions',
    meaning: 'Redis channel on which instances announce configuration changes',
    group: 'server',
  },
  {
    name: 'VEXIL_RATE_LIMIT_SYNC_MS',
    default: '200',
    meaning: 'how often each instance exchanges its rate-limit counts with Redis (in the background)',
    group: 'server',
  },
  {
    name: 'VEXIL_REDIS_TIMEOUT_MS',
    default: '500',
    meaning:
      'a Redis that has not answered within this time counts as down: each instance then limits on its own counts (docs/operating.md, Several instances)',
    group: 'server',
  },
  {
    name: 'VEXIL_SQLITE_LOCK_WAIT_MS',
    default: '5000',
    meaning: 'SQLite: longest wait for a write lock another process holds before a write answers 503 (docs/databases.md)',
    group: 'server',
  },
  {
    name: 'VEXIL_DB_ACQUIRE_TIMEOUT_MS',
    default: '3000',
    meaning: 'MySQL/MariaDB, PostgreSQL: longest wait for a database connection before a 503',
    group: 'server',
  },
  {
    name: 'VEXIL_DB_QUERY_TIMEOUT_MS',
    default: '5000',
    meaning: 'MySQL/MariaDB, PostgreSQL (`statement_timeout`): longest wait for one query before a 503 (start-up migrations are exempt)',
    group: 'server',
  },
  {
    name: 'VEXIL_DB_GALERA_QUERY_TIMEOUT_MS',
    default: '15000',
    meaning:
      'Galera: the least wait for one query on a Galera node (writes stall about 6 s while a dead node is evicted; docs/databases.md)',
    group: 'server',
  },
  {
    name: 'VEXIL_IMPORT_FILE',
    default: null,
    meaning: 'a flags-as-code file applied at a start on a database without any project (docs/cli.md)',
    group: 'server',
  },
  {
    name: 'VEXIL_SESSION_HOURS',
    default: '12',
    meaning: 'console sessions end this long after sign-in',
    group: 'server',
  },
  {
    name: 'VEXIL_SESSION_IDLE_MINUTES',
    default: '60',
    meaning: 'console sessions end after this long without a request',
    group: 'server',
  },
  {
    name: 'VEXIL_SIGN_IN_ATTEMPTS',
    default: '10',
    meaning:
      "failed console sign-ins on one account from one client address (ten times that over all accounts) before that address's attempts are delayed (docs/security.md)",
    group: 'server',
  },
  {
    name: 'VEXIL_TEMPORARY_PASSWORD_DAYS',
    default: '7',
    meaning:
      "how long a temporary console password (printed at first start, by `reset-owner`, or set by an owner or admin for someone else) can be used to choose one's own",
    group: 'server',
  },
  {
    name: 'VEXIL_DRAIN_MS',
    default: '5000',
    meaning: 'how long a stopping instance keeps serving after SIGTERM (docs/operating.md)',
    group: 'server',
  },
  {
    name: 'VEXIL_CORS_ORIGINS',
    default: '*',
    meaning: 'origins allowed to call the public API and OFREP from a browser (`none` turns CORS off)',
    group: 'server',
  },
  {
    name: 'VEXIL_METRICS_TOKEN',
    default: null,
    meaning: 'bearer token `GET /metrics` requires (16 to 512 printable characters); unset: open',
    group: 'server',
  },
  {
    name: 'VEXIL_METRICS_PORT',
    default: null,
    meaning: 'serve `/metrics` on this port only (`404` on `PORT`); unset: on `PORT`',
    group: 'server',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: null,
    meaning: 'OTLP/HTTP collector to export traces to (e.g. `http://otel-collector:4318`); unset: no tracing (docs/operating.md)',
    group: 'tracing',
  },
  {
    name: 'VEXIL_WEBHOOK_ALLOW_HTTP',
    default: 'false',
    meaning: 'accept `http://` URLs (https only otherwise)',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_ALLOW_PRIVATE',
    default: 'false',
    meaning: 'accept hosts that resolve to loopback, link-local or private addresses',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_POLL_MS',
    default: '1000',
    meaning: 'how often each instance looks for subscriptions with events to send',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_TIMEOUT_MS',
    default: '10000',
    meaning: 'time allowed for one attempt, from resolving the host to the answer',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_RETRY_BASE_MS',
    default: '5000',
    meaning: 'first retry delay, doubled per attempt (at most one hour)',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_MAX_AGE_MS',
    default: '86400000',
    meaning: 'how long an event is retried before it is given up',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_DISABLE_AFTER',
    default: '50',
    meaning: 'failed attempts in a row that disable a subscription',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_CONCURRENCY',
    default: '8',
    meaning: 'subscriptions each instance delivers to at the same time',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_WEBHOOK_RETENTION_DAYS',
    default: '30',
    meaning: 'days delivered and failed events stay in the delivery log; `0` keeps them',
    group: 'webhooks',
  },
  {
    name: 'VEXIL_SECRET_KEY_PREVIOUS',
    default: null,
    meaning: 'earlier keys, comma-separated, still accepted to read secrets they sealed',
    group: 'webhooks',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    default: null,
    meaning: 'the traces endpoint itself, in place of OTEL_EXPORTER_OTLP_ENDPOINT',
    group: 'tracing',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    default: 'http/protobuf',
    meaning: '`http/protobuf` or `http/json` (gRPC is not supported)',
    group: 'tracing',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    default: null,
    meaning: 'the protocol for traces, in place of OTEL_EXPORTER_OTLP_PROTOCOL',
    group: 'tracing',
  },
  {
    name: 'OTEL_TRACES_SAMPLER',
    default: 'parentbased_always_on',
    meaning: '`always_on`, `always_off`, `traceidratio` or their `parentbased_` forms',
    group: 'tracing',
  },
  {
    name: 'OTEL_TRACES_SAMPLER_ARG',
    default: '1',
    meaning: 'the ratio of the `traceidratio` samplers, 0 to 1 (`0.01` keeps one trace in a hundred)',
    group: 'tracing',
  },
  {
    name: 'OTEL_BSP_SCHEDULE_DELAY',
    default: '5000',
    meaning: 'longest wait (ms) before finished spans are sent',
    group: 'tracing',
  },
  {
    name: 'OTEL_SDK_DISABLED',
    default: 'false',
    meaning: '`true` turns trace export off whatever the endpoint',
    group: 'tracing',
  },
  {
    name: 'OTEL_TRACES_EXPORTER',
    default: null,
    meaning: '`none` turns trace export off whatever the endpoint',
    group: 'tracing',
  },
];
