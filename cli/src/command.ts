import type { ParseArgsConfig } from 'node:util';
import type { Output } from './output.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandContext {
  /** Positional arguments after the command's own words. */
  args: string[];
  options: OptionValues;
  out: Output;
  env: NodeJS.ProcessEnv;
}

/** One `vexil` command: words that select it, its options, and what it does. */
export interface Command {
  words: string[];
  summary: string;
  usage: string;
  options: OptionSpec;
  /** The exit code (0 when nothing is returned). */
  run(context: CommandContext): Promise<number | void>;
}

/** Options every command that talks to Vexil understands. */
export const connectionOptions: OptionSpec = {
  url: { type: 'string' },
  token: { type: 'string' },
};

export const projectOption: OptionSpec = { project: { type: 'string', short: 'p' } };

export function stringOption(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}
