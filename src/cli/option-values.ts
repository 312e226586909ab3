import type { CommandArgs } from './command.js';
import { isServiceName } from '../spec/naming.js';
import { UsageError } from './errors.js';

export function stringOption(args: CommandArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredString(args: CommandArgs, name: string, command: string, placeholder: string): string {
  const value = stringOption(args, name);
  if (value === undefined) throw new UsageError(`${command} needs --${name} ${placeholder}`, command);
  if (value === '') throw new UsageError(`--${name} is empty`, command);
  return value;
}

export function stringOptions(args: CommandArgs, name: string): string[] {
  const value = args.values[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function flag(args: CommandArgs, name: string): boolean {
  return args.values[name] === true;
}

/** A whole number of seconds (or other integer) given on the command line. */
export function integerOption(args: CommandArgs, name: string, command: string): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a whole number of seconds, not "${value}"`, command);
  }
  return Number(value);
}

/**
 * `--service-name NAME`: the name a deployment writes where the spec writes Service (`Acme-Terms-Version`,
 * `realm=acme`); letters, digits and hyphens.
 */
export function serviceNameOption(args: CommandArgs, command: string): string | undefined {
  const value = stringOption(args, 'service-name');
  if (value !== undefined && !isServiceName(value))
    throw new UsageError(
      `--service-name must be the name the deployment writes for Service, letters, digits and hyphens (e.g. Acme), not ${JSON.stringify(value)}`,
      command,
    );
  return value;
}

/** `--agent-client ID:SECRET` (run and serve): a client_id and its client_secret, split at the first colon. */
export function clientCredentialsOption(value: string, command: string): { id: string; secret: string } {
  const colon = value.indexOf(':');
  if (colon < 1 || colon === value.length - 1)
    throw new UsageError(`--agent-client must be ID:SECRET, a client_id and its client_secret, not ${JSON.stringify(value)}`, command);
  return { id: value.slice(0, colon), secret: value.slice(colon + 1) };
}
