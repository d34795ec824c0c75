import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { AuditTrail, newAuditRequest } from '../../audit/audit-trail.js';
import { ResourceAccess, type ManagementPrincipal } from '../../auth/principal.js';
import type { Composition } from '../../composition-root.js';
import { DomainError, ValidationError } from '../../http/errors.js';
import { repoRoot } from '../../http/openapi/document.js';
import { fieldErrors } from '../../http/openapi/validators.js';
import { StartupError } from '../../startup-error.js';
import { KnexStartupStore } from '../accounts/startup-store.js';
import { knexLookups } from '../shared/lookup-store.js';
import { buildConfigurationServices } from './index.js';
import type { ProjectConfiguration } from './plan.js';

const startup = new KnexStartupStore();

/** The oldest owner account, acting with an owner's personal access token's rights. */
async function ownerPrincipal(composition: Composition): Promise<ManagementPrincipal> {
  const owner = await startup.oldestOwner(composition.core.knex);
  // First start (bootstrap.ts) made the owner and their token before the import runs.
  if (!owner) throw new Error('VEXIL_IMPORT_FILE: no owner account with a personal access token to import as.');
  const { account, token } = owner;
  return {
    type: 'personal_access_token',
    tokenUlid: token.ulid,
    tokenName: token.name,
    account,
    scopes: null,
    tier: 'unlimited',
    access: ResourceAccess.unrestricted(),
  };
}

/**
 * A file holds no secrets, so the environments it creates have no keys: say how to make them
 * (keys are shown once, by whoever creates them).
 */
function keysHint(file: string, configuration: ProjectConfiguration): string {
  const project = configuration.project.key;
  const lines = [
    '',
    `Vexil imported project "${project}" from ${file}. Its environments have no keys yet; create one per environment and kind:`,
    ...configuration.environments.map((e) => `  vexil keys create --project ${project} --env ${e.key} --kind server`),
    `  (or POST /management/v1/projects/${project}/environments/{environment}/keys with {"kind": "server"}, "mobile" or "client")`,
    '',
  ];
  return lines.join('\n') + '\n';
}

function projectCount(composition: Composition): Promise<number> {
  return startup.projectCount(composition.core.knex);
}

/**
 * VEXIL_IMPORT_FILE: on a database without any project (first start, or a start after a failed
 * import, which wrote nothing), applies the file (YAML or JSON) as the owner, exactly as
 * `POST .../configuration/apply` would, so an instance comes up with a known project. Once the
 * database has a project the file is not read, so a project people deleted or changed stays as
 * they left it across restarts. A file that cannot be read or applied stops the start with one
 * line and writes nothing.
 */
export async function importConfigurationFile(
  composition: Composition,
  file: string,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<void> {
  const { core, auditWriter } = composition;
  const projects = await projectCount(composition);
  if (projects > 0) {
    core.logger.info({ file, projects }, 'VEXIL_IMPORT_FILE: the database has projects already; the file is not applied');
    return;
  }
  let configuration: ProjectConfiguration;
  try {
    configuration = YAML.parse(fs.readFileSync(file, 'utf8')) as ProjectConfiguration;
  } catch (error) {
    throw new StartupError(`VEXIL_IMPORT_FILE: cannot read ${file}: ${(error as Error).message}`);
  }
  // The published JSON Schema of the format: a file the API would refuse is refused here too.
  const schema = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'specs', 'project-configuration.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  if (!validate(configuration)) {
    const fields = Object.entries(fieldErrors(validate.errors ?? [])).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    throw new StartupError(`VEXIL_IMPORT_FILE: ${file} is not a valid project configuration: ${fields.join('; ')}`);
  }
  const projectKey = configuration.project.key;
  const { applier } = buildConfigurationServices({ ...core, lookups: knexLookups });
  const principal = await ownerPrincipal(composition);
  const audit = new AuditTrail(
    auditWriter,
    principal,
    'POST',
    `/management/v1/projects/${projectKey}/configuration/apply`,
    newAuditRequest('project.applied'),
  );
  try {
    const plan = await applier.apply(principal, projectKey, configuration, { prune: false, comment: `Imported from ${file}` }, audit);
    core.logger.info({ file, project: projectKey, ...plan.summary }, 'imported the configuration file');
    write(keysHint(file, configuration));
  } catch (error) {
    // Instances started together on an empty database all try; the first commits, the others
    // find its project (the key taken) and start on what it wrote. A failed apply wrote nothing.
    if ((await projectCount(composition)) > 0) {
      core.logger.info(
        { file, project: projectKey },
        'VEXIL_IMPORT_FILE: another instance applied the file first; it is not applied again',
      );
      return;
    }
    if (error instanceof ValidationError) {
      const fields = Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
      throw new StartupError(`VEXIL_IMPORT_FILE: ${file} cannot be applied: ${fields.join('; ')}`);
    }
    if (error instanceof DomainError) throw new StartupError(`VEXIL_IMPORT_FILE: ${file} cannot be applied: ${error.message}`);
    throw error;
  }
}
