import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { RateLimitedError } from '../../http/errors.js';
import { operationState } from '../../http/operation.js';
import type { PublicStage, Stage } from '../../http/openapi/router.js';
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
): PublicStage {
  const stage: PublicStage = async (ctx, next) => {
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

/** Requests that change nothing: a console session's are counted apart from its changes. */
const readMethods = new Set(['GET', 'HEAD']);

/**
 * The count a management request falls in and its ceiling: a console session's reads have their
 * own, generous count (a person browsing the console makes many reads a minute and must never
 * meet a 429, while a runaway script with a session cookie still does); its changes, and every
 * request of a token, count per token by tier.
 */
function managementCount(
  principal: ManagementPrincipal,
  method: string,
  config: Pick<Config, 'managementRateLimits' | 'consoleReadRateLimit'>,
): { identity: string; limit: number } {
  if (principal.type === 'console_session' && readMethods.has(method)) {
    return { identity: `session-reads:${principal.tokenUlid}`, limit: config.consoleReadRateLimit };
  }
  return {
    identity: `token:${principal.tokenUlid}`,
    limit: principal.tier === 'unlimited' ? 0 : config.managementRateLimits[principal.tier],
  };
}

/**
 * Management API: per token by tier (`standard`, `elevated`; personal access tokens count as
 * `elevated`; `unlimited` has no ceiling and gets no headers); a console session's reads by
 * their own ceiling (VEXIL_CONSOLE_READ_RATE_LIMIT), its changes as `elevated`. Runs after
 * authentication and before the scope check, so requests refused for scope still count. Every
 * response of a limited request carries X-RateLimit-Limit, -Remaining and -Reset; over the limit
 * it is a 429 with Retry-After, audited with result `rate_limited`.
 */
export function managementRateLimit(
  limiter: RateLimiter,
  config: Pick<Config, 'managementRateLimits' | 'consoleReadRateLimit'>,
  clock: Clock,
  refusals: RefusalCounter = uncounted,
): Stage {
  return async (ctx, next) => {
    const principal = operationState(ctx).managementPrincipal;
    const count = principal ? managementCount(principal, ctx.method, config) : undefined;
    if (count && count.limit > 0) {
      const decision = limiter.take(count.identity, count.limit, clock.now().getTime());
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
