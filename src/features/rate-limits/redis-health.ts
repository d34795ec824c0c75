import type { Logger } from 'pino';

/** What /ready reports of Redis (specs/public.yaml, RedisState). */
export type RedisState = 'up' | 'down' | 'not_configured';

/**
 * Whether Redis answers this instance, as the rate-limit exchange last found it. Each change of
 * state is logged once (not each failed attempt), and read by /ready and /metrics (vexil_redis_up).
 * It starts down: up once Redis has answered.
 */
export class RedisHealth {
  private current: 'up' | 'down' = 'down';
  private reported = false;

  constructor(private readonly logger: Logger) {}

  get state(): 'up' | 'down' {
    return this.current;
  }

  up(): void {
    if (this.current === 'up') return;
    this.current = 'up';
    this.reported = true;
    this.logger.info({ redis: 'up' }, 'Redis answers: rate-limit counts are shared between instances');
  }

  down(reason: string, error?: unknown): void {
    // The first failure before Redis ever answered is a change too (from "not known yet").
    if (this.current === 'down' && this.reported) return;
    this.current = 'down';
    this.reported = true;
    this.logger.warn(
      { redis: 'down', reason, ...(error === undefined ? {} : { err: error }) },
      'Redis unavailable: each instance limits on its own counts until it answers again',
    );
  }
}
