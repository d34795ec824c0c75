import fs from 'node:fs';
import { apiError, reach } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { clientFor, requireProject } from '../context-helpers.js';
import { UsageError } from '../errors.js';
import { withProgress } from '../progress.js';

export const exportProject: Command = {
  words: ['export'],
  summary: "Write a project's configuration as a YAML (or JSON) file for flags as code",
  usage: 'vexil export --project KEY [--environments a,b] [--format yaml|json] [--output FILE]',
  options: {
    ...connectionOptions,
    ...projectOption,
    environments: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  async run(context) {
    const client = clientFor(context);
    const projectKey = requireProject(context);
    const format = stringOption(context.options, 'format') ?? (context.out.json ? 'json' : 'yaml');
    if (format !== 'yaml' && format !== 'json') throw new UsageError('--format must be yaml or json.');
    const environments = stringOption(context.options, 'environments');
    const result = await withProgress(context.out.status, `Exporting project ${projectKey}`, () =>
      reach(
        client.GET('/projects/{projectKey}/configuration', {
          params: { path: { projectKey }, query: { format, ...(environments ? { environments } : {}) } },
          // The file is written exactly as the server produced it, so two exports compare byte for byte.
          parseAs: 'text',
        }),
      ),
    );
    if (!result.response.ok) throw apiError(result.response.status, result.error);
    const text = String(result.data);
    const output = stringOption(context.options, 'output');
    if (output === undefined) return context.out.write(text);
    fs.writeFileSync(output, text);
    process.stderr.write(`Wrote ${output}\n`);
  },
};
