import type { Metrics } from './metrics.js';

/** A Redis client whose connection the gauge reports: `true` while it is connected and ready. */
export type RedisConnectionProbe = () => boolean;

const probesByMetrics = new WeakMap<Metrics, Map<string, RedisConnectionProbe>>();

/**
 * vexil_redis_connection_state{client}: 1 while the named Redis client (`rate_limits`,
 * `change_notifications`) is connected, 0 while it is not (the instance then counts rate limits
 * alone and relies on polling for changes). Present only with REDIS_URL. One gauge per Metrics,
 * registered with the first client.
 */
export function reportRedisConnection(metrics: Metrics, client: string, connected: RedisConnectionProbe): void {
  let probes = probesByMetrics.get(metrics);
  if (!probes) {
    const registered = new Map<string, RedisConnectionProbe>();
    probes = registered;
    probesByMetrics.set(metrics, registered);
    metrics.collect(
      'gauge',
      'vexil_redis_connection_state',
      'Whether each Redis client of this instance is connected (1) or not (0), by client.',
      () => [...registered].map(([name, probe]) => ({ labels: { client: name }, value: probe() ? 1 : 0 })),
    );
  }
  probes.set(client, connected);
}
