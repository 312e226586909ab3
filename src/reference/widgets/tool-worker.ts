import { Worker } from 'node:worker_threads';
import { TOOL_WORKER_SOURCE } from './tool-worker-source.js';

/** One tool call as the worker thread receives it: everything is text, so nothing of the host crosses. */
export interface ToolJob {
  readonly tool: string;
  readonly file: string;
  readonly source: string;
  readonly argsText: string;
}

export type ToolJobOutcome =
  | { readonly kind: 'returned'; readonly text: string }
  | { readonly kind: 'threw'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'expired' }
  | { readonly kind: 'died'; readonly message: string };

/** A thread that never says it is ready is as broken as one that died; this bounds the wait on a loaded machine. */
const START_TIMEOUT_MS = 10_000;

type WorkerMessage = { readonly ready: true } | { readonly outcome: 'returned' | 'threw' | 'failed'; readonly text: string };

/**
 * One worker thread that runs tool calls one at a time. Its deadline is enforced from this thread by terminating
 * it, which stops whatever it runs (a loop after an await included); its heap is capped by resourceLimits. Once it
 * expired or died it is never used again.
 */
export class ToolWorker {
  private readonly worker: Worker;
  /** Resolves when the thread is ready, or with the outcome of its death before that. */
  private readonly started: Promise<ToolJobOutcome | undefined>;
  private onStarted: ((failure: ToolJobOutcome | undefined) => void) | undefined;
  private onOutcome: ((outcome: ToolJobOutcome) => void) | undefined;
  private death: string | undefined;

  constructor(private readonly memoryMb: number) {
    this.worker = new Worker(TOOL_WORKER_SOURCE, {
      eval: true,
      // No loader hooks (tsx) or flags of the host, and no copy of its environment.
      execArgv: [],
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    this.started = new Promise((resolve) => {
      const timer = setTimeout(() => this.end('its thread did not start'), START_TIMEOUT_MS);
      this.onStarted = (failure) => {
        clearTimeout(timer);
        this.onStarted = undefined;
        resolve(failure);
      };
    });
    this.worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) this.onStarted?.(undefined);
      else this.onOutcome?.(toOutcome(message));
    });
    this.worker.on('error', (error: Error & { code?: string }) => {
      this.death ??= error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it ran out of its ${this.memoryMb} MB of memory` : `it crashed: ${error.message}`;
    });
    this.worker.on('exit', (code) => {
      this.death ??= `its thread exited with code ${code}`;
      const died: ToolJobOutcome = { kind: 'died', message: this.death };
      this.onStarted?.(died);
      this.onOutcome?.(died);
    });
  }

  /** Whether it can take another call. */
  get usable(): boolean {
    return this.death === undefined;
  }

  /** Runs one call; the budget counts from when the thread is ready for it, not from its start-up. */
  async run(job: ToolJob, budgetMs: number): Promise<ToolJobOutcome> {
    this.worker.ref();
    try {
      const unstarted = await this.started;
      if (unstarted) return unstarted;
      return await new Promise<ToolJobOutcome>((resolve) => {
        const timer = setTimeout(() => {
          this.onOutcome = undefined;
          this.end('it ran past its budget');
          resolve({ kind: 'expired' });
        }, budgetMs);
        this.onOutcome = (outcome) => {
          clearTimeout(timer);
          this.onOutcome = undefined;
          resolve(outcome);
        };
        this.worker.postMessage(job);
      });
    } finally {
      if (this.usable) this.worker.unref();
    }
  }

  /** Terminates the thread, whatever it is doing. */
  end(why: string): void {
    this.death ??= why;
    void this.worker.terminate();
  }
}

function toOutcome(message: Exclude<WorkerMessage, { ready: true }>): ToolJobOutcome {
  return message.outcome === 'returned' ? { kind: 'returned', text: message.text } : { kind: message.outcome, message: message.text };
}
