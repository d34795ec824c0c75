import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { RateLimitedError } from '../../http/errors.js';
import { operationState } from '../../http/operation.js';
import type { Stage } from '../../http/openapi/router.js';
import type { RateDecision, RateLimiter } from './limiter.js';

/** Counts refusals for /metrics (vexil_rate_limit_rejections_total). */
interface RefusalCounter {
  inc(): void;
}
const uncounted: RefusalCounter = { inc: () => {} };

/** 429 with Retry-After; the error middleware writes OFREP's `{errorDetails}` body under /ofrep. */
function refusal(decision: RateDecision): RateLimitedError {
  return new RateLimitedError(decision.retryAfter);
}

/**
 * Public API: per client IP (ctx.ip, which reads X-Forwarded-For only when VEXIL_TRUST_PROXY is
 * set), counted before authentication so that requests with bad keys count too. Off when the
 * limit is 0, and then no rate-limit headers are sent.
 */
export function publicRateLimit(
  limiter: RateLimiter,
  config: Pick<Config, 'publicRateLimit'>,
  clock: Clock,
  refusals: RefusalCounter = uncounted,
): Stage {
  const stage: Stage = async (ctx, next) => {
    const limit = config.publicRateLimit;
    if (limit > 0) {
      const decision = limiter.take(`public:${ctx.ip}`, limit, clock.now().getTime());
      ctx.set('X-RateLimit-Limit', String(decision.limit));
      ctx.set('X-RateLimit-Remaining', String(decision.remaining));
      if (!decision.allowed) {
        refusals.inc();
        throw refusal(decision);
      }
    }
    await next();
  };
  // The configuration is read once at start: with the limit off, routes leave the stage out.
  stage.forOperation = () => (config.publicRateLimit > 0 ? stage : undefined);
  return stage;
}

/**
 * Management API: per token by tier (`standard`, `elevated`; personal access tokens count as
 * `elevated`; `unlimited` has no ceiling and gets no headers). Runs after authentication and
 * before the scope check, so requests refused for scope still count. Every response of a limited
 * token carries X-RateLimit-Limit, -Remaining and -Reset; over the limit it is a 429 with
 * Retry-After, audited with result `rate_limited`.
 */
export function managementRateLimit(
  limiter: RateLimiter,
  config: Pick<Config, 'managementRateLimits'>,
  clock: Clock,
  refusals: RefusalCounter = uncounted,
): Stage {
  return async (ctx, next) => {
    const principal = operationState(ctx).managementPrincipal;
    const limit = principal && principal.tier !== 'unlimited' ? config.managementRateLimits[principal.tier] : 0;
    if (principal && limit > 0) {
      const decision = limiter.take(`token:${principal.tokenUlid}`, limit, clock.now().getTime());
      ctx.set('X-RateLimit-Limit', String(decision.limit));
      ctx.set('X-RateLimit-Remaining', String(decision.remaining));
      ctx.set('X-RateLimit-Reset', String(decision.resetAt));
      if (!decision.allowed) {
        refusals.inc();
        throw refusal(decision);
      }
    }
    await next();
  };
}
