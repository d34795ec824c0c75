import fs from 'node:fs';
import YAML from 'yaml';
import { call } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { clientFor, requireArgument } from '../context-helpers.js';
import { CliError } from '../errors.js';
import { cutText } from '../compact.js';
import { printable, printJson, type Output } from '../output.js';
import { changeDetails, type DetailLine } from '../plan-diff.js';
import { withProgress } from '../progress.js';
import type { components } from '../../../generated/management.js';

type ProjectConfiguration = components['schemas']['ProjectConfiguration'];
type ConfigurationChange = components['schemas']['ConfigurationChange'];
type ConfigurationRefusal = components['schemas']['ConfigurationRefusal'];

/** A configuration file, YAML or JSON (JSON is YAML too). */
export function readConfigurationFile(file: string): ProjectConfiguration {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return YAML.parse(text) as ProjectConfiguration;
  } catch (error) {
    throw new CliError(`${file} is not valid YAML or JSON: ${(error as Error).message}`);
  }
}

const signs: Record<ConfigurationChange['action'], string> = { create: '+', update: '~', delete: '-', publish: '>' };
const colours: Record<ConfigurationChange['action'] | DetailLine['sign'], number> = {
  create: 32,
  update: 33,
  delete: 31,
  publish: 36,
  '+': 32,
  '-': 31,
  '~': 33,
};

function headline(change: ConfigurationChange): string {
  const what = change.kind === 'flag_value' ? `flag_value ${change.key} = ${cutText(change.value ?? '')}` : `${change.kind} ${change.key}`;
  const where = change.environment ? ` in ${change.environment}` : '';
  return `${signs[change.action]} ${change.action} ${what}${where}`;
}

/** Each change on its line, then what it changes (old -> new), indented; coloured on a terminal. */
export function printPlan(out: Output, changes: ConfigurationChange[]): void {
  if (changes.length === 0) {
    out.write('No changes: the project matches the file.\n');
    return;
  }
  const line = (text: string, colour: number) => {
    const safe = printable(text);
    out.write((out.colour ? `\u001b[${colour}m${safe}\u001b[39m` : safe) + '\n');
  };
  for (const change of changes) {
    line(headline(change), colours[change.action]);
    for (const detail of changeDetails(change)) line(`    ${detail.sign} ${detail.text}`, colours[detail.sign]);
  }
}

/** What apply would refuse, each with how to give what is missing; nothing when it would apply. */
export function printRefusals(out: Output, refusals: ConfigurationRefusal[]): void {
  if (refusals.length === 0) return;
  out.write(`\nApply would refuse this file (${refusals.length}):\n`);
  for (const refusal of refusals) {
    out.write(
      printable(`  ! ${refusal.code} in ${refusal.environment}${refusal.flag ? ` (${refusal.flag})` : ''}: ${refusal.message}`) + '\n',
    );
    out.write(printable(`    ${refusal.remedy}`) + '\n');
  }
}

export const plan: Command = {
  words: ['plan'],
  summary: 'Show what applying a configuration file would change (exit code 2 when it would change something)',
  usage: 'vexil plan FILE [--project KEY] [--prune] [--comment TEXT] [--json]',
  options: { ...connectionOptions, ...projectOption, prune: { type: 'boolean' }, comment: { type: 'string' } },
  async run(context) {
    const file = requireArgument(context, 0, 'FILE');
    const configuration = readConfigurationFile(file);
    const projectKey = stringOption(context.options, 'project') ?? configuration.project?.key;
    if (!projectKey) throw new CliError(`${file} names no project (project.key), and --project is not given.`);
    const comment = stringOption(context.options, 'comment');
    const client = clientFor(context);
    const result = (
      await withProgress(context.out.status, `Planning ${file} against project ${projectKey}`, () =>
        call(
          client.POST('/projects/{projectKey}/configuration/plan', {
            params: {
              path: { projectKey },
              query: { prune: context.options.prune === true, ...(comment === undefined ? {} : { comment }) },
            },
            body: configuration,
          }),
        ),
      )
    ).data;
    if (context.out.json) printJson(context.out, result);
    else {
      printPlan(context.out, result.changes);
      const { create, update, delete: deleted, publish } = result.summary;
      if (result.changes.length > 0)
        context.out.write(`\n${create} to create, ${update} to update, ${deleted} to delete, ${publish} to publish.\n`);
      printRefusals(context.out, result.refusals);
    }
    return result.changes.length > 0 ? 2 : 0;
  },
};
