import type { Knex } from 'knex';
import type { components } from '../../../generated/management.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import { UnprocessableError } from '../../http/errors.js';
import { servingOverview } from '../flags/serving-overview.js';
import { isOn, offValueOf, otherValuesOf } from '../flags/serving-state.js';
import type { EnvironmentRef, FlagRef } from '../shared/lookup.js';
import type { Auditor } from '../shared/transactions.js';
import type { TargetRecord } from '../targets/store-types.js';
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

/** A target expired while its rollout was in progress: it served only the contexts inside it. */
function cutShort(target: TargetRecord): boolean {
  const percentage = target.rollout_percentage;
  return target.status === 'expired' && target.rollout_status !== null && percentage !== null && percentage < 100;
}

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
      input.comment,
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
            // No split, rule or prerequisite: each could serve some context another value.
            { value, rules: [], prerequisites: [], rollout: null },
            { publish: true, ...this.publishOptions(input) },
          );
        };
        if (!input.on) {
          // `before.on` is true, so the flag has values and an off value.
          await serveToEveryone(offValueOf(flag.type, defaultDisplay) as string);
        } else {
          const history = await this.history(acting, { project, flag, environment });
          const earlier = await this.newestEarlierOn(trx, history, flag, defaultDisplay);
          if (earlier) await this.republish(trx, writer, history, earlier, flag, environment.key, defaultDisplay, input);
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

  /** The published and expired targets, newest publish first. */
  private async history(
    acting: ActingContext,
    ctx: { project: { ulid: string; key: string }; flag: FlagRef; environment: EnvironmentRef },
  ) {
    return (await acting.services.targets.drafts.list(acting.principal, ctx, acting.newTrail()))
      .filter((t) => t.status === 'published' || t.status === 'expired')
      .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.ulid.localeCompare(a.ulid));
  }

  /**
   * The newest published or expired target whose serving was on. A target whose rollout was cut
   * short (see `republish`) was on when it or what served outside its rollout was.
   */
  private async newestEarlierOn(trx: Knex.Transaction, history: TargetRecord[], flag: FlagRef, defaultDisplay: string | null) {
    const on = async (target: TargetRecord | undefined) => {
      if (!target)
        return defaultDisplay !== null && isOn(flag.type, defaultDisplay, { value: defaultDisplay, otherValues: [], rolling: false });
      const serving = await servingOfTarget(trx, target);
      return isOn(flag.type, defaultDisplay, { value: serving.value, otherValues: otherValuesOf(serving, defaultDisplay), rolling: false });
    };
    for (const [index, target] of history.entries()) {
      if (await on(target)) return target;
      if (cutShort(target) && (await on(history[index + 1]))) return target;
    }
    return undefined;
  }

  /**
   * Publishes again what `earlier` served. A target whose rollout was cut short (expired before
   * reaching 100 %: the switch turned it off) served only the contexts inside the rollout, the
   * rest getting the publish before it (or the default): that publish goes out again first, then
   * `earlier` rolls out over it at the same percentage (the bucket of a context depends on the
   * flag alone), so every context gets what it got before the switch.
   */
  private async republish(
    trx: Knex.Transaction,
    writer: ServingWriter,
    history: TargetRecord[],
    earlier: TargetRecord,
    flag: FlagRef,
    environmentKey: string,
    defaultDisplay: string | null,
    input: SwitchInput,
  ): Promise<void> {
    const options = this.publishOptions(input);
    const percentage = earlier.rollout_percentage;
    if (!cutShort(earlier) || percentage === null) {
      await restoreWith(trx, writer, flag.key, environmentKey, earlier, options);
      return;
    }
    const before = history[history.indexOf(earlier) + 1];
    if (before) await restoreWith(trx, writer, flag.key, environmentKey, before, options);
    else if (defaultDisplay !== null)
      await writer.write(
        flag.key,
        environmentKey,
        { value: defaultDisplay, rules: [], prerequisites: [], rollout: null },
        { publish: true, ...options },
      );
    const serving = await servingOfTarget(trx, earlier);
    await writer.write(
      flag.key,
      environmentKey,
      { ...serving, prerequisites: serving.prerequisites ?? [], rollout: { mode: 'manual', percentage, status: 'active' } },
      { publish: true, ...options },
    );
  }

  /** The environment's state as the flags list reports it. */
  private async state(trx: Knex.Transaction, flag: FlagRef, environment: EnvironmentRef): Promise<FlagServingState> {
    const overview = await servingOverview(
      trx,
      flag.project_ulid,
      [await overviewFlag(trx, flag.ulid)],
      30,
      this.deps.core.clock.now(),
      (ulid) => ulid === environment.ulid,
    );
    const state = overview.get(flag.ulid)?.environments.find((e) => e.environment_key === environment.key);
    if (!state) throw new Error(`no serving state of ${flag.key} in ${environment.key}`);
    return state;
  }
}
