import { call, collectPages } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { clientFor, requireArgument, requireProject } from '../context-helpers.js';
import { UsageError } from '../errors.js';
import { printJson, printRecord, printTable } from '../output.js';

const flagTypes = ['boolean', 'number', 'string', 'json'] as const;
type FlagType = (typeof flagTypes)[number];

function flagType(value: string | undefined): FlagType | undefined {
  if (value === undefined) return undefined;
  if (!(flagTypes as readonly string[]).includes(value)) throw new UsageError(`--type must be one of ${flagTypes.join(', ')}.`);
  return value as FlagType;
}

export const flagsList: Command = {
  words: ['flags', 'list'],
  summary: "List a project's flags (all pages)",
  usage: 'vexil flags list --project KEY [--type boolean|number|string|json] [--search TEXT] [--json]',
  options: { ...connectionOptions, ...projectOption, type: { type: 'string' }, search: { type: 'string' } },
  async run(context) {
    const client = clientFor(context);
    const projectKey = requireProject(context);
    const type = flagType(stringOption(context.options, 'type'));
    const search = stringOption(context.options, 'search');
    const flags = await collectPages((cursor) =>
      call(
        client.GET('/projects/{projectKey}/flags', { params: { path: { projectKey }, query: { per_page: 100, cursor, type, search } } }),
      ),
    );
    if (context.out.json) return printJson(context.out, flags);
    printTable(
      context.out,
      ['key', 'type', 'name', 'permanent'],
      flags.map((f) => [f.key, f.type, f.name, f.permanent ? 'yes' : 'no']),
    );
  },
};

export const flagsGet: Command = {
  words: ['flags', 'get'],
  summary: 'Show one flag and its values',
  usage: 'vexil flags get FLAG_KEY --project KEY [--json]',
  options: { ...connectionOptions, ...projectOption },
  async run(context) {
    const client = clientFor(context);
    const projectKey = requireProject(context);
    const flagKey = requireArgument(context, 0, 'FLAG_KEY');
    const path = { projectKey, flagKey };
    const flag = (await call(client.GET('/projects/{projectKey}/flags/{flagKey}', { params: { path } }))).data;
    const values = (await call(client.GET('/projects/{projectKey}/flags/{flagKey}/values', { params: { path } }))).data;
    if (context.out.json) return printJson(context.out, { ...flag, values });
    printRecord(context.out, [
      ['key', flag.key],
      ['name', flag.name],
      ['type', flag.type],
      ['description', flag.description],
      ['permanent', flag.permanent ? 'yes' : 'no'],
      ['mobile', flag.include_in_mobile ? 'yes' : 'no'],
      ['client', flag.include_in_client ? 'yes' : 'no'],
    ]);
    context.out.write('\n');
    printTable(
      context.out,
      ['value', 'default', 'ulid'],
      values.map((v) => [v.display, v.default ? 'yes' : '', v.ulid]),
    );
  },
};
