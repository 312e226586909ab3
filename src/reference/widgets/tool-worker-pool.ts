import { ToolWorker, type ToolJob, type ToolJobOutcome } from './tool-worker.js';

export interface ToolWorkerLimits {
  /** Each thread's JS heap (resourceLimits.maxOldGenerationSizeMb). */
  readonly memoryMb: number;
  /** Calls running at once; more wait their turn, so a flood of calls cannot start a thread each. */
  readonly maxWorkers: number;
}

/** How long a warm thread waits for another call before it is ended, so pools that are no longer used free theirs. */
const IDLE_MS = 10_000;

/**
 * Threads for tool calls: a call takes a warm thread when one is idle (starting one costs tens of milliseconds), and
 * a thread goes back to the idle list only when its call answered; one that expired or died is replaced.
 */
export class ToolWorkerPool {
  private readonly idle = new Map<ToolWorker, NodeJS.Timeout>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: ToolWorkerLimits) {}

  async run(job: ToolJob, budgetMs: number): Promise<ToolJobOutcome> {
    await this.takeTurn();
    let worker: ToolWorker | undefined;
    try {
      worker = this.takeIdle() ?? new ToolWorker(this.limits.memoryMb);
      return await worker.run(job, budgetMs);
    } finally {
      if (worker?.usable) this.park(worker);
      this.passTurn();
    }
  }

  private async takeTurn(): Promise<void> {
    if (this.running < this.limits.maxWorkers) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the turn straight to a waiting call, so a newcomer cannot take it in between. */
  private passTurn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private takeIdle(): ToolWorker | undefined {
    for (const [worker, timer] of this.idle) {
      clearTimeout(timer);
      this.idle.delete(worker);
      if (worker.usable) return worker;
    }
    return undefined;
  }

  private park(worker: ToolWorker): void {
    const timer = setTimeout(() => {
      this.idle.delete(worker);
      worker.end('it was idle');
    }, IDLE_MS);
    timer.unref();
    this.idle.set(worker, timer);
  }
}
