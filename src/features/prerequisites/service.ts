import type { ManagementPrincipal } from '../../auth/principal.js';
import { FieldErrorList, UnprocessableError } from '../../http/errors.js';
import type { ResolvedTarget, TargetPath } from '../rules/store-types.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import type { PrerequisiteEdge, PrerequisiteRecord, PrerequisitesStore } from './store-types.js';

export interface PrerequisitesInput {
  prerequisites: { flag_key: string; value_ulids: string[] }[];
}

/** Whether `start` reaches `goal` along the edges (the flags `start` requires, recursively). */
function reaches(edges: readonly PrerequisiteEdge[], start: string, goal: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const at = stack.pop() as string;
    if (at === goal) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    stack.push(...(next.get(at) ?? []));
  }
  return false;
}

/** What PrerequisitesService is built from. */
export interface PrerequisitesServiceDeps {
  /** The pool, for reads outside a change. */
  db: Db;
  tx: Transactor;
  store: PrerequisitesStore;
}

/**
 * Prerequisites of a target (specs/management.yaml, replaceTargetPrerequisites). Like rules,
 * they change only on a draft (422 otherwise), so no change here alters what is served or bumps
 * a revision; they are published with their target. Cycles are refused against every draft,
 * scheduled and published target of the environment, so no publish can close one.
 */
export class PrerequisitesService {
  constructor(private readonly deps: PrerequisitesServiceDeps) {}

  private subject(resolved: ResolvedTarget, action: string) {
    return {
      action,
      subjectType: 'target',
      subjectUlid: resolved.target.ulid,
      subjectLabel: `${resolved.flag.key}/${resolved.environment.key}`,
      projectUlid: resolved.project.ulid,
      environmentUlid: resolved.environment.ulid,
    };
  }

  async list(principal: ManagementPrincipal, path: TargetPath, audit: Pick<Auditor, 'describe'>): Promise<PrerequisiteRecord[]> {
    const resolved = await this.deps.store.resolveTarget(this.deps.db, principal.access, path);
    audit.describe(this.subject(resolved, 'target.read'));
    return this.deps.store.list(this.deps.db, resolved.target.ulid);
  }

  async replace(principal: ManagementPrincipal, path: TargetPath, body: PrerequisitesInput, audit: Auditor): Promise<PrerequisiteRecord[]> {
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const resolved = await store.resolveTarget(trx, principal.access, path, { lock: true });
      audit.describe(this.subject(resolved, 'target.updated'));
      if (resolved.target.status !== 'draft') {
        throw new UnprocessableError(
          `Prerequisites can only be changed while the target is a draft; target "${resolved.target.ulid}" is ${resolved.target.status}.`,
        );
      }
      const errors = new FieldErrorList();
      const flags = await store.findFlags(
        trx,
        resolved.project.ulid,
        body.prerequisites.map((p) => p.flag_key),
      );
      const edges = await store.edges(trx, resolved.environment.ulid, resolved.target.ulid);
      const seen = new Set<string>();
      const list: PrerequisiteRecord[] = [];
      for (const [i, p] of body.prerequisites.entries()) {
        const field = `prerequisites.${i}.flag_key`;
        const flagUlid = flags.get(p.flag_key);
        if (flagUlid === undefined) {
          errors.add(field, `The ${field} field must be the key of a flag of this project.`, 'reference_not_found');
          continue;
        }
        if (flagUlid === resolved.flag.ulid) {
          errors.add(field, `The ${field} field must name another flag: a flag cannot require itself.`, 'invalid_combination');
          continue;
        }
        if (seen.has(flagUlid)) {
          errors.add(field, `The flag "${p.flag_key}" is listed more than once.`, 'invalid_combination');
          continue;
        }
        seen.add(flagUlid);
        if (reaches(edges, flagUlid, resolved.flag.ulid)) {
          errors.add(
            field,
            `The flag "${p.flag_key}" requires "${resolved.flag.key}" in this environment (through its own prerequisites): a cycle.`,
            'invalid_combination',
          );
          continue;
        }
        const valueUlids = [...new Set(p.value_ulids)];
        const known = await store.valuesOfFlag(trx, flagUlid, valueUlids);
        p.value_ulids.forEach((v, j) => {
          if (!known.has(v)) {
            errors.add(
              `prerequisites.${i}.value_ulids.${j}`,
              `The prerequisites.${i}.value_ulids.${j} field must be the ulid of a value of the flag "${p.flag_key}".`,
              'reference_not_found',
            );
          }
        });
        list.push({ flag_key: p.flag_key, flag_ulid: flagUlid, value_ulids: valueUlids });
      }
      errors.check();
      const before = await store.list(trx, resolved.target.ulid);
      await store.replace(trx, resolved.target.ulid, list);
      await audit.commit(trx, {
        ...this.subject(resolved, 'target.updated'),
        changes: { before: { prerequisites: before }, after: { prerequisites: list } },
      });
      return list;
    });
  }
}
