#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { Command } from './command.js';
import { commands } from './commands/index.js';
import { CliError, UsageError } from './errors.js';
import { consoleOutput } from './output.js';
import { cliVersion } from './version.js';

const globalOptions = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

function overview(): string {
  const width = Math.max(...commands.map((c) => c.words.join(' ').length));
  const lines = commands.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}`);
  return [
    'Usage: vexil <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Every command takes --url and --token (or VEXIL_URL / VEXIL_TOKEN, or what `vexil login` kept),',
    '--json for machine-readable output, and --help. Project and environment options fall back to',
    'VEXIL_PROJECT and VEXIL_ENV. `vexil --version` prints the version.',
  ].join('\n');
}

/** The command whose words start the argument list, longest match first. */
function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  const sorted = [...commands].sort((a, b) => b.words.length - a.words.length);
  for (const command of sorted) {
    if (command.words.every((word, i) => argv[i] === word)) return { command, rest: argv.slice(command.words.length) };
  }
  return undefined;
}

export async function main(argv: string[]): Promise<number> {
  const found = findCommand(argv);
  if (!found) {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
      process.stdout.write(`vexil ${cliVersion()}\n`);
      return 0;
    }
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      process.stdout.write(overview() + '\n');
      return argv.length === 0 ? 64 : 0;
    }
    process.stderr.write(`vexil: unknown command "${argv.join(' ')}"\n\n${overview()}\n`);
    return 64;
  }
  const { command, rest } = found;
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options: { ...globalOptions, ...command.options }, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (parsed.values.help) {
      process.stdout.write(`${command.summary}\n\nUsage: ${command.usage}\n`);
      return 0;
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
