import type { Knex } from 'knex';
import type { AuditTrail, AuditWriter } from '../../audit/audit-trail.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { UnprocessableError } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { findFlagEnvironment } from '../shared/lookup.js';
import type { TargetRecord } from '../targets/store-types.js';
import { ServingWriter } from './serving-writer.js';
import { servingOfTarget } from './target-serving.js';
import { actingContext } from './transactional-services.js';

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
  constructor(
    private readonly core: CoreDeps,
    private readonly auditWriter: AuditWriter,
  ) {}

  async restore(principal: ManagementPrincipal, path: TargetPath, input: RestoreInput, audit: AuditTrail): Promise<TargetRecord> {
    return inTransaction(this.core.knex, async (trx) => {
      const { project, flag, environment } = await findFlagEnvironment(trx, principal.access, path);
      audit.describe({
        action: 'target.restored',
        subjectType: 'flag',
        subjectUlid: flag.ulid,
        subjectLabel: `${flag.key}/${environment.key}`,
        projectUlid: project.ulid,
        environmentUlid: environment.ulid,
      });
      const acting = actingContext(trx, this.core, this.auditWriter, principal, path.projectKey, audit);
      const ctx = { project, flag, environment };
      const earlier = await acting.services.targets.drafts.get(ctx, path.targetUlid);
      if (earlier.status !== 'published' && earlier.status !== 'expired') {
        throw new UnprocessableError(`Only a published or expired target can be restored; this one is ${earlier.status}.`);
      }
      return restoreWith(trx, new ServingWriter(acting), flag.key, environment.key, earlier, input);
    });
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
  return writer.write(flagKey, environmentKey, serving, {
    publish: true,
    comment: input.comment ?? null,
    confirmation: input.confirmation,
  });
}
