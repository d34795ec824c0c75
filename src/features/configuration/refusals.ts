import type { components } from '../../../generated/management.js';
import { UnprocessableError, ValidationError } from '../../http/errors.js';
import { messages } from '../targets/state-rules.js';
import type { ConfigurationChange, ProjectConfiguration } from './plan.js';
import { servingStep } from './rollout-change.js';

type ConfigurationRefusal = components['schemas']['ConfigurationRefusal'];
type Serving = components['schemas']['ConfigurationServing'];

/** Who applies, with what: the caller's kind and the apply's `comment` and `confirmation`. */
export interface ApplyingAs {
  console: boolean;
  comment?: string;
  confirmed?: readonly string[];
}

/** The apply's caller and options as the refusals read them. */
export function applyingAs(principal: { type: string }, options: { comment?: string; confirmed?: readonly string[] }): ApplyingAs {
  return { console: principal.type === 'console_session', comment: options.comment, confirmed: options.confirmed };
}

type EnvironmentSettings = { comments_required: boolean; confirmation_required: boolean };

const confirmationRemedy = (environment: string) =>
  `Apply in the web console, typing "${environment}" to confirm (API: a console session's confirmation=${environment}); a Bearer token cannot change this environment.`;
const commentRemedy =
  "Give a comment: `vexil apply FILE --comment TEXT` on the command line, `?comment=TEXT` (or the file entry's `comment`) in the API.";

/**
 * Every refusal applying `changes` would meet, by the environments' stored settings (`current`,
 * the project as it is; a new environment's are the file's, as it is created first). A change of
 * any kind in a `confirmation_required` environment is protected (its serving, its settings,
 * `confirmation_required` itself, its deletion), so the file can never lift its own guard.
 */
export function refusalsOf(current: ProjectConfiguration, changes: readonly ConfigurationChange[], as: ApplyingAs): ConfigurationRefusal[] {
  const stored = new Map<string, EnvironmentSettings>(current.environments.map((e) => [e.key, e]));
  for (const change of changes) {
    if (change.kind === 'environment' && change.action === 'create') {
      const created = change.after as EnvironmentSettings;
      if (!stored.has(change.key)) stored.set(change.key, created);
    }
  }
  const refusals: ConfigurationRefusal[] = [];
  const protectedTouched = new Set<string>();
  for (const change of changes) {
    const environment =
      change.kind === 'serving' ? change.environment : change.kind === 'environment' && change.action !== 'create' ? change.key : null;
    if (environment === null || environment === undefined) continue;
    const settings = stored.get(environment);
    if (settings?.confirmation_required && !(as.console && as.confirmed?.includes(environment))) protectedTouched.add(environment);
    if (change.kind !== 'serving' || !settings?.comments_required) continue;
    const serving = change.after as Serving;
    const step = servingStep(change.before as Serving | null, serving);
    const comment = serving.comment ?? as.comment ?? null;
    if ((step.kind === 'publish' || step.kind === 'replace') && (comment === null || comment.trim() === '')) {
      refusals.push({
        code: 'comment_required',
        environment,
        flag: change.key,
        message: `Publishing "${change.key}" in ${environment} needs a comment: the environment requires one.`,
        remedy: commentRemedy,
      });
    }
  }
  for (const environment of protectedTouched) {
    refusals.unshift({
      code: 'confirmation_required',
      environment,
      flag: null,
      message: as.console
        ? messages.confirmationMismatch(environment)
        : `The environment "${environment}" requires typed confirmation; a Bearer token cannot change it.`,
      remedy: confirmationRemedy(environment),
    });
  }
  return refusals;
}

/** Throws the error apply answers for the first refusal (the one the change's own operation would raise). */
export function refuse(refusals: readonly ConfigurationRefusal[], as: ApplyingAs): void {
  const first = refusals[0];
  if (!first) return;
  if (first.code === 'confirmation_required') {
    if (as.console) throw ValidationError.field('confirmation', first.message, 'confirmation_required');
    throw new UnprocessableError(`${first.message} ${first.remedy}`).withCode('confirmation_required');
  }
  throw ValidationError.field('comment', `${first.message} ${first.remedy}`, 'comment_required');
}
