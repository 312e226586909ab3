import { closestWord } from '../schema/closest-word.js';
import type { Command } from './command.js';
import { errorReport, exitCodeOf, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { commandHelp, programHelp } from './help.js';
import { processIo } from './io.js';
import type { CliIo } from './io.js';
import { asksForHelp, parseCommandArgs } from './parse-command-args.js';
import { packageVersion } from './version.js';

export type { CliIo } from './io.js';

/**
 * The agent-platform-conformance command line (docs/contracts.md section 1). Returns the exit code and never
 * throws: every failure is one line on stderr, without a stack trace. Importing this module runs nothing.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    io.stderr.write(errorReport(error));
    return exitCodeOf(error);
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  // --version loads no command; the commands load their heavy parts only when they run (help stays quick).
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const { COMMANDS, findCommand } = await import('./commands.js');
  if (first === undefined) {
    io.stderr.write(programHelp(COMMANDS, packageVersion()));
    return EXIT.usage;
  }
  if (first === '--help' || first === '-h') {
    io.stdout.write(programHelp(COMMANDS, packageVersion()));
    return EXIT.ok;
  }
  if (first === 'help') return help(rest, io, COMMANDS);
  if (first.startsWith('-')) throw new UsageError(`unknown option ${first}; options come after the command`);

  const command = findCommand(first);
  if (!command) throw unknownCommand(first, COMMANDS);
  if (asksForHelp(rest)) {
    io.stdout.write(commandHelp(command));
    return EXIT.ok;
  }
  return command.run(parseCommandArgs(command, rest), io);
}

function help(topics: readonly string[], io: CliIo, commands: readonly Command[]): number {
  const [topic, extra] = topics;
  if (extra !== undefined) throw new UsageError('help takes at most one command name');
  if (topic === undefined) {
    io.stdout.write(programHelp(commands, packageVersion()));
    return EXIT.ok;
  }
  const command = commands.find((c) => c.name === topic);
  if (!command) throw unknownCommand(topic, commands);
  io.stdout.write(commandHelp(command));
  return EXIT.ok;
}

function unknownCommand(name: string, commands: readonly Command[]): UsageError {
  const suggestion = closestWord(
    name,
    commands.map((c) => c.name),
  );
  return new UsageError(`unknown command "${name}"${suggestion ? ` (did you mean ${suggestion}?)` : ''}`);
}
