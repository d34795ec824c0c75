import type { Knex } from 'knex';
import type { AuditSubject } from '../../audit/audit-trail.js';
import type { Auditor } from '../shared/transactions.js';
import { reload } from './locked-target.js';
import type { TargetRecord, TargetStore } from './store-types.js';
import type { FlagEnvironment } from './types.js';
import { targetView } from './view.js';

/** A target change as the audit log and webhooks record it: API forms, and the publish comment. */
export interface TargetChanges {
  before?: TargetRecord;
  after?: TargetRecord;
  comment?: string | null;
}

function aboutTarget(ctx: FlagEnvironment, action: string, targetUlid: string): AuditSubject {
  return {
    action,
    subjectType: 'target',
    subjectUlid: targetUlid,
    subjectLabel: `${ctx.flag.key}/${ctx.environment.key}`,
    projectUlid: ctx.project.ulid,
    environmentUlid: ctx.environment.ulid,
  };
}

/** The audit subject of a change to a target, its before and after in the API's form (`targetView`). */
export function changeSubject(
  ctx: FlagEnvironment,
  action: string,
  targetUlid: string,
  changes: TargetChanges,
  rolloutStepMs: number,
): AuditSubject {
  const view = (t: TargetRecord) => targetView(t, rolloutStepMs);
  return {
    changes: {
      ...(changes.before ? { before: view(changes.before) } : {}),
      ...(changes.after ? { after: view(changes.after) } : {}),
      ...(changes.comment !== undefined ? { comment: changes.comment } : {}),
    },
    ...aboutTarget(ctx, action, targetUlid),
  };
}

/** The audit subject a request describes before it acts: the flag for a list or a create, else the target. */
export function readSubject(ctx: FlagEnvironment, action: string, targetUlid?: string): AuditSubject {
  if (targetUlid !== undefined) return aboutTarget(ctx, action, targetUlid);
  return {
    action,
    subjectType: 'flag',
    subjectUlid: ctx.flag.ulid,
    subjectLabel: ctx.flag.key,
    projectUlid: ctx.project.ulid,
    environmentUlid: ctx.environment.ulid,
  };
}

/** Reads the changed target again and commits the change's audit entry (before and after) with it. */
export async function reloadAndAudit(
  store: TargetStore,
  trx: Knex.Transaction,
  ctx: FlagEnvironment,
  action: string,
  before: TargetRecord,
  audit: Pick<Auditor, 'commit'>,
  rolloutStepMs: number,
): Promise<TargetRecord> {
  const after = await reload(store, trx, before);
  await audit.commit(trx, changeSubject(ctx, action, before.ulid, { before, after }, rolloutStepMs));
  return after;
}
