import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../paths.js';

const exec = promisify(execFile);

/** One check's result as a run's --json report lists it. */
export interface RunResult {
  readonly id: string;
  readonly verdict: string;
  readonly message?: string;
}

export interface CliProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The command line as users run it, in its own process: `tsx src/cli/entry.ts ...`. */
export async function spawnCli(argv: readonly string[], timeoutMs = 120_000): Promise<CliProcessResult> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', ...argv], {
      cwd: PROJECT_ROOT,
      timeout: timeoutMs,
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
