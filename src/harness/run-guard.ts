import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { selectedBy, type CheckIdentity } from '../contract/check.js';
import type { CheckIndex, IndexedCheck } from './check-index.js';
import type { CheckResult } from './results.js';

/**
 * What keeps a run's end in its own hands, whatever the target does: the deadline a run ends by, and the reading of
 * what vitest reports about a suite's setup (a target's fault is the target's, and vitest's advice about its own
 * configuration never reaches the user).
 */

/** Time for everything but the checks: starting vitest, loading the suites, the fixture host, the reports. */
const DEADLINE_SETUP_MS = 60_000;
/** The per-request timeout a live run uses without --timeout: the live agent's (a live platform's is 10 s). */
const DEFAULT_LIVE_REQUEST_TIMEOUT_MS = 30_000;
/** How long a stopped run waits for its checks to wind down before it stops waiting and writes its report. */
export const STOP_GRACE_MS = 10_000;

/**
 * The deadline of a run, in milliseconds: 60 s plus, for each selected check, one per-request timeout (`--timeout`,
 * else 30 s). Every check is bounded by its requests (each phase of each within the per-request timeout, every body
 * within --max-body), so a run against a conforming target ends far sooner; this bounds a target that answers slowly
 * everywhere. `--deadline SECONDS` replaces it.
 */
export function defaultDeadlineMs(checks: number, timeoutMs: number | undefined): number {
  return DEADLINE_SETUP_MS + Math.max(1, checks) * (timeoutMs ?? DEFAULT_LIVE_REQUEST_TIMEOUT_MS);
}

/** The same formula in words, for the message of a run that passed it. */
export function deadlineWords(checks: number, timeoutMs: number | undefined): string {
  return `60 s + ${Math.max(1, checks)} check(s) × ${(timeoutMs ?? DEFAULT_LIVE_REQUEST_TIMEOUT_MS) / 1000} s per request`;
}

/** How many checks a run that loads `files` (relative to the package root) with `selection` declares, by the index. */
export function selectedCheckCount(index: CheckIndex | undefined, files: readonly string[], selection: readonly string[]): number | undefined {
  if (!index) return undefined;
  return index.checks.filter((c) => files.includes(c.file) && selectedBy(selection, c)).length;
}

const VITEST_TIMEOUT =
  /(Hook|Test) timed out in (\d+)ms\.\s*If this is a long-running (?:hook|test), pass a timeout value as the last argument or configure it globally with "(?:hookTimeout|testTimeout)"\./g;

/** A message of vitest's in the suite's words: its timeouts said plainly, without advice about configuring vitest. */
export function plainMessage(message: string): string {
  return message.replace(VITEST_TIMEOUT, (_whole, kind: string, ms: string) =>
    kind === 'Hook' ? `the suite's setup or teardown did not finish within ${ms} ms` : `the check did not finish within ${ms} ms`,
  );
}

/** What failed around the checks of a suite file or describe block (a beforeAll or afterAll hook, the file's loading). */
interface SetupFault {
  readonly file: string;
  readonly name: string | undefined;
  readonly message: string;
  /** The checks that never ran because of it (vitest skipped them without a word). */
  readonly unrun: ReadonlySet<string>;
  /** How the main reporter listed it among harness errors, when it did (module errors only). */
  readonly listedAs: string | undefined;
}

/** Watches the run beside the ConformanceReporter: the errors of suite files and blocks, and the checks they left unrun. */
export class SetupFaults implements Reporter {
  readonly faults: SetupFault[] = [];

  constructor(private readonly root: string) {}

  onTestModuleEnd(module: TestModule): void {
    const file = relative(this.root, module.moduleId);
    for (const e of module.errors())
      this.faults.push({ file, name: e.name, message: e.message, unrun: unrunChecks(module), listedAs: `${file}: ${e.message}` });
    for (const suite of module.children.allSuites())
      for (const e of suite.errors()) this.faults.push({ file, name: e.name, message: e.message, unrun: unrunChecks(suite), listedAs: undefined });
  }
}

function unrunChecks(within: TestModule | TestSuite): Set<string> {
  const ids = new Set<string>();
  for (const test of within.children.allTests()) {
    const result = test.result() as ReturnType<TestCase['result']> & { note?: string };
    const check = (test.meta() as { check?: CheckIdentity }).check;
    if (check && result.state === 'skipped' && !result.note) ids.add(check.id);
  }
  return ids;
}

/** Whether a setup fault is the target's doing: a live target's TargetFault, or a live suite's setup that ran out of time waiting on it. */
function isTargetsFault(fault: SetupFault, live: boolean): boolean {
  return live && (fault.name === 'TargetFault' || /^Hook timed out in \d+ms/.test(fault.message));
}

/**
 * Reads the setup faults of a run. A live target's fault fails the checks it left unrun, each with the fault in plain
 * words (the checks could not be made against what the target sent), and is no harness error; any other fault is a
 * harness error, said plainly. `listed` are the errors the main reporter collected, returned without the ones read here.
 */
export function judgeSetupFaults(
  faults: readonly SetupFault[],
  results: readonly CheckResult[],
  listed: readonly string[],
  live: boolean,
): { readonly results: CheckResult[]; readonly harnessErrors: string[] } {
  const failedBy = new Map<string, string>();
  const harnessErrors = listed.filter((e) => !faults.some((f) => f.listedAs === e));
  for (const fault of faults) {
    const said = plainMessage(fault.message);
    if (!isTargetsFault(fault, live)) {
      harnessErrors.push(`${fault.file}: ${said}`);
      continue;
    }
    const why = /^Hook timed out/.test(fault.message) ? `${said}, waiting on the target` : said;
    for (const id of fault.unrun) if (!failedBy.has(id)) failedBy.set(id, `the suite's setup failed, so the check could not be made: ${why}`);
  }
  return {
    results: results.map((r) => {
      const message = failedBy.get(r.id);
      if (message && r.verdict === 'not-run') return { ...r, verdict: r.level === 'SHOULD' ? 'warn' : 'fail', message };
      return r.message === undefined ? r : { ...r, message: plainMessage(r.message) };
    }),
    harnessErrors: harnessErrors.map(plainMessage),
  };
}

/** What vitest says of the checks it never started once a run is cancelled, or of those a stopped file never reached. */
const CANCELLED_NOTES = new Set(['The test run was aborted by the user.', 'skipped without a reason']);

/**
 * The results of a run that was stopped (a signal, its deadline), as the report gives them: one per check (vitest
 * reports a cancelled file's checks more than once; a verdict beats a not-run), and the checks it never started
 * not-run with the reason the run stopped, not vitest's words for a user's cancel. `selected` (the checks the run
 * planned, from suites/checks.json) adds those no file reported at all, so the report counts every selected check.
 */
export function stoppedRunResults(results: readonly CheckResult[], reason: string, selected: readonly IndexedCheck[] = []): CheckResult[] {
  const stopped = `not run: the run stopped before this check (${reason})`;
  const byId = new Map<string, CheckResult>();
  for (const r of results) {
    const seen = byId.get(r.id);
    if (!seen || (seen.verdict === 'not-run' && r.verdict !== 'not-run')) byId.set(r.id, r);
  }
  const reported = [...byId.values()].map((r) => (r.verdict === 'not-run' && CANCELLED_NOTES.has(r.message ?? '') ? { ...r, message: stopped } : r));
  const unreached = selected.filter((c) => !byId.has(c.id)).map((c) => notRunResult(c, stopped));
  return [...reported, ...unreached];
}

/** A check of the index the run reports not run without having started it (left out by --skip, never reached). */
export function notRunResult(check: IndexedCheck, message: string): CheckResult {
  return {
    id: check.id,
    name: check.title,
    suite: check.file,
    requirements: check.requirements,
    level: check.level,
    verdict: 'not-run',
    durationMs: 0,
    message,
  };
}
