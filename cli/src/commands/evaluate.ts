import { call } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { clientFor, requireArgument, requireOption, requireProject } from '../context-helpers.js';
import { UsageError } from '../errors.js';
import { printJson, printRecord } from '../output.js';
import type { components } from '../../../generated/management.js';

type EvaluationContext = components['schemas']['EvaluationContext'];
type EvaluationSplit = NonNullable<components['schemas']['EvaluationSplit']>;

/** Which split chose the value and its share: `rule 0: blue, 33.5 %` or `base: blue, 50 %`. */
export function describeSplit(split: EvaluationSplit): string {
  return `${split.rule === null ? 'base' : `rule ${split.rule}`}: ${split.variant}, ${split.weight / 1000} %`;
}

/** What `resolved by: prerequisite` means, said where a person reads it. */
const PREREQUISITE_FAILED = "a prerequisite flag did not serve a required value, so the flag's default value is served";

function parseContext(text: string | undefined): EvaluationContext | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as EvaluationContext;
  } catch {
    throw new UsageError('--context must be a JSON document, e.g. \'{"type":"user","identifier":"u-42"}\'.');
  }
}

export const evaluate: Command = {
  words: ['evaluate'],
  summary: 'Evaluate a flag in an environment for a context, as the public API would',
  usage: 'vexil evaluate FLAG_KEY --project KEY --env ENV [--context \'{"type":"user","identifier":"u-42"}\'] [--json]',
  options: { ...connectionOptions, ...projectOption, env: { type: 'string', short: 'e' }, context: { type: 'string', short: 'c' } },
  async run(context) {
    const client = clientFor(context);
    const projectKey = requireProject(context);
    const environmentKey = requireOption(context, 'env', 'VEXIL_ENV');
    const flagKey = requireArgument(context, 0, 'FLAG_KEY');
    const evaluationContext = parseContext(stringOption(context.options, 'context'));
    const result = (
      await call(
        client.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/evaluate', {
          // The document sends `context` as one JSON-encoded query value.
          params: {
            path: { projectKey, flagKey, environmentKey },
            query: { context: evaluationContext === undefined ? undefined : JSON.stringify(evaluationContext) },
          },
        }),
      )
    ).data;
    if (context.out.json) return printJson(context.out, result);
    printRecord(context.out, [
      ['flag', result.key],
      ['value', result.value],
      ['resolved by', result.resolved_by === 'prerequisite' ? `prerequisite (${PREREQUISITE_FAILED})` : result.resolved_by],
      ...(result.split ? [['split', describeSplit(result.split)] as [string, unknown]] : []),
    ]);
  },
};
