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
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}

export function nowSeconds(io: CliIo): number {
  return io.now ? io.now() : Math.floor(Date.now() / 1000);
}
