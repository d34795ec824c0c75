import { call } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { clientFor, requireArgument } from '../context-helpers.js';
import { CliError } from '../errors.js';
import { printJson } from '../output.js';
import { withProgress } from '../progress.js';
import { printPlan, readConfigurationFile } from './plan.js';

export const apply: Command = {
  words: ['apply'],
  summary: 'Apply a configuration file: make exactly the changes `vexil plan` lists, all or none',
  usage: 'vexil apply FILE [--project KEY] [--prune] [--comment TEXT] [--json]',
  options: { ...connectionOptions, ...projectOption, prune: { type: 'boolean' }, comment: { type: 'string' } },
  async run(context) {
    const file = requireArgument(context, 0, 'FILE');
    const configuration = readConfigurationFile(file);
    const projectKey = stringOption(context.options, 'project') ?? configuration.project?.key;
    if (!projectKey) throw new CliError(`${file} names no project (project.key), and --project is not given.`);
    const comment = stringOption(context.options, 'comment');
    const client = clientFor(context);
    const result = (
      await withProgress(context.out.status, `Applying ${file} to project ${projectKey}`, () =>
        call(
          client.POST('/projects/{projectKey}/configuration/apply', {
            params: {
              path: { projectKey },
              query: { prune: context.options.prune === true, ...(comment === undefined ? {} : { comment }) },
            },
            body: configuration,
          }),
        ),
      )
    ).data;
    if (context.out.json) return printJson(context.out, result);
    printPlan(context.out, result.changes);
    const { create, update, delete: deleted, publish } = result.summary;
    if (result.changes.length > 0)
      context.out.write(`\nApplied: ${create} created, ${update} updated, ${deleted} deleted, ${publish} published.\n`);
  },
};
