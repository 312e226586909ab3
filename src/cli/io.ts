/** Where a command writes and what it reads relative to; tests pass their own to capture output. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Relative file arguments are read and written against this directory. */
  readonly cwd: string;
  /** Seconds since the epoch; `sign` uses it for the default created. */
  readonly now?: () => number;
}

export function processIo(): CliIo {
  // A reader that went away (the pipe of a launcher that was stopped) must not crash a run still writing its reports.
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') === 0)
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
  }
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}

export function nowSeconds(io: CliIo): number {
  return io.now ? io.now() : Math.floor(Date.now() / 1000);
}
