import { spawn } from 'node:child_process';

/** How a client command ended. */
export interface ClientCommandOutcome {
  /** The shell's exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Stopped because it did not exit within its time limit. */
  readonly timedOut: boolean;
  /** Why it could not be started at all. */
  readonly spawnError?: string;
  /** The last bytes it wrote, for the report. */
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

export interface ClientCommandOptions {
  /** A shell command line, run with `sh -c` in a process group of its own. */
  readonly command: string;
  /** Variables added to the run's own environment (the APC_* ones). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly timeLimitMs: number;
  /** Milliseconds between SIGTERM and SIGKILL when the group is stopped. */
  readonly graceMs?: number;
  /** Stops the client early (the run was interrupted). */
  readonly signal?: AbortSignal;
}

/** The most of each stream kept. */
const TAIL_BYTES = 8192;

function tail(chunks: Buffer[]): string {
  const all = Buffer.concat(chunks);
  return all.subarray(Math.max(0, all.length - TAIL_BYTES)).toString('utf8');
}

/** Sends `signal` to the whole process group `pid` leads; a group already gone is no error. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Runs the client under test for one case: `command` through the shell, in a process group of its own, with the
 * case's variables. Past its time limit (or when `signal` aborts) the group is sent SIGTERM, then SIGKILL after the
 * grace; once the shell has exited, whatever it left running in its group is killed too, so no process outlives
 * the case. Never rejects.
 */
export function runClientCommand(options: ClientCommandOptions): Promise<ClientCommandOutcome> {
  const started = Date.now();
  const grace = options.graceMs ?? 2000;
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let spawnError: string | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    let killTimer: NodeJS.Timeout | undefined;
    const child = spawn(options.command, {
      shell: true,
      detached: true,
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      into.push(chunk);
      // Only the tail is reported: keep the buffers from growing without end.
      if (into.length > 64) into.splice(0, into.length - 32);
    };
    child.stdout?.on('data', keep(out));
    child.stderr?.on('data', keep(err));
    const stop = () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'), grace);
    };
    const limit = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeLimitMs);
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) stop();
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The shell is gone: anything it left in its group goes too.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    });
    child.on('close', () => {
      clearTimeout(limit);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        ...(spawnError === undefined ? {} : { spawnError }),
        stdout: tail(out),
        stderr: tail(err),
        durationMs: Date.now() - started,
      });
    });
  });
}

/** How a client command ended, in words for the report. */
export function outcomeWords(o: ClientCommandOutcome, timeLimitMs: number): string {
  if (o.spawnError !== undefined) return `could not be started: ${o.spawnError}`;
  if (o.timedOut) return `stopped after its time limit of ${timeLimitMs / 1000} s`;
  if (o.signal !== null) return `ended by ${o.signal}`;
  return `exited with code ${o.exitCode}`;
}
