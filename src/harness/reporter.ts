import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { Exchange } from './exchange.js';
import { failureWords } from './failure-words.js';
import type { CheckIdentity } from '../contract/check.js';
import type { CheckResult, Verdict } from './results.js';
import type { MutantTrialMeta, VariantTrialMeta } from './self-test-config.js';

/** One check run with one mutant switched on (self-test), traced to the check's own result by `checkId`. */
export interface MutantTrial extends MutantTrialMeta {
  readonly checkId: string;
  readonly requirements: readonly string[];
  readonly level: CheckResult['level'];
  readonly durationMs: number;
}

/** A failed check keeps its last few exchanges: the one that failed and what led to it. */
const EXCHANGES_KEPT = 8;

export interface ProgressSink {
  section(file: string, results: readonly CheckResult[]): void;
  /** A line the user needs before checks run (e.g. what a live deployment must be able to reach). */
  notice?(line: string): void;
  /** How many checks the run selected, before anything else is done (the first line of a run). */
  selected?(checks: number): void;
  /** Every finished check, as it finishes (a terminal shows a running count). */
  check?(file: string, result: CheckResult, sofar: readonly CheckResult[]): void;
}

/** Collects every check as a graded result; reports progress per suite file. */
export class ConformanceReporter implements Reporter {
  readonly results: CheckResult[] = [];
  /** Self-test runs: what each check did under each mutant it was tried with. */
  readonly trials: MutantTrial[] = [];
  /** Self-test runs: what each check did under each conformant variant it was tried with. */
  readonly variantTrials: VariantTrialMeta[] = [];
  readonly errors: string[] = [];
  finished = false;
  /** The vitest case id of each result, in the same order. */
  private readonly caseIds: string[] = [];

  constructor(
    private readonly root: string,
    private readonly progress?: ProgressSink,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const trial = (testCase.meta() as { mutantTrial?: MutantTrialMeta }).mutantTrial;
    if (trial) return void this.trials.push(this.toTrial(testCase, trial));
    const variantTrial = (testCase.meta() as { variantTrial?: VariantTrialMeta }).variantTrial;
    if (variantTrial) return void this.variantTrials.push(this.toVariantTrial(testCase, variantTrial));
    const result = this.toResult(testCase);
    // A check is counted once: a cancelled run may report a case again (its cancellation after its result).
    const earlier = this.caseIds.indexOf(testCase.id);
    if (earlier >= 0) this.results[earlier] = result;
    else {
      this.caseIds.push(testCase.id);
      this.results.push(result);
    }
    this.progress?.check?.(
      result.suite,
      result,
      this.results.filter((r) => r.suite === result.suite),
    );
  }

  onTestModuleEnd(module: TestModule): void {
    const file = relative(this.root, module.moduleId);
    const errors = module.errors();
    for (const e of errors) this.errors.push(`${file}: ${e.message}`);
    this.progress?.section(
      file,
      this.results.filter((r) => r.suite === file),
    );
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message: string }>): void {
    for (const e of unhandled) this.errors.push(e.message);
    this.finished = true;
  }

  private toTrial(testCase: TestCase, trial: MutantTrialMeta): MutantTrial {
    const state = testCase.result().state;
    // A trial whose test failed (a timeout) never reached its own verdict: the check did not pass, so it caught the mutant.
    const failed =
      state === 'failed'
        ? {
            outcome: 'killed' as const,
            message:
              testCase
                .result()
                .errors?.map((e) => e.message)
                .join('\n') ?? trial.message,
          }
        : {};
    return {
      ...trial,
      ...failed,
      checkId: trial.check.id,
      requirements: trial.check.requirements,
      level: trial.check.level,
      durationMs: Math.round((testCase.diagnostic()?.duration ?? 0) * 10) / 10,
    };
  }

  private toVariantTrial(testCase: TestCase, trial: VariantTrialMeta): VariantTrialMeta {
    // A trial whose test failed (a timeout) never reached its own verdict: the check did not pass the variant.
    const failed =
      testCase.result().state === 'failed'
        ? {
            outcome: 'failed' as const,
            message:
              testCase
                .result()
                .errors?.map((e) => e.message)
                .join('\n') ?? trial.message,
          }
        : {};
    return { ...trial, ...failed };
  }

  private toResult(testCase: TestCase): CheckResult {
    const suite = relative(this.root, testCase.module.moduleId);
    // A test of a suite file that is not a check (none should be) is graded as a MUST with no requirement.
    const identity: CheckIdentity = (testCase.meta() as { check?: CheckIdentity }).check ?? { id: testCase.fullName, requirements: [], level: 'MUST' };
    const result = testCase.result();
    const diagnostic = testCase.diagnostic();
    let verdict: Verdict;
    let message: string | undefined;
    if (result.state === 'passed') verdict = 'pass';
    else if (result.state === 'failed') {
      verdict = identity.level === 'SHOULD' ? 'warn' : 'fail';
      message = result.errors?.map((e) => e.message).join('\n');
    } else {
      verdict = 'not-run';
      message = (result as { note?: string }).note ?? 'skipped without a reason';
    }
    const exchanges = ((testCase.meta() as { exchanges?: Exchange[] }).exchanges ?? []).slice(-EXCHANGES_KEPT);
    // A failure names the request it was about and says what was expected in words.
    if (message && verdict !== 'not-run') message = failureWords(message, exchanges);
    return {
      id: identity.id,
      name: testCase.name,
      suite,
      requirements: identity.requirements,
      level: identity.level,
      verdict,
      durationMs: Math.round((diagnostic?.duration ?? 0) * 10) / 10,
      ...(message ? { message } : {}),
      ...(verdict !== 'pass' && exchanges.length ? { exchanges } : {}),
    };
  }
}
