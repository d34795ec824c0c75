import { call } from '../api.js';
import { connectionOptions, stringOption, type Command } from '../command.js';
import { clientFor, requireOption } from '../context-helpers.js';
import { UsageError } from '../errors.js';
import { printJson, printRecord } from '../output.js';
import type { components } from '../../../generated/management.js';

type TokenCreate = components['schemas']['ManagementTokenCreate'];

function list(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `--environments shop/production,shop/staging` as grant objects. */
function environmentGrants(text: string | undefined): { project: string; environment: string }[] {
  return list(text).map((pair) => {
    const [project, environment, extra] = pair.split('/');
    if (!project || !environment || extra !== undefined)
      throw new UsageError(`--environments takes PROJECT/ENVIRONMENT pairs, not "${pair}".`);
    return { project, environment };
  });
}

export const tokensCreate: Command = {
  words: ['tokens', 'create'],
  summary: 'Create a management token (the secret is shown once; needs a personal access token)',
  usage:
    'vexil tokens create --name NAME --scopes flags:read,targets:write [--tier standard|elevated|unlimited] [--projects a,b] [--environments shop/production] [--expires-at ISO] [--json]',
  options: {
    ...connectionOptions,
    name: { type: 'string' },
    scopes: { type: 'string' },
    tier: { type: 'string' },
    projects: { type: 'string' },
    environments: { type: 'string' },
    'expires-at': { type: 'string' },
  },
  async run(context) {
    const client = clientFor(context);
    const body: TokenCreate = {
      name: requireOption(context, 'name'),
      scopes: list(requireOption(context, 'scopes')) as TokenCreate['scopes'],
      tier: (stringOption(context.options, 'tier') ?? 'standard') as TokenCreate['tier'],
    };
    const projects = list(stringOption(context.options, 'projects'));
    const environments = environmentGrants(stringOption(context.options, 'environments'));
    if (projects.length > 0 || environments.length > 0) body.grants = { projects, environments };
    const expiresAt = stringOption(context.options, 'expires-at');
    if (expiresAt !== undefined) body.expires_at = expiresAt;
    // Scope and tier names are checked by the API, which answers with the allowed values.
    const created = (await call(client.POST('/tokens', { body }))).data;
    if (context.out.json) return printJson(context.out, created);
    printRecord(context.out, [
      ['ulid', created.ulid],
      ['name', created.name],
      ['scopes', created.scopes.join(', ')],
      ['tier', created.tier],
      ['expires', created.expires_at ?? 'never'],
      ['token', created.token],
    ]);
    context.out.write('The token is shown only this once; store it now.\n');
  },
};
