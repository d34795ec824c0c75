import type { Knex } from 'knex';
import type { components } from '../../../generated/management.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import { UnprocessableError } from '../../http/errors.js';
import { servingOverview } from '../flags/serving-overview.js';
import { isOn, offValueOf } from '../flags/serving-state.js';
import type { EnvironmentRef, FlagRef } from '../shared/lookup.js';
import type { Auditor } from '../shared/transactions.js';
import { changeFlagEnvironment, type FlagEnvironmentChangeDeps } from './flag-environment-change.js';
import { restoreWith } from './restore-service.js';
import { ServingWriter } from './serving-writer.js';
import { defaultDisplayOf, overviewFlag } from './switch-store.js';
import { servingOfTarget } from './target-serving.js';
import type { ActingContext } from './transactional-services.js';

type FlagServingState = components['schemas']['FlagServingState'];

export interface SwitchInput {
  on: boolean;
  comment?: string | null;
  confirmation?: string;
}

type FlagEnvPath = { projectKey: string; flagKey: string; environmentKey: string };

/**
 * The console's on/off switch (specs/management.yaml, switchFlag). Off serves the off value to
 * everyone; on publishes again the newest earlier publish that was on. On and off are decided by
 * `isOn` alone, the definition the flags list reports.
 */
export class SwitchService {
  constructor(private readonly deps: FlagEnvironmentChangeDeps) {}

  async switch(principal: ManagementPrincipal, path: FlagEnvPath, input: SwitchInput, audit: Auditor): Promise<FlagServingState> {
    return changeFlagEnvironment(
      this.deps,
      principal,
      path,
      audit,
      'target.switched',
      async ({ trx, project, flag, environment, acting }) => {
        const before = await this.state(trx, flag, environment);
        if (before.on === input.on) return before;
        const writer = new ServingWriter(acting);
        const displays = await writer.valueUlids(flag.key);
        const defaultDisplay = await defaultDisplayOf(trx, flag.ulid);
        const serveToEveryone = async (value: string) => {
          if (!displays.has(value)) throw new UnprocessableError(`The flag "${flag.key}" has no value ${value} to serve.`);
          await writer.write(
            flag.key,
            environment.key,
            { value, rules: [], rollout: null },
            { publish: true, ...this.publishOptions(input) },
          );
        };
        if (!input.on) {
          // `before.on` is true, so the flag has values and an off value.
          await serveToEveryone(offValueOf(flag.type, defaultDisplay) as string);
        } else {
          const earlier = await this.newestEarlierOn(trx, acting, { project, flag, environment }, defaultDisplay);
          if (earlier) await restoreWith(trx, writer, flag.key, environment.key, earlier, this.publishOptions(input));
          else if (flag.type === 'boolean') await serveToEveryone('true');
          else throw new UnprocessableError(`Nothing was published on in ${environment.key}: publish a target of "${flag.key}" instead.`);
        }
        return this.state(trx, flag, environment);
      },
    );
  }

  private publishOptions(input: SwitchInput) {
    return { comment: input.comment ?? null, ...(input.confirmation === undefined ? {} : { confirmation: input.confirmation }) };
  }

  /** The newest published or expired target whose serving was on (its rollout aside). */
  private async newestEarlierOn(
    trx: Knex.Transaction,
    acting: ActingContext,
    ctx: { project: { ulid: string; key: string }; flag: FlagRef; environment: EnvironmentRef },
    defaultDisplay: string | null,
  ) {
    const history = (await acting.services.targets.drafts.list(acting.principal, ctx, acting.newTrail()))
      .filter((t) => t.status === 'published' || t.status === 'expired')
      .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.ulid.localeCompare(a.ulid));
    for (const target of history) {
      const serving = await servingOfTarget(trx, target);
      if (isOn(ctx.flag.type, defaultDisplay, { value: serving.value, rulesCount: serving.rules.length, rolling: false })) return target;
    }
    return undefined;
  }

  /** The environment's state as the flags list reports it. */
  private async state(trx: Knex.Transaction, flag: FlagRef, environment: EnvironmentRef): Promise<FlagServingState> {
    const overview = await servingOverview(trx, flag.project_ulid, [await overviewFlag(trx, flag.ulid)], 30, this.deps.core.clock.now());
    const state = overview.get(flag.ulid)?.environments.find((e) => e.environment_key === environment.key);
    if (!state) throw new Error(`no serving state of ${flag.key} in ${environment.key}`);
    return state;
  }
}
