import type { Knex } from 'knex';
import { AuditTrail, AuditWriter, newAuditRequest } from '../../audit/audit-trail.js';
import { ResourceAccess, type ManagementPrincipal } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { buildConfigurationServices } from '../configuration/index.js';
import { knexLookups } from '../shared/lookup-store.js';
import type { ProjectConfiguration } from '../configuration/plan.js';
import type { Environment } from '../environments/store-types.js';

/**
 * The flags of the demo project, the ones the README's examples use: `new-checkout`, a boolean
 * kill switch (on in development, rolling out to a quarter of the users in production), and
 * `hero-banner`, a string whose rule shows the sale to users on the pro plan.
 */
function demoFlags(): ProjectConfiguration['flags'] {
  const proPlan = { selector: 'attribute' as const, sub_selector: 'plan', comparer: 'in' as const, values: ['pro'] };
  return [
    {
      key: 'hero-banner',
      name: 'Hero banner',
      type: 'string',
      description: 'The line above the shop; the sale for users on the pro plan',
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      values: [
        { value: 'Welcome', default: true },
        { value: 'Spring sale', default: false },
      ],
      environments: {
        development: { value: 'Spring sale', rules: [], rollout: null },
        production: { value: 'Welcome', rules: [{ description: 'Pro plan', value: 'Spring sale', criteria: [proPlan] }], rollout: null },
      },
    },
    {
      key: 'new-checkout',
      name: 'New checkout',
      type: 'boolean',
      description: 'The one-page checkout; serve false to switch it off at once',
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      values: [
        { value: 'true', default: false },
        { value: 'false', default: true },
      ],
      environments: {
        development: { value: 'true', rules: [], rollout: null },
        production: { value: 'true', rules: [], rollout: { mode: 'manual', percentage: 25, status: 'active' } },
      },
    },
  ];
}

/**
 * Gives the demo project its flags inside the first start's transaction, through flags as code
 * (the same rules and audit entries as an apply by the owner).
 */
export async function addDemoFlags(
  trx: Knex.Transaction,
  core: CoreDeps,
  owner: { ulid: string; name: string; email: string; role: string },
  token: { ulid: string; name: string },
  project: { key: string; name: string; description: string | null },
  environments: Environment[],
): Promise<void> {
  const over: CoreDeps = { ...core, knex: trx };
  const writer = new AuditWriter(core.clock);
  const principal: ManagementPrincipal = {
    type: 'personal_access_token',
    tokenUlid: token.ulid,
    tokenName: token.name,
    account: owner,
    scopes: null,
    tier: 'unlimited',
    access: ResourceAccess.unrestricted(),
  } as ManagementPrincipal;
  const configuration: ProjectConfiguration = {
    version: 1,
    project: { key: project.key, name: project.name, description: project.description ?? '' },
    environments: environments.map((e) => ({
      key: e.key,
      name: e.name,
      description: e.description,
      color: e.color,
      comments_required: e.comments_required,
      confirmation_required: e.confirmation_required,
    })),
    segments: [],
    flags: demoFlags(),
  };
  const { applier } = buildConfigurationServices({ ...over, lookups: knexLookups });
  const audit = new AuditTrail(
    writer,
    principal,
    'POST',
    `/management/v1/projects/${project.key}/configuration/apply`,
    newAuditRequest('project.applied'),
  );
  await applier.apply(principal, project.key, configuration, { prune: false, comment: 'Demo flags of the first start' }, audit);
}
