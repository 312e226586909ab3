/**
 * The one way a run is told to stop: SIGINT, SIGTERM, the end of the process that started it, or its deadline. From
 * the moment a run is planned until its report is written a signal does not kill it: the run stops what it is doing
 * (the preflight, the checks), writes its report marked incomplete and exits 3. A second signal kills.
 */
export class RunStop {
  /** Why the run was told to stop; undefined while it was not. */
  reason: string | undefined;
  private readonly actions = new Set<(reason: string) => void>();
  private readonly onInt = () => this.stop('SIGINT');
  private readonly onTerm = () => this.stop('SIGTERM');
  private readonly launcherTimer: NodeJS.Timeout;
  private deadlineTimer: NodeJS.Timeout | undefined;

  constructor(private readonly notice?: (line: string) => void) {
    process.once('SIGINT', this.onInt);
    process.once('SIGTERM', this.onTerm);
    this.launcherTimer = watchLauncher((reason) => this.stop(reason));
  }

  /** The run stops by itself `inMs` from now, for `reason`. */
  deadline(inMs: number | undefined, reason: string): void {
    clearTimeout(this.deadlineTimer);
    if (inMs === undefined || !Number.isFinite(inMs)) return;
    this.deadlineTimer = setTimeout(() => this.stop(reason), Math.max(0, inMs));
  }

  /** Tells the run to stop (once: a later reason changes nothing). */
  stop(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.notice?.(`stopping: the run was interrupted (${reason}); writing the incomplete report`);
    for (const action of this.actions) action(reason);
  }

  /** Runs `action` when the run is told to stop (at once if it was); the answer forgets it. */
  onStop(action: (reason: string) => void): () => void {
    if (this.reason !== undefined) {
      action(this.reason);
      return () => undefined;
    }
    this.actions.add(action);
    return () => this.actions.delete(action);
  }

  /** `work`'s answer, or why the run was told to stop first. The work left running is abandoned with the process. */
  async until<T>(work: Promise<T>): Promise<T | { stopped: string }> {
    let forget = () => undefined as unknown;
    const stopped = new Promise<{ stopped: string }>((resolve) => (forget = this.onStop((reason) => resolve({ stopped: reason }))));
    try {
      return await Promise.race([work, stopped]);
    } finally {
      forget();
    }
  }

  /** Once the report is written: signals have their usual effect again. */
  dispose(): void {
    process.off('SIGINT', this.onInt);
    process.off('SIGTERM', this.onTerm);
    clearInterval(this.launcherTimer);
    clearTimeout(this.deadlineTimer);
    this.actions.clear();
  }
}

/**
 * The process that started the run (npx, a shell, a CI step) may be stopped while this one is not: `npx` dies of
 * a SIGTERM sent to it alone and leaves the run orphaned, with nobody waiting for its answer. Seen from here the
 * parent process changes; the run then stops as if it had been sent SIGTERM, and writes its incomplete report.
 */
function watchLauncher(stop: (reason: string) => void): NodeJS.Timeout {
  const launcher = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== launcher) stop(`the process that started it, pid ${launcher}, ended`);
  }, 500);
  timer.unref();
  return timer;
}
