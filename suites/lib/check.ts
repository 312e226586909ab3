import { test, type TestContext } from 'vitest';
import type { Exchange } from '../../src/harness/exchange.js';
import type { Level } from '../../src/spec/types.js';

/** What a check body gets: a way to record the exchanges a report shows when the check fails. */
export interface CheckContext {
  record(exchange: Exchange): void;
  /** Reports the check not-run with the reason (never passed). */
  notRun(reason: string): never;
}

declare module 'vitest' {
  interface TaskMeta {
    exchanges?: Exchange[];
  }
}

let fileNotRunReason: string | undefined;

/** Every check this suite file declares afterwards is reported not-run with this reason (when given). */
export function notRunAll(reason: string | undefined): void {
  fileNotRunReason = reason;
}

/**
 * A conformance check: a vitest test whose name carries the requirement ids it checks and their level, in
 * the form `<name> [ID ID] (MUST)`, so reports can trace every result to the catalogue.
 */
export function check(name: string, requirements: readonly string[], level: Level, fn: (c: CheckContext) => Promise<void> | void, timeout?: number): void {
  test(`${name} [${requirements.join(' ')}] (${level})`, (ctx: TestContext) => {
    const record = (exchange: Exchange) => {
      ctx.task.meta.exchanges = [...(ctx.task.meta.exchanges ?? []), exchange];
    };
    if (fileNotRunReason !== undefined) ctx.skip(fileNotRunReason);
    return fn({ record, notRun: (reason: string) => ctx.skip(reason) });
  }, timeout);
}
