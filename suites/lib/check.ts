import { TestRunner, test, type TestContext } from 'vitest';
import { CHECK_ID_PATTERN, selectedBy, type CheckIdentity } from '../../src/contract/check.js';
import { runCheckScoped } from '../../src/harness/check-scope.js';
import type { Exchange } from '../../src/harness/exchange.js';
import { selfTestMutants, type MutantTrialMeta, type VariantTrialMeta } from '../../src/harness/self-test-config.js';
import { switchDeviation } from '../../src/mutants/active.js';
import { VARIANTS } from '../../src/variants/catalogue.js';
import { context } from './context.js';

/** What a check body gets: a way to record the exchanges a report shows when the check fails. */
export interface CheckContext {
  record(exchange: Exchange): void;
  /** Reports the check not-run with the reason (never passed). */
  notRun(reason: string): never;
}

export interface CheckDefinition extends CheckIdentity {
  /** The sentence a report shows. */
  readonly title: string;
  readonly timeout?: number;
  readonly run: (c: CheckContext) => Promise<void> | void;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Every check carries its identity; the reporter reads it. */
    check?: CheckIdentity;
    exchanges?: Exchange[];
    /** Set on the extra tests of a self-test run: the mutant tried and what the check did under it. */
    mutantTrial?: MutantTrialMeta;
    /** Likewise for a conformant variant, which the check must pass. */
    variantTrial?: VariantTrialMeta;
  }
}

const mutants = context.selfTest ? selfTestMutants(context.selfTest) : [];
const variants = context.selfTest ? VARIANTS : [];

/**
 * What one suite file has said so far. Suite files may share this module (vitest without isolation), so the
 * state is kept per file, found through the file being collected.
 */
interface FileState {
  /** Every check of the file is reported not-run with this reason (notRunAll). */
  notRunReason?: string;
  /** Mutants a check of this file already killed: later checks need not try them again. */
  readonly killed: Set<string>;
  /** Ids declared in this file, so a repeated one fails loudly instead of merging two checks in reports. */
  readonly declared: Set<string>;
}

const files = new WeakMap<object, FileState>();

function fileState(): FileState {
  const file = TestRunner.getCurrentSuite().file;
  let state = files.get(file);
  if (!state) files.set(file, (state = { killed: new Set(), declared: new Set() }));
  return state;
}

/** A check that reports itself not-run under a mutant or a variant. */
class NotRunUnderMutant extends Error {}

/**
 * Self-test (`run --self-test`): after the check itself, one test per mutant naming one of the check's requirements
 * runs the check with that mutant switched on in the in-process targets, and records whether the check failed.
 */
function registerMutantTrials(definition: CheckDefinition, identity: CheckIdentity, file: FileState): void {
  for (const mutant of mutants) {
    if (!mutant.requirements.some((id) => definition.requirements.includes(id))) continue;
    test(
      `${definition.title} {mutant ${mutant.id}}`,
      async (ctx: TestContext) => {
        const trial = (outcome: MutantTrialMeta['outcome'], message?: string) => {
          ctx.task.meta.mutantTrial = { mutant: mutant.id, check: identity, outcome, ...(message ? { message } : {}) };
        };
        if (file.killed.has(mutant.id)) return trial('skipped');
        if (file.notRunReason !== undefined) return trial('not-run', file.notRunReason);
        trial('killed', 'the check did not finish');
        switchDeviation(mutant);
        ctx.onTestFinished(() => switchDeviation(undefined));
        try {
          await runDeviated(definition, ctx);
          trial('survived');
        } catch (error) {
          if (error instanceof NotRunUnderMutant) return trial('not-run', error.message);
          file.killed.add(mutant.id);
          trial('killed', error instanceof Error ? error.message : String(error));
        }
      },
      definition.timeout,
    );
  }
}

/** A check's body against the deviation switched on, recording nothing; a not-run says so by throwing. */
function runDeviated(definition: CheckDefinition, ctx: TestContext): Promise<void> {
  return runCheckScoped(
    () =>
      definition.run({
        record: () => undefined,
        notRun: (reason: string) => {
          throw new NotRunUnderMutant(reason);
        },
      }),
    { timeoutMs: ctx.task.timeout, signal: ctx.signal },
  );
}

/**
 * Self-test: one test per conformant variant whose requirements the check names. The check runs against the
 * variant exactly as against the reference; failing it is a false fail, since the variant makes a choice the
 * spec allows.
 */
function registerVariantTrials(definition: CheckDefinition, identity: CheckIdentity, file: FileState): void {
  for (const variant of variants) {
    if (!variant.requirements.some((id) => definition.requirements.includes(id))) continue;
    test(
      `${definition.title} {variant ${variant.id}}`,
      async (ctx: TestContext) => {
        const trial = (outcome: VariantTrialMeta['outcome'], message?: string) => {
          ctx.task.meta.variantTrial = { variant: variant.id, check: identity, outcome, ...(message ? { message } : {}) };
        };
        if (file.notRunReason !== undefined) return trial('not-run', file.notRunReason);
        trial('failed', 'the check did not finish');
        switchDeviation(variant, 'variant');
        ctx.onTestFinished(() => switchDeviation(undefined));
        try {
          await runDeviated(definition, ctx);
          trial('passed');
        } catch (error) {
          if (error instanceof NotRunUnderMutant) return trial('not-run', error.message);
          trial('failed', error instanceof Error ? error.message : String(error));
        }
      },
      definition.timeout,
    );
  }
}

/** Every check this suite file declares afterwards is reported not-run with this reason (when given). */
export function notRunAll(reason: string | undefined): void {
  fileState().notRunReason = reason;
}

/**
 * A conformance check: a vitest test titled with its sentence and carrying its identity (id, requirements, level)
 * as task meta, so reports trace every result to the catalogue. A check the run's selection leaves out is not
 * declared at all.
 */
export function check(definition: CheckDefinition): void {
  const identity: CheckIdentity = { id: definition.id, requirements: definition.requirements, level: definition.level };
  if (!CHECK_ID_PATTERN.test(identity.id)) throw new Error(`check id "${identity.id}" is not a slug (${CHECK_ID_PATTERN})`);
  const file = fileState();
  if (file.declared.has(identity.id)) throw new Error(`check id "${identity.id}" is declared twice`);
  file.declared.add(identity.id);
  if (!selectedBy(context.selection, identity)) return;
  const notRunReason = file.notRunReason;
  test(definition.title, { meta: { check: identity }, ...(definition.timeout === undefined ? {} : { timeout: definition.timeout }) }, (ctx: TestContext) => {
    const record = (exchange: Exchange) => {
      ctx.task.meta.exchanges = [...(ctx.task.meta.exchanges ?? []), exchange];
    };
    if (notRunReason !== undefined) ctx.skip(notRunReason);
    // The check runs in a scope of its own: what it started (requests, waits) stops when it ends, and running out of
    // time is said plainly, naming what it was waiting for.
    return runCheckScoped(() => definition.run({ record, notRun: (reason: string) => ctx.skip(reason) }), { timeoutMs: ctx.task.timeout, signal: ctx.signal });
  });
  if (mutants.length) registerMutantTrials(definition, identity, file);
  if (variants.length) registerVariantTrials(definition, identity, file);
}
