import type { AuditWriter } from '../audit/audit-trail.js';
import type { ConsoleSessionService } from './console-sessions/service.js';
import type { ReadinessState } from '../http/operations/health.js';
import type { EnvironmentKeyCache } from '../auth/environment-key-cache.js';
import type { BackgroundTask, CoreDeps } from '../core.js';
import type { LoadedDocument } from '../http/openapi/document.js';
import type { FastReadHandlers } from '../http/fast-read-handlers.js';
import type { PublicStage, Stage } from '../http/openapi/router.js';
import type { ManagementHandlerSet, PublicHandlerSet } from '../http/handler-map.js';
import type { Metrics } from '../observability/metrics.js';
import type { LookupStore } from './shared/lookup.js';

/** What a feature is built from: the core plus the few shared services. */
export interface FeatureDeps extends CoreDeps {
  documents: { public: LoadedDocument; management: LoadedDocument };
  keyCache: EnvironmentKeyCache;
  auditWriter: AuditWriter;
  consoleSessions: ConsoleSessionService;
  readiness: ReadinessState;
  /** This instance's metrics (GET /metrics): features add what they count. */
  metrics: Metrics;
  /** The path lookups (project, environment, flag of a request's path). */
  lookups: LookupStore;
}

/** What a feature contributes to the application. Every part is optional. */
export interface FeatureParts {
  managementHandlers?: ManagementHandlerSet;
  publicHandlers?: PublicHandlerSet;
  tasks?: BackgroundTask[];
  managementStages?: { afterAuthentication?: Stage[]; aroundHandler?: Stage[] };
  /** beforeAuthentication: runs before the environment key is checked (per-IP rate limit). */
  publicStages?: { beforeAuthentication?: PublicStage[]; afterAuthentication?: PublicStage[] };
  /** The handlers of the public reads answered in front of Koa (the evaluation feature's). */
  fastReads?: FastReadHandlers;
  /**
   * The services the feature built, by name (the names of configuration/transactional-services.ts
   * where a service is also built per transaction), so a test can compare how each place builds them.
   */
  services?: Record<string, object>;
}

export type FeatureFactory = (deps: FeatureDeps) => FeatureParts;

/**
 * How long a management write waits for its own refreshes before answering: one connection wait
 * and one query, the longest a request waits on a database that does not answer.
 */
export function refreshBudgetMs(deps: Pick<CoreDeps, 'config'>): number {
  return deps.config.databaseAcquireTimeoutMs + deps.config.databaseQueryTimeoutMs;
}
