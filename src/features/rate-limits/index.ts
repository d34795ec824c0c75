import type { BackgroundTask } from '../../core.js';
import { reportRedisConnection } from '../../observability/redis-connection-metrics.js';
import { poller } from '../../poller.js';
import type { FeatureDeps } from '../feature.js';
import { createRedisClient, MemoryRateCounter, RedisRateCounter, type RateCounter } from './counter.js';
import { RateLimiter } from './limiter.js';
import { managementRateLimit, publicRateLimit } from './stages.js';

/**
 * Rate limits (README; the X-RateLimit headers of specs/): public API per client IP, management API per token by tier.
 * Counters live in memory, or in Redis when REDIS_URL is set so that every instance enforces one
 * shared limit (keys under VEXIL_REDIS_PREFIX, so deployments sharing a Redis count apart).
 */
export function createRateLimitsFeature(deps: FeatureDeps) {
  const { config, clock, logger } = deps;
  let counter: RateCounter = new MemoryRateCounter();
  if (config.redisUrl) {
    const shared = new RedisRateCounter(createRedisClient(config.redisUrl), logger, `${config.redisPrefix}ratelimit:`);
    reportRedisConnection(deps.metrics, 'rate_limits', () => shared.connected);
    counter = shared;
  }
  const limiter = new RateLimiter(counter);
  const sweeper = poller('rate-limit-sweep', 60_000, async () => counter.sweep(clock.now().getTime()), logger);
  const task: BackgroundTask = {
    name: 'rate-limits',
    start: () => sweeper.start(),
    stop: async () => {
      await sweeper.stop();
      await counter.close();
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
