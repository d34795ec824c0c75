import type { SplitRecord } from '../shared/splits.js';
import type { TargetRecord } from '../targets/store-types.js';
import type { ProjectConfiguration } from './plan.js';
import type { ActingContext } from './transactional-services.js';

export type Serving = ProjectConfiguration['flags'][number]['environments'][string];

export interface WriteServingOptions {
  /** Publish the draft (through the normal publish path) or leave it a draft. */
  publish: boolean;
  comment?: string | null;
  /** Extra publish input (typed confirmation of a console session). */
  confirmation?: string;
}

type ConfigurationSplit = NonNullable<Serving['split']>;

/** A file's split as the services take it (values by ulid); null for none. */
function splitInput(split: ConfigurationSplit | undefined, values: ReadonlyMap<string, string>): SplitRecord | null {
  if (split === undefined) return null;
  return {
    attribute: split.attribute ?? null,
    shares: split.shares.map((s) => ({ value_ulid: values.get(s.value) as string, weight: s.weight })),
  };
}

function sameSplit(a: SplitRecord | null, b: SplitRecord | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Writes a serving configuration as a new target through the target and rule services: a draft
 * (which copies what is served), its base value, the rules replaced by the given ones, then the
 * publish. Used by apply, promote and serve.
 */
export class ServingWriter {
  constructor(private readonly acting: ActingContext) {}

  /** The ulid of each of the flag's values, by display. */
  async valueUlids(flagKey: string): Promise<Map<string, string>> {
    const values = await this.acting.services.values.list(
      this.acting.principal,
      { projectKey: this.acting.projectKey, flagKey },
      this.acting.newTrail(),
    );
    return new Map(values.map((v) => [v.display, v.ulid]));
  }

  /** The newest published target of the flag in the environment (the one a rollout runs on). */
  private async served(flagKey: string, environmentKey: string) {
    const { trx, principal, projectKey, services } = this.acting;
    const ctx = await this.acting.services.lookups.findFlagEnvironment(trx, principal.access, { projectKey, flagKey, environmentKey });
    const published = (await services.targets.drafts.list(principal, ctx, this.acting.newTrail())).filter((t) => t.status === 'published');
    published.sort((a, b) => ((a.published_at ?? '') < (b.published_at ?? '') ? 1 : -1));
    const target = published[0];
    if (!target) throw new Error(`no published target of ${flagKey} in ${environmentKey}`);
    return { ctx, target };
  }

  private by(options: Pick<WriteServingOptions, 'confirmation'>) {
    return {
      console: this.acting.principal.type === 'console_session',
      ...(options.confirmation === undefined ? {} : { confirmation: options.confirmation }),
    };
  }

  /** Sets the percentage of the manual rollout in progress (the rollout's own update operation). */
  async setRolloutPercentage(
    flagKey: string,
    environmentKey: string,
    percentage: number,
    options: Pick<WriteServingOptions, 'confirmation'>,
  ): Promise<TargetRecord> {
    const { ctx, target } = await this.served(flagKey, environmentKey);
    if (target.rollout_percentage === percentage) return target;
    return this.acting.services.targets.rollouts.update(
      this.acting.principal,
      ctx,
      target.ulid,
      { rollout_percentage: percentage, ...this.by(options) },
      this.acting.newTrail(),
    );
  }

  /** Completes the rollout in progress: its value serves everyone. */
  async completeRollout(
    flagKey: string,
    environmentKey: string,
    options: Pick<WriteServingOptions, 'confirmation'>,
  ): Promise<TargetRecord> {
    const { ctx, target } = await this.served(flagKey, environmentKey);
    return this.acting.services.targets.rollouts.complete(
      this.acting.principal,
      ctx,
      target.ulid,
      this.by(options),
      this.acting.newTrail(),
    );
  }

  /** Ends the rollout in progress (its value serves everyone), so another can start. */
  async endRollout(flagKey: string, environmentKey: string, options: Pick<WriteServingOptions, 'confirmation'>): Promise<TargetRecord> {
    const { ctx, target } = await this.served(flagKey, environmentKey);
    return this.acting.services.targets.rollouts.delete(this.acting.principal, ctx, target.ulid, this.by(options), this.acting.newTrail());
  }

  /**
   * `serving.rules` (and `serving.prerequisites`) undefined keeps what the draft copied from the
   * served target; a list replaces it.
   */
  async write(
    flagKey: string,
    environmentKey: string,
    serving: Omit<Serving, 'rules' | 'prerequisites'> & { rules?: Serving['rules']; prerequisites?: Serving['prerequisites'] },
    options: WriteServingOptions,
  ): Promise<TargetRecord> {
    const { services, trx, principal, projectKey } = this.acting;
    const ctx = await this.acting.services.lookups.findFlagEnvironment(trx, principal.access, { projectKey, flagKey, environmentKey });
    const values = await this.valueUlids(flagKey);
    const { target } = await services.targets.drafts.create(principal, ctx, this.acting.newTrail());
    const path = { projectKey, flagKey, environmentKey, targetUlid: target.ulid };
    const valueUlid = values.get(serving.value) as string;
    // The draft copied the served split; the file's (or none) replaces it.
    const split = splitInput(serving.split, values);
    if (valueUlid !== target.value_ulid || !sameSplit(split, target.split ?? null))
      await services.targets.drafts.update(principal, ctx, target.ulid, { value_ulid: valueUlid, split }, this.acting.newTrail());
    if (serving.rules !== undefined) {
      for (const rule of await services.rules.list(principal, path, this.acting.newTrail()))
        await services.rules.delete(principal, { ...path, ruleUlid: rule.ulid }, this.acting.newTrail());
      for (const rule of serving.rules) {
        await services.rules.create(
          principal,
          path,
          {
            value_ulid: values.get(rule.value) as string,
            split: splitInput(rule.split, values),
            description: rule.description,
            criteria: rule.criteria as never,
          },
          this.acting.newTrail(),
        );
      }
    }
    if (serving.prerequisites !== undefined) {
      const prerequisites = [];
      for (const p of serving.prerequisites) {
        const required = await this.valueUlids(p.flag);
        prerequisites.push({ flag_key: p.flag, value_ulids: p.values.map((v) => required.get(v) as string) });
      }
      await services.prerequisites.replace(principal, path, { prerequisites }, this.acting.newTrail());
    }
    if (!options.publish) return services.targets.drafts.get(principal, ctx, target.ulid, this.acting.newTrail());
    const rollout = serving.rollout;
    return services.targets.publishing.publish(
      principal,
      ctx,
      target.ulid,
      {
        comment: options.comment ?? null,
        console: principal.type === 'console_session',
        ...(options.confirmation === undefined ? {} : { confirmation: options.confirmation }),
        ...(rollout
          ? {
              rollout_enabled: true,
              rollout_mode: rollout.mode,
              ...(rollout.mode === 'manual' ? { rollout_percentage: rollout.percentage } : {}),
            }
          : {}),
      },
      this.acting.newTrail(),
    );
  }
}
