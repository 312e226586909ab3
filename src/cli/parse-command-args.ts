import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { closestWord } from '../schema/closest-word.js';
import type { Command, CommandArgs } from './command.js';
import { UsageError } from './errors.js';

/** True when --help or -h appears before any `--` terminator, whatever else the line holds. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** Strict parsing of one command's arguments, with node's errors rewritten to name the option and command. */
export function parseCommandArgs(command: Command, argv: readonly string[]): CommandArgs {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(command.options)) {
    options[name] = { type: spec.type, ...(spec.multiple ? { multiple: true } : {}), ...(spec.short ? { short: spec.short } : {}) };
  }
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true; strict: true; tokens: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(rewrite(error, command), command.name);
  }
  const repeated = findRepeated(command, parsed.tokens);
  if (repeated) throw new UsageError(`--${repeated} is given more than once`, command.name);
  checkPositionals(command, parsed.positionals);
  return { values: parsed.values, positionals: parsed.positionals };
}

function rewrite(error: unknown, command: Command): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const suggestion = option.startsWith('--') ? closestWord(option.slice(2), Object.keys(command.options)) : undefined;
    return `unknown option ${option} for ${command.name}${suggestion ? ` (did you mean --${suggestion}?)` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('argument missing')) return `${option} needs a value`;
    if (message.includes('does not take an argument')) return `${option} takes no value`;
    if (message.includes('ambiguous')) return `${option} needs a value; to give one starting with '-', write ${option}=VALUE`;
  }
  return message.split('\n')[0]!;
}

function findRepeated(command: Command, tokens: ReadonlyArray<{ kind: string; name?: string }>): string | undefined {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (command.options[token.name]?.multiple) continue;
    if (seen.has(token.name)) return token.name;
    seen.add(token.name);
  }
  return undefined;
}

function checkPositionals(command: Command, positionals: readonly string[]): void {
  const { names, min, max } = command.positionals;
  if (positionals.length < min) {
    throw new UsageError(`${command.name} needs ${names.slice(positionals.length, min).join(' ')}`, command.name);
  }
  if (positionals.length > max) {
    const extra = positionals[max]!;
    throw new UsageError(
      max === 0 ? `${command.name} takes no arguments, got "${extra}"` : `unexpected argument "${extra}" (${command.name} takes ${names.join(' ')})`,
      command.name,
    );
  }
}
