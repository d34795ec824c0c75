import type { ManagementPrincipal } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { ValidationError } from '../../http/errors.js';
import { DisplayError, normaliseDisplay } from '../flag-values/display.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { TargetRecord } from '../targets/store-types.js';
import { ServingWriter } from './serving-writer.js';
import { actingContext } from './transactional-services.js';

export interface ServeInput {
  value: string;
  comment?: string | null;
  drop_rules?: boolean;
  confirmation?: string;
}

/** What ServeService is built from. */
export interface ServeServiceDeps {
  core: CoreDeps;
  /** The request's one transaction (retried on deadlock), over which the feature services are built. */
  tx: Transactor;
}

/** The kill switch: draft and publish a flag's base value in one request, rules kept unless dropped. */
export class ServeService {
  constructor(private readonly deps: ServeServiceDeps) {}

  async serve(
    principal: ManagementPrincipal,
    path: { projectKey: string; flagKey: string; environmentKey: string },
    input: ServeInput,
    audit: Auditor,
  ): Promise<TargetRecord> {
    return this.deps.tx.transaction(async (trx) => {
      const acting = actingContext(trx, this.deps.core, principal, path.projectKey, audit);
      const { project, flag, environment } = await acting.services.lookups.findFlagEnvironment(trx, principal.access, path);
      audit.describe({
        action: 'target.served',
        subjectType: 'flag',
        subjectUlid: flag.ulid,
        subjectLabel: `${flag.key}/${environment.key}`,
        projectUlid: project.ulid,
        environmentUlid: environment.ulid,
      });
      const writer = new ServingWriter(acting);
      const displays = await writer.valueUlids(flag.key);
      const display = [...displays].find(([, ulid]) => ulid === input.value)?.[0] ?? this.normalised(flag.type, input.value);
      if (!displays.has(display))
        throw ValidationError.field('value', `The flag "${flag.key}" has no value ${input.value}.`, 'reference_not_found');
      return writer.write(
        flag.key,
        environment.key,
        { value: display, rollout: null, ...(input.drop_rules ? { rules: [] } : {}) },
        { publish: true, comment: input.comment ?? null, confirmation: input.confirmation },
      );
    });
  }

  private normalised(type: Parameters<typeof normaliseDisplay>[0], value: string): string {
    try {
      return normaliseDisplay(type, value).display;
    } catch (error) {
      if (error instanceof DisplayError) throw ValidationError.field('value', error.message, 'value_type_mismatch');
      throw error;
    }
  }
}
