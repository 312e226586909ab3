import vm from 'node:vm';
import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import type { FunctionSourceRecord } from '../../widgets/publish/index.js';

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
}

const DEFAULT_TOOL_TIMEOUT_MS = 2000;

/**
 * The reference's runtime for function sources. The spec names the runtime (node20) but not the module shape; the
 * reference takes a CommonJS-style source whose `module.exports` (or `exports.default`) is a function of the
 * arguments object returning a JSON value or a promise of one.
 *
 * The source runs in a fresh node:vm context that holds nothing of the host: no require, process or timers; the
 * arguments go in and the result comes out as JSON text, so no host object crosses; string code generation is
 * off; synchronous work and the whole call are bounded by the time budget. node:vm is not a security boundary:
 * this is a reference for conformance runs on loopback, not a host for untrusted code.
 */
export function createVmToolRunner(options: VmToolRunnerOptions = {}): ToolRunner {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  return {
    async run(record, args) {
      const context = vm.createContext(Object.create(null) as object, {
        name: `function ${record.tool}`,
        codeGeneration: { strings: false, wasm: false },
      });
      (context as Record<string, unknown>).__args = JSON.stringify(args ?? {});
      const wrapped = `(async () => {
  const module = { exports: {} };
  (function (module, exports) {
${record.source}
  })(module, module.exports);
  const fn = typeof module.exports === 'function' ? module.exports : module.exports && module.exports.default;
  if (typeof fn !== 'function') throw new TypeError('the source assigns no function to module.exports');
  const value = await fn(JSON.parse(__args));
  return JSON.stringify(value === undefined ? null : value);
})().then((text) => ({ text }), (error) => ({ error: String(error && error.message !== undefined ? error.message : error) }))`;
      let timer: NodeJS.Timeout | undefined;
      try {
        const running = new vm.Script(wrapped, { filename: record.file }).runInContext(context, { timeout: timeoutMs }) as Promise<{
          text?: unknown;
          error?: unknown;
        }>;
        const expired = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
          timer.unref();
        });
        const settled = await Promise.race([running, expired]);
        if (settled === 'timeout') return timedOut(record, timeoutMs);
        if (typeof settled.text === 'string') return { ok: true, value: JSON.parse(settled.text) as unknown };
        return { ok: false, code: BRIDGE_ERRORS.internal.code, message: `${record.tool} threw: ${String(settled.error)}` };
      } catch (error) {
        if (isTimeout(error)) return timedOut(record, timeoutMs);
        return {
          ok: false,
          code: BRIDGE_ERRORS.internal.code,
          message: `${record.tool} could not run: ${error instanceof Error ? error.message : String(error)}`,
        };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function timedOut(record: FunctionSourceRecord, timeoutMs: number): ToolRunResult {
  return { ok: false, code: BRIDGE_ERRORS.timeout.code, message: `${record.tool} ran past its ${timeoutMs} ms budget.` };
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}
