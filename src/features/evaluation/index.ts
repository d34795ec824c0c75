import type { BackgroundTask } from '../../core.js';
import type { FastReadHandlers } from '../../http/fast-read-handlers.js';
import type { Stage } from '../../http/openapi/router.js';
import { refreshBeforeAnswering } from '../../http/refresh-after-write.js';
import { poller } from '../../poller.js';
import { reportRedisConnection } from '../../observability/redis-connection-metrics.js';
import { pollingOnly, redisNotifier } from '../../runtime/change-notifier.js';
import type { EnvironmentRevision } from '../../runtime/config-source.js';
import { KnexConfigSource } from '../../runtime/config-loader.js';
import { SnapshotCache, type EnvironmentSnapshot } from '../../runtime/snapshot-cache.js';
import { StreamHub } from '../../runtime/stream-hub.js';
import { TelemetryBuffer } from '../../runtime/telemetry-buffer.js';
import { telemetryFlusher } from '../../runtime/telemetry-flusher.js';
import { ExposureBuffer } from '../../runtime/exposure-buffer.js';
import { exposureFlusher } from '../../runtime/exposure-flusher.js';
import { KnexExposureStore } from '../../runtime/exposure-store.js';
import { KnexTelemetryStore } from '../../runtime/telemetry-store.js';
import { refreshBudgetMs, type FeatureDeps } from '../feature.js';
import { createFlagOverviewHandlers } from '../flag-overview/index.js';
import { managementEvaluationHandlers, publicEvaluationHandlers } from './controller.js';
import { KnexExplanationStore } from './store.js';
import { publicErrorShaping } from './error-shaping.js';
import { InputDecoder } from './inputs.js';
import { EvaluationService } from './service.js';
import { OfrepService } from './ofrep-service.js';
import { PreviewService } from './preview-service.js';
import type { Metrics } from '../../observability/metrics.js';
import type { TelemetryFlusher } from '../../runtime/telemetry-flusher.js';

/** Management POST operations that change nothing. */
const readOnlyPosts = new Set(['evaluateFlagForContext']);

/** How often buffered telemetry is written. */
export const TELEMETRY_FLUSH_MS = 1000;
/** SSE heartbeat comment interval (specs/public.yaml: every 15 seconds). */
export const STREAM_HEARTBEAT_MS = 15_000;

/**
 * Public evaluation API, SDK payload and stream, OFREP, and the management evaluateFlag preview.
 *
 * Serving path: environment keys (EnvironmentKeyCache) and environment snapshots (SnapshotCache)
 * are in memory; a background poller reads every environment's revision each
 * `config.revisionPollMs` and rebuilds the snapshots that changed, so a change made through any
 * instance is served by every instance within one poll interval. With REDIS_URL set, revisions
 * seen moving are also published over Redis and the other instances rebuild at once; after a
 * management write the writing instance refreshes (and announces) before it answers.
 * Telemetry goes to an in-memory buffer written in batches by a background flusher.
 */
export function createEvaluationFeature(deps: FeatureDeps) {
  const cache = new SnapshotCache(new KnexConfigSource(deps.knex, deps.dialect), deps.logger);
  deps.readiness.snapshotsLoaded = () => cache.loaded;
  const telemetry = new TelemetryBuffer();
  const exposures = new ExposureBuffer();
  const serviceDeps = { cache, telemetry, clock: deps.clock, evaluations: deps.metrics.evaluations, exposures };
  const service = new EvaluationService(serviceDeps);
  const ofrep = new OfrepService(serviceDeps);
  const preview = new PreviewService({
    db: deps.knex,
    lookups: deps.lookups,
    explanations: new KnexExplanationStore(),
    evaluation: service,
  });
  const decoder = new InputDecoder(deps.documents.public.dereferenced);
  const hub = new StreamHub(cache, {
    heartbeatMs: STREAM_HEARTBEAT_MS,
    authCheckMs: Math.max(50, deps.config.revisionPollMs),
  });

  // Revisions seen moving here are announced to the other instances (Redis), which rebuild at once.
  const notifier = deps.config.redisUrl ? redisNotifier(deps.config.redisUrl, deps.logger, deps.config.redisChannel) : pollingOnly();
  const announcing = notifier.connected?.bind(notifier);
  if (announcing) reportRedisConnection(deps.metrics, 'change_notifications', announcing);
  const logFailure = (err: unknown) => deps.logger.error({ err }, 'environment snapshots could not be refreshed');
  const refreshAndAnnounce = (refresh: () => Promise<EnvironmentRevision[]>) => refresh().then((changed) => notifier.publish(changed));
  notifier.onChange((changed) => {
    if (cache.isBehind(changed)) cache.refreshAfterCurrent().catch(logFailure);
  });

  const revisions = poller(
    'environment-snapshots',
    deps.config.revisionPollMs,
    () => refreshAndAnnounce(() => cache.refresh()),
    deps.logger,
  );
  const snapshots: BackgroundTask = {
    name: revisions.name,
    start() {
      // Build every snapshot now rather than one interval from now.
      cache.refresh().catch(logFailure);
      revisions.start();
    },
    stop: () => revisions.stop(),
  };
  // After a management change, refresh before answering (this instance serves the change from the
  // moment the write answers, on every dialect) and announce it.
  const afterManagementWrite: Stage = async (ctx, next) => {
    await next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.status < 400) {
      await refreshBeforeAnswering(ctx, refreshBudgetMs(deps), () => refreshAndAnnounce(() => cache.refreshAfterCurrent()), logFailure);
    }
  };
  // Reads that are POSTs (evaluate with the context in the body) change nothing: nothing to refresh.
  afterManagementWrite.forOperation = (op) => (readOnlyPosts.has(op.operationId) ? undefined : afterManagementWrite);
  const flusher = telemetryFlusher(
    telemetry,
    new KnexTelemetryStore(deps.knex, deps.dialect),
    (environmentUlid, platform) => service.flagUlidsFor(environmentUlid, platform),
    TELEMETRY_FLUSH_MS,
    deps.logger,
  );

  const exposureWriter = exposureFlusher(
    exposures,
    new KnexExposureStore(deps.knex, deps.dialect),
    deps.clock,
    TELEMETRY_FLUSH_MS,
    deps.logger,
  );

  observeServingState(deps.metrics, cache, hub, telemetry, flusher);

  const handlerDeps = { service, ofrep, preview, decoder, hub, keyCache: deps.keyCache };
  const publicHandlers = publicEvaluationHandlers(handlerDeps);
  const { listEvaluatedFlags, getEvaluatedFlag, getPayload, ofrepEvaluateFlags } = publicHandlers;
  return {
    publicHandlers,
    fastReads: { listEvaluatedFlags, getEvaluatedFlag, getPayload, ofrepEvaluateFlags } satisfies FastReadHandlers,
    managementHandlers: {
      ...managementEvaluationHandlers(handlerDeps),
      // The flag page's overview includes the preview of a context without attributes.
      ...createFlagOverviewHandlers(deps, preview),
    },
    publicStages: { afterAuthentication: [publicErrorShaping] },
    managementStages: { aroundHandler: [afterManagementWrite] },
    // Streams end before the flusher's final write; the flusher stops last.
    tasks: [notifier, snapshots, hub, flusher, exposureWriter],
  };
}

/** What /metrics reads from the serving path at scrape time: snapshots, streams, the telemetry buffer. */
function observeServingState(
  metrics: Metrics,
  cache: SnapshotCache,
  hub: StreamHub,
  telemetry: TelemetryBuffer,
  flusher: TelemetryFlusher,
): void {
  const perEnvironment = (value: (entry: EnvironmentSnapshot, now: number) => number) => () => {
    const now = Date.now();
    return [...cache.all()].map((entry) => ({
      labels: { environment: entry.environmentUlid, environment_key: entry.environmentKey },
      value: value(entry, now),
    }));
  };
  metrics.collect(
    'gauge',
    'vexil_snapshot_revision',
    'Configuration revision this instance serves, per environment.',
    perEnvironment((entry) => entry.revision),
  );
  metrics.collect(
    'gauge',
    'vexil_snapshot_age_seconds',
    'Seconds since this instance started serving the newest change of the environment (its current revision).',
    perEnvironment((entry, now) => Math.max(0, (now - entry.servedSince) / 1000)),
  );
  metrics.collect('gauge', 'vexil_stream_connections', 'Open server-sent event streams (GET /v1/stream).', () => [{ value: hub.size }]);
  metrics.addBuffer('telemetry', { depth: () => telemetry.size, written: () => flusher.written, dropped: () => telemetry.droppedTotal });
}
