import { type FileHandle, open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { JsonSyntaxError, parseJson } from '../schema/parse-json.js';
import { InputError } from './errors.js';
import type { CliIo } from './io.js';

/**
 * The most any file named on the command line may hold: a vectors file with every 4 MiB body spelled out is far
 * below it, and a device or a runaway file (/dev/zero) is refused instead of read until memory runs out.
 */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** Reads a file named on the command line, at most `maxBytes`; `what` says which argument it was, for the message. */
export async function readInputFile(io: CliIo, path: string, what: string, maxBytes = MAX_INPUT_BYTES): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(resolve(io.cwd, path), 'r');
  } catch (error) {
    throw new InputError(`cannot read ${what} "${path}": ${fileProblem(error)}`);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(1024 * 1024, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new InputError(`${what} "${path}" is larger than ${maxBytes / 1024 / 1024} MiB; no input of this command is that large`);
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read ${what} "${path}": ${fileProblem(error)}`);
  } finally {
    await handle.close();
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
