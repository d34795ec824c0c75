import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../../auth/principal.js';
import { UnprocessableError } from '../../http/errors.js';
import type { Auditor } from '../shared/transactions.js';
import type { TargetRecord } from '../targets/store-types.js';
import { changeFlagEnvironment, type FlagEnvironmentChangeDeps } from './flag-environment-change.js';
import { ServingWriter } from './serving-writer.js';
import { servingOfTarget } from './target-serving.js';

export interface RestoreInput {
  comment?: string | null;
  confirmation?: string;
}

type TargetPath = { projectKey: string; flagKey: string; environmentKey: string; targetUlid: string };

/**
 * Publishes an earlier publish again: a new target with its base value and rules, through the
 * normal draft and publish path (comment and confirmation rules included), in one transaction.
 */
export class RestoreService {
  constructor(private readonly deps: FlagEnvironmentChangeDeps) {}

  async restore(principal: ManagementPrincipal, path: TargetPath, input: RestoreInput, audit: Auditor): Promise<TargetRecord> {
    return changeFlagEnvironment(
      this.deps,
      principal,
      path,
      audit,
      'target.restored',
      input.comment,
      async ({ trx, project, flag, environment, acting }) => {
        const earlier = await acting.services.targets.drafts.get(
          principal,
          { project, flag, environment },
          path.targetUlid,
          acting.newTrail(),
        );
        if (earlier.status !== 'published' && earlier.status !== 'expired') {
          throw new UnprocessableError(`Only a published or expired target can be restored; this one is ${earlier.status}.`);
        }
        return restoreWith(trx, new ServingWriter(acting), flag.key, environment.key, earlier, input);
      },
    );
  }
}

/** Writes and publishes a copy of what `earlier` served (shared with the switch). */
export async function restoreWith(
  trx: Knex.Transaction,
  writer: ServingWriter,
  flagKey: string,
  environmentKey: string,
  earlier: TargetRecord,
  input: RestoreInput,
): Promise<TargetRecord> {
  const serving = await servingOfTarget(trx, earlier);
  // None listed means none: the draft would otherwise keep the prerequisites served now.
  return writer.write(
    flagKey,
    environmentKey,
    { ...serving, prerequisites: serving.prerequisites ?? [] },
    {
      publish: true,
      comment: input.comment ?? null,
      confirmation: input.confirmation,
    },
  );
}
