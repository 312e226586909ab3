import type { Command } from './command.js';
import { checkWidgetCommand } from './check-widget.js';
import { keygenCommand } from './keygen.js';
import { listCommand } from './list.js';
import { checkAgentCommand } from './check-agent.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { signCommand } from './sign.js';
import { verifyCommand } from './verify.js';

/** Every command, in the order help lists them (docs/contracts.md section 1). */
export const COMMANDS: readonly Command[] = [
  runCommand,
  listCommand,
  verifyCommand,
  signCommand,
  keygenCommand,
  checkAgentCommand,
  checkWidgetCommand,
  serveCommand,
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
