import { test, type TestContext } from 'vitest';
import type { Exchange } from '../../src/harness/exchange.js';
import type { Level } from '../../src/spec/types.js';
import { switchMutant } from '../../src/mutants/active.js';
import { readSelfTestConfig, selfTestMutants, type MutantTrialMeta } from '../../src/harness/self-test-config.js';

/** What a check body gets: a way to record the exchanges a report shows when the check fails. */
export interface CheckContext {
  record(exchange: Exchange): void;
  /** Reports the check not-run with the reason (never passed). */
  notRun(reason: string): never;
}

declare module 'vitest' {
  interface TaskMeta {
    exchanges?: Exchange[];
    /** Set on the extra tests of a self-test run: the mutant tried and what the check did under it. */
    mutantTrial?: MutantTrialMeta;
  }
}

const selfTest = readSelfTestConfig();
const mutants = selfTest ? selfTestMutants(selfTest) : [];
/** Mutants a check of this suite file already killed: later checks need not try them again. */
const killed = new Set<string>();

class NotRunUnderMutant extends Error {}

/**
 * Self-test (`run --self-test`): after the check itself, one test per mutant naming one of the check's requirements
 * runs the check with that mutant switched on in the in-process targets, and records whether the check failed.
 */
function registerMutantTrials(testName: string, requirements: readonly string[], fn: (c: CheckContext) => Promise<void> | void, timeout?: number): void {
  for (const mutant of mutants) {
    if (!mutant.requirements.some((id) => requirements.includes(id))) continue;
    test(`${testName} {mutant ${mutant.id}}`, async (ctx: TestContext) => {
      const trial = (outcome: MutantTrialMeta['outcome'], message?: string) => {
        ctx.task.meta.mutantTrial = { mutant: mutant.id, check: testName, outcome, ...(message ? { message } : {}) };
      };
      if (killed.has(mutant.id)) return trial('skipped');
      if (fileNotRunReason !== undefined) return trial('not-run', fileNotRunReason);
      trial('killed', 'the check did not finish');
      switchMutant(mutant);
      ctx.onTestFinished(() => switchMutant(undefined));
      try {
        await fn({ record: () => undefined, notRun: (reason: string) => { throw new NotRunUnderMutant(reason); } });
        trial('survived');
      } catch (error) {
        if (error instanceof NotRunUnderMutant) return trial('not-run', error.message);
        killed.add(mutant.id);
        trial('killed', error instanceof Error ? error.message : String(error));
      }
    }, timeout);
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
  const testName = `${name} [${requirements.join(' ')}] (${level})`;
  test(testName, (ctx: TestContext) => {
    const record = (exchange: Exchange) => {
      ctx.task.meta.exchanges = [...(ctx.task.meta.exchanges ?? []), exchange];
    };
    if (fileNotRunReason !== undefined) ctx.skip(fileNotRunReason);
    return fn({ record, notRun: (reason: string) => ctx.skip(reason) });
  }, timeout);
  if (mutants.length) registerMutantTrials(testName, requirements, fn, timeout);
}
