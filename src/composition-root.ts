import type { Logger } from 'pino';
import { AuditBacklog } from './audit/audit-backlog.js';
import { AuditWriter } from './audit/audit-trail.js';
import { PublicAuditBuffer } from './audit/public-audit-buffer.js';
import { KnexCredentialStore } from './auth/credential-store.js';
import { EnvironmentKeyCache } from './auth/environment-key-cache.js';
import { ManagementAuthenticator } from './auth/management-auth.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { BackgroundTask, CoreDeps } from './core.js';
import { createAccountsFeature } from './features/accounts/index.js';
import { createApiDocsFeature } from './features/api-docs/index.js';
import { createOperationsFeature } from './features/operations/index.js';
import { createAuditLogsFeature } from './features/audit-logs/index.js';
import { createConfigurationFeature } from './features/configuration/index.js';
import { buildConsoleSessionService, createConsoleSessionsFeature } from './features/console-sessions/index.js';
import type { ConsoleSessionService } from './features/console-sessions/service.js';
import type { ReadinessState } from './http/operations/health.js';
import { createEnvironmentKeysFeature } from './features/environment-keys/index.js';
import { createEnvironmentsFeature } from './features/environments/index.js';
import { createEvaluationFeature } from './features/evaluation/index.js';
import type { FeatureDeps, FeatureFactory, FeatureParts } from './features/feature.js';
import { KnexLookupStore } from './features/shared/lookup-store.js';
import { createFlagValuesFeature } from './features/flag-values/index.js';
import { createFlagsFeature } from './features/flags/index.js';
import { createIdempotencyFeature } from './features/idempotency/index.js';
import { createInsightsFeature } from './features/insights/index.js';
import { createProjectsFeature } from './features/projects/index.js';
import { createRateLimitsFeature } from './features/rate-limits/index.js';
import { createRulesFeature } from './features/rules/index.js';
import { createPrerequisitesFeature } from './features/prerequisites/index.js';
import { createSchedulerFeature } from './features/scheduler/index.js';
import { createSegmentsFeature } from './features/segments/index.js';
import { createTargetsFeature } from './features/targets/index.js';
import { createTokensFeature } from './features/tokens/index.js';
import { createWebhooksFeature } from './features/webhooks/index.js';
import type { FastReadHandlers } from './http/fast-read-handlers.js';
import type { PublicStage, Stage } from './http/openapi/router.js';
import type { HandlerMap } from './http/operation.js';
import type { HandlersCover, ManagementOperations, PublicOperations } from './http/handler-map.js';
import { loadDocument, type LoadedDocument } from './http/openapi/document.js';
import { createLogger } from './logger.js';
import { recordDatabaseMetrics } from './observability/database-metrics.js';
import { Metrics } from './observability/metrics.js';
import { startTracing, type Tracing } from './observability/tracing.js';
import { poller } from './poller.js';
import { openDatabase } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { ensurePostgresDatabase } from './storage/postgres-database.js';
import { ensureMysqlDatabase } from './storage/mysql-database.js';

/**
 * Every feature, in the order their stages run. The only place services are built:
 * handlers never construct services themselves.
 */
const features = [
  createApiDocsFeature,
  createOperationsFeature,
  createRateLimitsFeature,
  createIdempotencyFeature,
  createProjectsFeature,
  createEnvironmentsFeature,
  createEnvironmentKeysFeature,
  createTokensFeature,
  createAccountsFeature,
  createConsoleSessionsFeature,
  createFlagsFeature,
  createFlagValuesFeature,
  createTargetsFeature,
  createRulesFeature,
  createPrerequisitesFeature,
  createSegmentsFeature,
  createEvaluationFeature,
  createInsightsFeature,
  createConfigurationFeature,
  createWebhooksFeature,
  createAuditLogsFeature,
  createSchedulerFeature,
] as const satisfies readonly FeatureFactory[];

/** The operationIds the features together handle, in the management or the public document. */
type Handled<Api extends 'managementHandlers' | 'publicHandlers'> = HandledBy<ReturnType<(typeof features)[number]>, Api>;
type HandledBy<Parts, Api extends string> = Parts extends { [K in Api]?: infer Handlers } ? keyof NonNullable<Handlers> : never;
type Holds<Check extends true> = Check;
/** Fails the type check when an operation of a document has no handler, or a handler no operation. */
export type EveryOperationHandled = [
  Holds<HandlersCover<Handled<'managementHandlers'>, keyof ManagementOperations>>,
  Holds<HandlersCover<Handled<'publicHandlers'>, keyof PublicOperations>>,
];

export interface Composition {
  core: CoreDeps;
  documents: { public: LoadedDocument; management: LoadedDocument };
  publicHandlers: HandlerMap;
  managementHandlers: HandlerMap;
  publicStages: { beforeAuthentication: PublicStage[]; afterAuthentication: PublicStage[] };
  /** The handlers of the public reads answered in front of Koa (src/http/fast-public-reads.ts), if a feature gives them. */
  fastReads: FastReadHandlers | undefined;
  managementStages: { afterAuthentication: Stage[]; aroundHandler: Stage[] };
  keyCache: EnvironmentKeyCache;
  authenticator: ManagementAuthenticator;
  consoleSessions: ConsoleSessionService;
  /** What /ready reports (set shuttingDown on SIGTERM). */
  readiness: ReadinessState;
  /** What /metrics reports. */
  metrics: Metrics;
  /** Trace export, when configured (OTEL_EXPORTER_OTLP_ENDPOINT); undefined: no tracing at all. */
  tracing: Tracing | undefined;
  auditWriter: AuditWriter;
  /** Public API audit entries, buffered and written in batches by its task. */
  publicAudit: PublicAuditBuffer;
  /** The services the features built, by name (FeatureParts.services). */
  services: Record<string, object>;
  tasks: BackgroundTask[];
  /** Stops the tasks that hold connections open (ends event streams), so open requests can finish. */
  endStreams(): Promise<void>;
  /** Stops every background task once (ends streams, flushes buffers). */
  stopTasks(): Promise<void>;
  /** Stops the tasks if still running, then closes the database pool. */
  close(): Promise<void>;
}

export interface ComposeOptions {
  clock?: Clock;
  logger?: Logger;
}

export async function compose(config: Config, options: ComposeOptions = {}): Promise<Composition> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const { knex, dialect, hosts } = openDatabase(
    config.databaseUrl,
    {
      acquireMs: config.databaseAcquireTimeoutMs,
      queryMs: config.databaseQueryTimeoutMs,
      lockWaitMs: config.sqliteLockWaitMs,
      galeraQueryMs: config.databaseGaleraQueryTimeoutMs,
    },
    (message, fields) => logger.warn(fields ?? {}, message),
  );
  const metrics = new Metrics();
  recordDatabaseMetrics(knex, metrics);
  const tracing = await startTracing(config.tracing, logger);
  tracing?.traceQueries(knex, dialect);
  if (dialect === 'mysql') await ensureMysqlDatabase(config.databaseUrl, logger);
  if (dialect === 'postgres') await ensurePostgresDatabase(config.databaseUrl, logger);
  await migrateToLatest(knex, logger);
  const core: CoreDeps = { config, knex, dialect, clock, logger };

  const documents = { public: await loadDocument('public'), management: await loadDocument('management') };
  const credentials = new KnexCredentialStore();
  const keyCache = new EnvironmentKeyCache({ db: knex, store: credentials });
  await keyCache.refreshIfChanged();
  const auditBacklog = new AuditBacklog(logger);
  const auditWriter = new AuditWriter(clock, auditBacklog);
  metrics.addBuffer('management_audit', {
    depth: () => auditBacklog.size,
    written: () => auditBacklog.writtenTotal,
    dropped: () => auditBacklog.droppedTotal,
  });
  const publicAudit = new PublicAuditBuffer(knex, clock, logger, config.publicAudit);
  metrics.addBuffer('public_audit', {
    depth: () => publicAudit.size,
    written: () => publicAudit.writtenTotal,
    dropped: () => publicAudit.droppedTotal,
  });
  // The public audit's durability bound (docs/operating.md: what a kill loses), stated and observed.
  metrics.collect(
    'gauge',
    'vexil_public_audit_flush_interval_seconds',
    'Time from one public audit write to the next (VEXIL_PUBLIC_AUDIT_FLUSH_MS).',
    () => [{ value: config.publicAudit.flushIntervalMs / 1000 }],
  );
  metrics.collect(
    'gauge',
    'vexil_public_audit_oldest_unwritten_seconds',
    'Age of the oldest public audit entry not written yet (0: none waits).',
    () => [{ value: publicAudit.oldestUnwrittenSeconds() }],
  );
  const consoleSessions = buildConsoleSessionService(core);
  const readiness: ReadinessState = { shuttingDown: false, snapshotsLoaded: () => false, databaseHost: hosts };
  const lookups = new KnexLookupStore();
  const deps: FeatureDeps = { ...core, documents, keyCache, auditWriter, consoleSessions, readiness, metrics, lookups };

  let stopping: Promise<void> | undefined;
  const composition: Composition = {
    core,
    documents,
    publicHandlers: {},
    managementHandlers: {},
    publicStages: { beforeAuthentication: [], afterAuthentication: [] },
    fastReads: undefined,
    managementStages: { afterAuthentication: [], aroundHandler: [] },
    keyCache,
    authenticator: new ManagementAuthenticator({ db: knex, store: credentials, clock }, { cacheMs: config.revisionPollMs }),
    consoleSessions,
    readiness,
    metrics,
    tracing,
    auditWriter,
    publicAudit,
    services: {},
    // A revoked key stops working within one poll interval on every instance.
    tasks: [
      poller('environment-key-cache', config.revisionPollMs, () => keyCache.refreshIfChanged(), logger),
      publicAudit.task,
      auditBacklog.task,
    ],
    async endStreams() {
      for (const task of composition.tasks) if (task.holdsConnections) await task.stop();
    },
    stopTasks() {
      stopping ??= (async () => {
        for (const task of composition.tasks) await task.stop();
      })();
      return stopping;
    },
    async close() {
      await composition.stopTasks();
      await knex.destroy();
      await tracing?.shutdown();
    },
  };
  for (const factory of features) {
    const parts: FeatureParts = factory(deps);
    Object.assign(composition.publicHandlers, parts.publicHandlers);
    Object.assign(composition.managementHandlers, parts.managementHandlers);
    composition.publicStages.beforeAuthentication.push(...(parts.publicStages?.beforeAuthentication ?? []));
    composition.publicStages.afterAuthentication.push(...(parts.publicStages?.afterAuthentication ?? []));
    composition.managementStages.afterAuthentication.push(...(parts.managementStages?.afterAuthentication ?? []));
    composition.managementStages.aroundHandler.push(...(parts.managementStages?.aroundHandler ?? []));
    composition.tasks.push(...(parts.tasks ?? []));
    Object.assign(composition.services, parts.services);
    composition.fastReads ??= parts.fastReads;
  }
  return composition;
}
