import type { SpendRecord } from './spend-ledger.js';
import type { Level } from '../spec/types.js';
import type { Exchange } from './exchange.js';
import type { ExpectedOutcome } from './expected-failures.js';
import type { NamingRecord } from './naming.js';
import type { SelfTestSummary } from './self-test.js';

/** pass; fail (a MUST broken); warn (a SHOULD broken); not-run (skipped, with the reason); error (the harness failed). */
export type Verdict = 'pass' | 'fail' | 'warn' | 'not-run' | 'error';

export interface CheckResult {
  /** The check's stable id (a slug, src/contract/check.ts); reports, JUnit and expected failures key on it. */
  readonly id: string;
  /** The check's title, a sentence. */
  readonly name: string;
  readonly suite: string;
  readonly requirements: readonly string[];
  readonly level: Level;
  readonly verdict: Verdict;
  readonly durationMs: number;
  /** Why it failed, or why it did not run. */
  readonly message?: string;
  /** A not-run check only: what would let it run, the id of a need of src/harness/not-run-needs.ts. */
  readonly needs?: string;
  /** The exact requests and responses of a failed check (secrets redacted). */
  readonly exchanges?: readonly Exchange[];
  /** Set when an expected-failures entry lists this check with this verdict: it then fails nothing. */
  readonly expected?: { readonly id: string; readonly reason: string };
}

export interface RunReport {
  readonly tool: { readonly name: string; readonly version: string };
  readonly runId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly target: {
    /** client: an agent's own client judged against platform doubles (`run --client-command`, docs/client-mode.md). */
    readonly kind: 'in-process' | 'live' | 'client';
    readonly description: string;
    /** The client command a client run judged (`run --client-command`). */
    readonly clientCommand?: string;
    /** The deployment's own names the run was given (`--service-name`, `--problems-url`, ...): what it mapped, and how. */
    readonly naming?: NamingRecord;
    /** The live platform's base URL (`run --base-url`). */
    readonly platformUrl?: string;
    /** The live agent checked (`run --agent-url`). */
    readonly agentUrl?: string;
    /** Where the deployment fetched the run's agent documents (the fixture host, or `--fixture-url`). */
    readonly fixtureUrl?: string;
    /** What the deployment writes where the spec writes Service (`run --service-name`). */
    readonly serviceName?: string;
  };
  /** The run's options as command-line words after `run` (no --only, --seed, --out, --json): a repeat adds its own. */
  readonly rerun?: readonly string[];
  /** A live run from one address: what pacing cost beside the throttle's floor (src/harness/failure-budget.ts). */
  readonly pacing?: PacingRecord;
  /** What a live run with --allow-spend paid, and what its cap refused. */
  readonly spend?: SpendRecord;
  readonly selection: readonly string[];
  readonly seed: number;
  /** false when the run was interrupted or the harness failed before every check reported. */
  readonly complete: boolean;
  readonly counts: Readonly<Record<Verdict, number>> & { readonly total: number };
  readonly results: readonly CheckResult[];
  readonly harnessErrors: readonly string[];
  /** `run --self-test` only: mutants tried, caught and survived, and each requirement's verdict. */
  readonly selfTest?: SelfTestSummary;
  /** `run --expected-failures FILE` only: the file and what became of each of its entries. */
  readonly expectedFailures?: { readonly file: string; readonly entries: readonly ExpectedOutcome[] };
}

/** A live run from one address: failing signed requests sent, the run's wall time, and the floor (failing / 29 minutes). */
export interface PacingRecord {
  readonly failingRequests: number;
  readonly wallTimeMs: number;
  readonly floorMs: number;
  /** Whether the deployment was seen to throttle (the run then paced). */
  readonly throttled: boolean;
  /** All the waits the pacer told requests, summed (requests of several suite files wait side by side, so it may pass the wall time). */
  readonly waitedMs: number;
}

export function countVerdicts(results: readonly CheckResult[]): RunReport['counts'] {
  const counts = { pass: 0, fail: 0, warn: 0, 'not-run': 0, error: 0, total: results.length };
  for (const r of results) counts[r.verdict]++;
  return counts;
}

export type RunVerdict = 'conformant' | 'not-conformant' | 'as-expected' | 'baseline-stale' | 'incomplete';

export const RUN_VERDICT_LABELS: Readonly<Record<RunVerdict, string>> = {
  conformant: 'CONFORMANT',
  'not-conformant': 'NOT CONFORMANT',
  'as-expected': 'NOT CONFORMANT, AS EXPECTED',
  'baseline-stale': 'EXPECTED FAILURES NOW PASS',
  incomplete: 'INCOMPLETE',
};

/** Whether a result fails the run: a MUST broken or a harness error, unless an expected-failures entry lists it. */
function failsRun(result: CheckResult): boolean {
  return (result.verdict === 'fail' || result.verdict === 'error') && result.expected === undefined;
}

/**
 * The headline. NOT CONFORMANT when a MUST check failed or a check errored, unless the expected failures list it;
 * EXPECTED FAILURES NOW PASS when an entry of that list is stale (the baseline must be updated); both exit 1. Else
 * INCOMPLETE when the run did not finish or no check ran (exit 3); else NOT CONFORMANT, AS EXPECTED when listed
 * failures remain, and CONFORMANT (both exit 0).
 */
export function runVerdict(report: RunReport): RunVerdict {
  const c = report.counts;
  if (report.results.some(failsRun)) return 'not-conformant';
  if (report.expectedFailures?.entries.some((e) => e.outcome === 'stale')) return 'baseline-stale';
  if (!report.complete || report.harnessErrors.length > 0 || c.total - c['not-run'] === 0) return 'incomplete';
  return report.results.some((r) => r.expected !== undefined) ? 'as-expected' : 'conformant';
}
