import { call, collectPages } from '../api.js';
import { connectionOptions, projectOption, type Command } from '../command.js';
import { clientFor, requireProject } from '../context-helpers.js';
import { printJson, printTable } from '../output.js';

export const projectsList: Command = {
  words: ['projects', 'list'],
  summary: 'List the projects the token can see',
  usage: 'vexil projects list [--json]',
  options: { ...connectionOptions },
  async run(context) {
    const client = clientFor(context);
    const projects = await collectPages((cursor) => call(client.GET('/projects', { params: { query: { per_page: 100, cursor } } })));
    if (context.out.json) return printJson(context.out, projects);
    printTable(
      context.out,
      ['key', 'name', 'description'],
      projects.map((p) => [p.key, p.name, p.description]),
    );
  },
};

export const environmentsList: Command = {
  words: ['environments', 'list'],
  summary: "List a project's environments",
  usage: 'vexil environments list --project KEY [--json]',
  options: { ...connectionOptions, ...projectOption },
  async run(context) {
    const client = clientFor(context);
    const projectKey = requireProject(context);
    const environments = await collectPages((cursor) =>
      call(client.GET('/projects/{projectKey}/environments', { params: { path: { projectKey }, query: { per_page: 100, cursor } } })),
    );
    if (context.out.json) return printJson(context.out, environments);
    printTable(
      context.out,
      ['key', 'name', 'comments required', 'confirmation required'],
      environments.map((e) => [e.key, e.name, e.comments_required ? 'yes' : 'no', e.confirmation_required ? 'yes' : 'no']),
    );
  },
};
