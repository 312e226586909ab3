import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import type { FunctionSourceRecord } from '../../widgets/publish/index.js';
import type { ToolJobOutcome } from './tool-worker.js';
import { ToolWorkerPool } from './tool-worker-pool.js';

export type ToolRunResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: typeof BRIDGE_ERRORS.timeout.code | typeof BRIDGE_ERRORS.internal.code; readonly message: string };

/** Runs a published function source with JSON arguments. */
export interface ToolRunner {
  run(source: FunctionSourceRecord, args: unknown): Promise<ToolRunResult>;
}

export interface VmToolRunnerOptions {
  /** The handler time budget (7.1 timeout); the spec gives no value, the reference uses 2 seconds. */
  readonly timeoutMs?: number;
  /** The JS heap of the thread a call runs in, in MB; 64 by default. */
  readonly memoryMb?: number;
  /** Calls running at once, each in its own thread; 4 by default. */
  readonly maxWorkers?: number;
}

const DEFAULT_TOOL_TIMEOUT_MS = 2000;
const DEFAULT_TOOL_MEMORY_MB = 64;
const DEFAULT_MAX_TOOL_WORKERS = 4;

/**
 * The reference's runtime for function sources. The spec names the runtime (node20) but not the module shape; the
 * reference takes a CommonJS-style source whose `module.exports` (or `exports.default`) is a function of the
 * arguments object returning a JSON value or a promise of one.
 *
 * A call runs in a worker thread (warm ones are reused), inside a fresh node:vm context that holds nothing of the
 * host (tool-worker-source.ts says what is in it); the arguments go in and the result comes out as JSON text. The
 * platform stops the thread at the deadline whatever it runs, and its heap is capped, so a tool that loops (before
 * or after an await) or allocates without end answers timeout or internal while the platform keeps answering.
 * node:vm is not a security boundary: this is a reference for conformance runs, not a host for hostile code.
 */
export function createVmToolRunner(options: VmToolRunnerOptions = {}): ToolRunner {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const pool = new ToolWorkerPool({
    memoryMb: options.memoryMb ?? DEFAULT_TOOL_MEMORY_MB,
    maxWorkers: options.maxWorkers ?? DEFAULT_MAX_TOOL_WORKERS,
  });
  return {
    async run(record, args) {
      const job = { tool: record.tool, file: record.file, source: record.source, argsText: JSON.stringify(args ?? {}) };
      try {
        return answerOf(record, await pool.run(job, timeoutMs), timeoutMs);
      } catch (error) {
        // The thread could not be made (the host is out of threads or memory): the call fails, the platform does not.
        return internal(`${record.tool} could not run: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

function answerOf(record: FunctionSourceRecord, outcome: ToolJobOutcome, timeoutMs: number): ToolRunResult {
  switch (outcome.kind) {
    case 'returned':
      try {
        return { ok: true, value: JSON.parse(outcome.text) as unknown };
      } catch {
        return internal(`${record.tool} returned no JSON value.`);
      }
    case 'threw':
      return internal(`${record.tool} threw: ${outcome.message}`);
    case 'failed':
    case 'died':
      return internal(`${record.tool} could not run: ${outcome.message}`);
    case 'expired':
      return { ok: false, code: BRIDGE_ERRORS.timeout.code, message: `${record.tool} ran past its ${timeoutMs} ms budget.` };
  }
}

function internal(message: string): ToolRunResult {
  return { ok: false, code: BRIDGE_ERRORS.internal.code, message };
}
