import type { BackgroundTask } from '../../core.js';
import { poller } from '../../poller.js';
import { reportRedisConnection } from '../../observability/redis-connection-metrics.js';
import type { FeatureDeps } from '../feature.js';
import { RateLimiter } from './limiter.js';
import { createExchangeClient, RedisCountExchange } from './redis-exchange.js';
import { RedisHealth } from './redis-health.js';
import { managementRateLimit, publicRateLimit } from './stages.js';
import { WindowCounts } from './window-counts.js';

/**
 * Rate limits: public API per client IP, management API per token by tier. Every decision is
 * made in memory; with REDIS_URL set the counts are shared with the other instances in the
 * background (keys under VEXIL_REDIS_PREFIX, so deployments sharing a Redis count apart), and
 * while Redis does not answer each instance limits on its own counts.
 */
export function createRateLimitsFeature(deps: FeatureDeps) {
  const { config, clock, logger } = deps;
  const counts = new WindowCounts();
  const limiter = new RateLimiter(counts);
  const sweeper = poller('rate-limit-sweep', 60_000, async () => counts.sweep(clock.now().getTime()), logger);
  const exchange = config.redisUrl ? sharedThroughRedis(deps, counts, config.redisUrl) : undefined;
  const task: BackgroundTask = {
    name: 'rate-limits',
    start: () => {
      sweeper.start();
      exchange?.start();
    },
    stop: async () => {
      await sweeper.stop();
      await exchange?.stop();
    },
  };
  return {
    publicStages: { beforeAuthentication: [publicRateLimit(limiter, config, clock, deps.metrics.rateLimitRejections.series('public'))] },
    managementStages: {
      afterAuthentication: [managementRateLimit(limiter, config, clock, deps.metrics.rateLimitRejections.series('management'))],
    },
    tasks: [task],
  };
}

/** The exchange with Redis, whose health /ready and /metrics report. */
function sharedThroughRedis(deps: FeatureDeps, counts: WindowCounts, url: string): RedisCountExchange {
  const { config } = deps;
  const health = new RedisHealth(deps.logger);
  deps.readiness.redis = () => health.state;
  reportRedisConnection(deps.metrics, 'rate_limits', () => health.state === 'up');
  deps.metrics.collect('gauge', 'vexil_redis_up', 'Whether Redis answered the last rate-limit exchange in time (1) or not (0).', () => [
    { value: health.state === 'up' ? 1 : 0 },
  ]);
  return new RedisCountExchange(createExchangeClient(url), counts, health, deps.clock, {
    prefix: `${config.redisPrefix}ratelimit:`,
    intervalMs: config.redisSyncMs,
    timeoutMs: config.redisTimeoutMs,
  });
}
