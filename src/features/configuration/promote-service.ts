import type { ManagementPrincipal } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { FieldErrorList, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { ConfigurationExportService } from './export-service.js';
import { sameServing } from './serving-comparison.js';
import { ServingWriter } from './serving-writer.js';
import { actingContext } from './transactional-services.js';

export interface PromoteInput {
  from: string;
  to: string;
  flags?: string[];
  publish?: boolean;
  comment?: string | null;
  confirmation?: string;
}

export interface PromoteResult {
  promoted: { flag: string; target_ulid: string; status: 'draft' | 'published' }[];
  unchanged: string[];
}

/** What PromoteService is built from. */
export interface PromoteServiceDeps {
  core: CoreDeps;
  /** The request's one transaction (retried on deadlock), over which the feature services are built. */
  tx: Transactor;
  /** Reads the source environment's serving, inside the promote's transaction. */
  exporter: ConfigurationExportService;
}

/**
 * Copies serving configurations from one environment to another as new drafts there, published
 * when asked, in one transaction. Values and segments belong to the flag and the project, so they
 * exist in every environment; what must exist is a published target in `from`.
 */
export class PromoteService {
  constructor(private readonly deps: PromoteServiceDeps) {}

  async promote(principal: ManagementPrincipal, projectKey: string, input: PromoteInput, audit: Auditor): Promise<PromoteResult> {
    if (input.from === input.to)
      throw ValidationError.field('to', 'The to field must name another environment than from.', 'invalid_combination');
    return this.deps.tx.transaction(async (trx) => {
      const current = await this.deps.exporter.export(principal, projectKey, { purpose: 'Promoting between environments', db: trx }, audit);
      // Reading the project described the request as an export; it is a promote, refused or not.
      audit.describe({ action: 'project.promoted' });
      const known = new Set(current.environments.map((e) => e.key));
      for (const key of [input.from, input.to]) if (!known.has(key)) throw new NotFoundError(`Environment "${key}" not found.`);
      const flags = new Map(current.flags.map((f) => [f.key, f]));
      const wanted = input.flags ?? current.flags.filter((f) => f.environments[input.from]).map((f) => f.key);
      const errors = new FieldErrorList();
      wanted.forEach((key, i) => {
        if (!flags.get(key)?.environments[input.from]) {
          errors.add(`flags.${i}`, `The flag "${key}" has no published target in ${input.from}.`, 'reference_not_found');
        }
      });
      errors.check();

      const writer = new ServingWriter(actingContext(trx, this.deps.core, principal, projectKey, audit));
      const result: PromoteResult = { promoted: [], unchanged: [] };
      for (const key of wanted) {
        const environments = flags.get(key)!.environments;
        const source = environments[input.from]!;
        const existing = environments[input.to];
        if (existing && sameServing(existing, source)) {
          result.unchanged.push(key);
          continue;
        }
        const target = await writer.write(
          key,
          input.to,
          { ...source, prerequisites: source.prerequisites ?? [] },
          {
            publish: input.publish === true,
            comment: input.comment ?? null,
            confirmation: input.confirmation,
          },
        );
        result.promoted.push({ flag: key, target_ulid: target.ulid, status: target.status === 'published' ? 'published' : 'draft' });
      }
      return result;
    });
  }
}
