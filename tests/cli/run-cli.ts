import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command line in-process with captured output. */
export async function runCli(argv: readonly string[], options: { cwd?: string; now?: number } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: options.cwd ?? process.cwd(),
    ...(options.now === undefined ? {} : { now: () => options.now! }),
  });
  return { code, stdout, stderr };
}

export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'apc-cli-'));
}

/** A stack trace line, which no message of the command line may carry. */
export const STACK_LINE = /^\s+at .+[(:]\d+/m;
