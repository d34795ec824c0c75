import type { Command } from '../command.js';
import { apply } from './apply.js';
import { auditTail } from './audit.js';
import { evaluate } from './evaluate.js';
import { exportProject } from './export.js';
import { flagsGet, flagsList } from './flags.js';
import { keysCreate } from './keys.js';
import { login } from './login.js';
import { plan } from './plan.js';
import { flagsServe, promote } from './promote.js';
import { environmentsList, projectsList } from './projects.js';
import { tokensCreate } from './tokens.js';

/** Every command, in the order `vexil --help` lists them. */
export const commands: Command[] = [
  login,
  projectsList,
  environmentsList,
  flagsList,
  flagsGet,
  flagsServe,
  evaluate,
  exportProject,
  plan,
  apply,
  promote,
  keysCreate,
  tokensCreate,
  auditTail,
];
