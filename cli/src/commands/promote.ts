import { call } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { clientFor, requireArgument, requireOption, requireProject } from '../context-helpers.js';
import { printJson, printRecord, printTable } from '../output.js';
import { withProgress } from '../progress.js';

export const promote: Command = {
  words: ['promote'],
  summary: 'Copy what flags serve in one environment to another, as drafts or published',
  usage: 'vexil promote --project KEY --from ENV --to ENV [--flags a,b] [--publish] [--comment TEXT] [--json]',
  options: {
    ...connectionOptions,
    ...projectOption,
    from: { type: 'string' },
    to: { type: 'string' },
    flags: { type: 'string' },
    publish: { type: 'boolean' },
    comment: { type: 'string' },
  },
  async run(context) {
    const projectKey = requireProject(context);
    const flags = stringOption(context.options, 'flags')?.split(',').filter(Boolean);
    const comment = stringOption(context.options, 'comment');
    const from = requireOption(context, 'from');
    const to = requireOption(context, 'to');
    const client = clientFor(context);
    const result = (
      await withProgress(context.out.status, `Promoting ${from} to ${to} in project ${projectKey}`, () =>
        call(
          client.POST('/projects/{projectKey}/configuration/promote', {
            params: { path: { projectKey } },
            body: {
              from,
              to,
              publish: context.options.publish === true,
              ...(flags ? { flags } : {}),
              ...(comment === undefined ? {} : { comment }),
            },
          }),
        ),
      )
    ).data;
    if (context.out.json) return printJson(context.out, result);
    printTable(
      context.out,
      ['flag', 'status', 'target'],
      result.promoted.map((p) => [p.flag, p.status, p.target_ulid]),
    );
    if (result.unchanged.length > 0) context.out.write(`Already the same: ${result.unchanged.join(', ')}\n`);
  },
};

export const flagsServe: Command = {
  words: ['flags', 'serve'],
  summary: 'Serve a value of a flag in an environment now (draft and publish in one call)',
  usage: 'vexil flags serve FLAG_KEY VALUE --project KEY --env ENV [--comment TEXT] [--drop-rules] [--json]',
  options: {
    ...connectionOptions,
    ...projectOption,
    env: { type: 'string', short: 'e' },
    comment: { type: 'string' },
    'drop-rules': { type: 'boolean' },
  },
  async run(context) {
    const projectKey = requireProject(context);
    const environmentKey = requireOption(context, 'env', 'VEXIL_ENV');
    const flagKey = requireArgument(context, 0, 'FLAG_KEY');
    const value = requireArgument(context, 1, 'VALUE');
    const comment = stringOption(context.options, 'comment');
    const target = (
      await call(
        clientFor(context).POST('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/serve', {
          params: { path: { projectKey, flagKey, environmentKey } },
          body: { value, drop_rules: context.options['drop-rules'] === true, ...(comment === undefined ? {} : { comment }) },
        }),
      )
    ).data;
    if (context.out.json) return printJson(context.out, target);
    printRecord(context.out, [
      ['flag', flagKey],
      ['environment', environmentKey],
      ['serving', value],
      ['target', target.ulid],
      ['status', target.status],
    ]);
  },
};
