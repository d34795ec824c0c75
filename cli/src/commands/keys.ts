import { call } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { clientFor, requireOption, requireProject } from '../context-helpers.js';
import { UsageError } from '../errors.js';
import { printJson, printRecord } from '../output.js';

const kinds = ['server', 'mobile', 'client'] as const;

export const keysCreate: Command = {
  words: ['keys', 'create'],
  summary: 'Create an environment key (the secret is shown once)',
  usage: 'vexil keys create --project KEY --env ENV --kind server|mobile|client [--name NAME] [--json]',
  options: {
    ...connectionOptions,
    ...projectOption,
    env: { type: 'string', short: 'e' },
    kind: { type: 'string' },
    name: { type: 'string' },
  },
  async run(context) {
    const client = clientFor(context);
    const projectKey = requireProject(context);
    const environmentKey = requireOption(context, 'env', 'VEXIL_ENV');
    const kind = requireOption(context, 'kind');
    if (!(kinds as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${kinds.join(', ')}.`);
    const name = stringOption(context.options, 'name');
    const created = (
      await call(
        client.POST('/projects/{projectKey}/environments/{environmentKey}/keys', {
          params: { path: { projectKey, environmentKey } },
          body: { kind: kind as (typeof kinds)[number], ...(name === undefined ? {} : { name }) },
        }),
      )
    ).data;
    if (context.out.json) return printJson(context.out, created);
    printRecord(context.out, [
      ['ulid', created.ulid],
      ['kind', created.kind],
      ['name', created.name],
      ['key', created.key],
    ]);
    context.out.write('The key is shown only this once; store it now.\n');
  },
};
