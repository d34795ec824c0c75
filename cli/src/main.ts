#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { Command } from './command.js';
import { commands } from './commands/index.js';
import { CliError, UsageError } from './errors.js';
import { consoleOutput } from './output.js';
import { cliVersion } from './version.js';

const globalOptions = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** The command list, or only the commands of a group (`vexil flags --help`). */
function overview(listed: Command[] = commands, group?: string): string {
  const width = Math.max(...listed.map((c) => c.words.join(' ').length));
  const lines = listed.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}`);
  return [
    `Usage: vexil ${group ? `${group} ` : ''}<command> [options]`,
    '',
    'Commands:',
    ...lines,
    '',
    'Every command takes --url and --token (or VEXIL_URL / VEXIL_TOKEN, or what `vexil login` kept),',
    '--json for machine-readable output, and --help. --project falls back to VEXIL_PROJECT, then to',
    'the default project `vexil login --project KEY` kept; --env falls back to VEXIL_ENV.',
    '`vexil --version` prints the version.',
  ].join('\n');
}

/** The commands whose words start with the leading words of `argv` (`flags` for `vexil flags --help`). */
function commandGroup(argv: string[]): { words: string; listed: Command[] } | undefined {
  const firstOption = argv.findIndex((a) => a.startsWith('-'));
  const words = firstOption === -1 ? argv : argv.slice(0, firstOption);
  if (words.length === 0) return undefined;
  const listed = commands.filter((c) => words.every((word, i) => c.words[i] === word));
  return listed.length > 0 ? { words: words.join(' '), listed } : undefined;
}

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/** The command whose words start the argument list, longest match first. */
function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  const sorted = [...commands].sort((a, b) => b.words.length - a.words.length);
  for (const command of sorted) {
    if (command.words.every((word, i) => argv[i] === word)) return { command, rest: argv.slice(command.words.length) };
  }
  return undefined;
}

export async function main(argv: string[]): Promise<number> {
  // `vexil help flags serve` is `vexil flags serve --help`.
  if (argv[0] === 'help' && argv.length > 1) argv = [...argv.slice(1), '--help'];
  const found = findCommand(argv);
  if (!found) {
    const group = commandGroup(argv);
    if (group && argv.some(isHelp)) {
      process.stdout.write(overview(group.listed, group.words) + '\n');
      return 0;
    }
    if (group && !argv.slice(group.words.split(' ').length).some((a) => !a.startsWith('-'))) {
      process.stderr.write(`vexil: "${group.words}" needs a command\n\n${overview(group.listed, group.words)}\n`);
      return 64;
    }
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
      process.stdout.write(`vexil ${cliVersion()}\n`);
      return 0;
    }
    if (argv.length === 0 || isHelp(argv[0]!) || argv[0] === 'help') {
      process.stdout.write(overview() + '\n');
      return argv.length === 0 ? 64 : 0;
    }
    process.stderr.write(`vexil: unknown command "${argv.join(' ')}"\n\n${overview()}\n`);
    return 64;
  }
  const { command, rest } = found;
  try {
    // --help wins over anything else on the line, even options the command does not know.
    if (rest.some(isHelp)) {
      process.stdout.write(`${command.summary}\n\nUsage: ${command.usage}\n`);
      return 0;
    }
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options: { ...globalOptions, ...command.options }, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const out = consoleOutput(parsed.values.json === true);
    const code = await command.run({ args: parsed.positionals, options: parsed.values, out, env: process.env });
    return typeof code === 'number' ? code : 0;
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`vexil: ${error.message}\n`);
      if (error instanceof UsageError) process.stderr.write(`Usage: ${command.usage}\n`);
      return error.exitCode;
    }
    process.stderr.write(`vexil: unexpected error: ${(error as Error).message}\n`);
    return 70;
  }
}

process.exitCode = await main(process.argv.slice(2));
