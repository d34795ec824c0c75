import readline from 'node:readline/promises';
import { apiError, managementClient, reach } from '../api.js';
import { connectionOptions, projectOption, stringOption, type Command } from '../command.js';
import { UsageError } from '../errors.js';
import { checkUrl, saveConnection } from '../settings.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function prompt(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

export const login: Command = {
  words: ['login'],
  summary: 'Check a base URL and token and keep them in the config file (mode 0600)',
  usage:
    'vexil login --url https://flags.example.com [--token pat_...|mgt_...|-] [--project KEY]   (- or a pipe reads the token from standard input; --project: the default project of later commands)',
  options: { ...connectionOptions, ...projectOption },
  async run(context) {
    const given = stringOption(context.options, 'url') ?? context.env.VEXIL_URL;
    if (!given) throw new UsageError('--url is required (or set VEXIL_URL).');
    const url = checkUrl(given, stringOption(context.options, 'url') !== undefined ? '--url' : 'VEXIL_URL');
    const project = stringOption(context.options, 'project');
    let token = stringOption(context.options, 'token') ?? context.env.VEXIL_TOKEN;
    if (token === '-' || (token === undefined && !process.stdin.isTTY)) token = await readStdin();
    else if (token === undefined) token = await prompt('Token (pat_... or mgt_...): ');
    if (!token) throw new UsageError('No token given.');

    // Any answer but 401 proves the token: a management token without projects:read gets 403.
    const client = managementClient({ url, token });
    const { response, error } = await reach(client.GET('/projects', { params: { query: { per_page: 1 } } }));
    if (response.status === 401) throw apiError(401, error);
    const file = saveConnection({ url, token, ...(project ? { project } : {}) }, context.env);
    context.out.write(`Signed in to ${url}${project ? ` (default project ${project})` : ''}; settings kept in ${file}.\n`);
  },
};
