import type { Command } from './command.js';
import { PROGRAM } from './errors.js';

const NOT_YET = '(not available in this version yet)';

export function programHelp(commands: readonly Command[], version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `${PROGRAM} ${version}: conformance suite and reference verifier for the Agent Platform Interface`,
    '',
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}${c.available ? '' : ` ${NOT_YET}`}`),
    '',
    `Run '${PROGRAM} <command> --help' for a command's options and an example.`,
    `Options: --help, --version`,
    'Exit codes: 0 success, 1 a check or expectation failed, 2 usage or input error, 3 target unreachable or harness error.',
    '',
  ].join('\n');
}

export function commandHelp(command: Command): string {
  const options = Object.entries(command.options).map(([name, spec]) => [
    `--${name}${spec.value ? ` ${spec.value}` : ''}${spec.short ? `, -${spec.short}` : ''}`,
    `${spec.help}${spec.multiple ? ' (repeatable)' : ''}`,
  ]);
  options.push(['--help, -h', 'print this help']);
  const width = Math.max(...options.map(([left]) => left!.length));
  return [
    `Usage: ${PROGRAM} ${command.name} ${command.usage}`.trimEnd(),
    '',
    command.description + (command.available ? '' : `\n${capitalize(NOT_YET.slice(1, -1))}.`),
    '',
    'Options:',
    ...options.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`),
    '',
    command.examples.length > 1 ? 'Examples:' : 'Example:',
    ...command.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
