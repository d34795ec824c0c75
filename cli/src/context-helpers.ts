import { managementClient, type ManagementClient } from './api.js';
import type { CommandContext } from './command.js';
import { stringOption } from './command.js';
import { UsageError } from './errors.js';
import { resolveConnection, storedProject } from './settings.js';

/** The typed management client for the connection the options, environment or login file name. */
export function clientFor(context: CommandContext): ManagementClient {
  return managementClient(
    resolveConnection({ url: stringOption(context.options, 'url'), token: stringOption(context.options, 'token') }, context.env),
  );
}

/** A required option, falling back to a VEXIL_* variable (e.g. --project or VEXIL_PROJECT). */
export function requireOption(context: CommandContext, name: string, variable?: string): string {
  const value = stringOption(context.options, name) ?? (variable ? context.env[variable] : undefined);
  if (!value) throw new UsageError(`--${name} is required${variable ? ` (or set ${variable})` : ''}.`);
  return value;
}

export function requireArgument(context: CommandContext, index: number, name: string): string {
  const value = context.args[index];
  if (!value) throw new UsageError(`${name} is required.`);
  return value;
}

/** The project: --project, else VEXIL_PROJECT, else the default `vexil login --project` kept. */
export function requireProject(context: CommandContext): string {
  const value = stringOption(context.options, 'project') ?? context.env.VEXIL_PROJECT ?? storedProject(context.env);
  if (!value) throw new UsageError('--project is required (or set VEXIL_PROJECT, or keep a default with `vexil login --project KEY`).');
  return value;
}
