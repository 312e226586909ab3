import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { JsonSyntaxError, parseJson } from '../schema/parse-json.js';
import { InputError } from './errors.js';
import type { CliIo } from './io.js';

/** Reads a file named on the command line; `what` says which argument it was, for the message. */
export async function readInputFile(io: CliIo, path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(resolve(io.cwd, path));
  } catch (error) {
    throw new InputError(`cannot read ${what} "${path}": ${fileProblem(error)}`);
  }
}

export async function readJsonFile(io: CliIo, path: string, what: string): Promise<unknown> {
  const bytes = await readInputFile(io, path, what);
  try {
    return parseJson(bytes.toString('utf8'), path);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new InputError(`${what} "${path}" is not valid JSON: line ${error.line}, column ${error.column}: ${error.problem}`);
  }
}

/** Plain words for the usual file-system errors. */
export function fileProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file',
    EISDIR: 'it is a directory',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOTDIR: 'a parent is not a directory',
    EEXIST: 'it already exists',
  };
  return (code && words[code]) ?? (error instanceof Error ? error.message : String(error));
}
