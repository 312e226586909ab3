import { inject } from 'vitest';
import { DEFAULT_RUN_CONTEXT, type RunContext } from '../../src/contract/run-context.js';

/** The context of the run these suites belong to (src/contract/run-context.ts). */
export const context: RunContext = inject('conformance') ?? DEFAULT_RUN_CONTEXT;

/** The run's per-check timeout (`run --timeout`), else the check's own. */
export function checkTimeout(fallbackMs: number): number {
  return context.timeoutMs ?? fallbackMs;
}
