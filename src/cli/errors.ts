import { CaseInputError } from '../cases/case-input-error.js';
import { JsonSyntaxError } from '../schema/parse-json.js';
import { EXIT } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';

export const PROGRAM = 'agent-platform-conformance';

/** The command line itself is wrong; the message ends by pointing at the right --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command whose --help to suggest; undefined for the program's own. */
    readonly command?: string,
  ) {
    super(message);
  }
}

/** A file or value the user gave cannot be used (missing file, bad key, existing output). */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** The harness failed (not the thing under test). */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
}

export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof InputError || error instanceof CaseInputError || error instanceof JsonSyntaxError) {
    return EXIT.usage;
  }
  return EXIT.harness;
}

/** The one report of a failure on stderr: never a stack trace. */
export function errorReport(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // An error nobody anticipated is the harness's own fault; say so rather than blame the input.
  const unexpected = exitCodeOf(error) === EXIT.harness && !(error instanceof HarnessError);
  let report = `${PROGRAM}: ${unexpected ? 'harness error: ' : ''}${message}\n`;
  if (error instanceof UsageError) report += `Run '${PROGRAM}${error.command ? ` ${error.command}` : ''} --help' for usage.\n`;
  return report;
}
