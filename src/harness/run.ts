import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureHost, type FixtureHost } from './fixture-host.js';
import { SpendLedger } from './spend-ledger.js';
import { FailurePacer, paceSummaryLine, pacingRecord, plannedFailingByFile, THROTTLE_WAIT_MS } from './failure-budget.js';
import { failingFirstSequencer, PACED_MIN_WORKERS } from './paced-order.js';
import { rerunWords } from './rerun.js';
import { plannedWaitSeconds } from './live-waits.js';
import { reachable } from './reachability.js';
import { RunStop } from './run-stop.js';
import { ConformanceReporter, type ProgressSink } from './reporter.js';
import { indexDrift, indexedSelection, readCheckIndex, CHECK_INDEX_FILE, type CheckIndex, type IndexedCheck } from './check-index.js';
import { selectedBy } from '../contract/check.js';
import type { DeploymentNames, RunContext, SelfTestConfig, TargetConfig } from '../contract/run-context.js';
import type { ClientModeOptions } from './client/run-client.js';
import { closestWord } from '../schema/closest-word.js';
import { countVerdicts, runVerdict, type CheckResult, type RunReport } from './results.js';
import { applyExpectedFailures, ExpectedFailuresError, parseExpectedFailures, type ExpectedFailures } from './expected-failures.js';
import { CATALOGUE } from './coverage.js';
import { notRunNeed } from './not-run-needs.js';
import { DEFAULT_MAX_BODY_BYTES, type LiveLimits } from './live-http.js';
import { reportedNaming, type NamingRecord } from './naming.js';
import {
  deadlineWords,
  defaultDeadlineMs,
  judgeSetupFaults,
  notRunResult,
  SetupFaults,
  selectedCheckCount,
  STOP_GRACE_MS,
  stoppedRunResults,
} from './run-guard.js';

export interface RunOptions {
  /** Sections (`7.3`, `7`), requirement ids (`AUTH-SIGNATURE-EXPIRED`) or check ids (`signed.valid-post`). */
  readonly only?: readonly string[];
  /** Sections, requirement ids and check ids not to run (`--skip`): their checks are reported not-run, skipped by --skip. */
  readonly skip?: readonly string[];
  /** A live agent for the agent suites (4.1-4.3, 5.4, 5.5, 7.2); without it they check the embedded reference agent. */
  readonly agentUrl?: string;
  /** A client the live agent knows at POST /auth/token (4.3), so the good-grant check can run. */
  readonly agentClient?: RunContext['agentClient'];
  readonly seed?: number;
  /** Where reports go; default `reports/` under the working directory. */
  readonly out?: string;
  /** Per-check timeout in milliseconds. */
  readonly timeoutMs?: number;
  /** `run --max-body`: the most bytes of an answer's body a live target may send (DEFAULT_MAX_BODY_BYTES); more fails the check. */
  readonly maxBodyBytes?: number;
  /**
   * `run --deadline`: the run ends by itself this many seconds after it started, with exit 3 and a report marked
   * incomplete. A live run (--base-url or --agent-url) has one without it (defaultDeadlineMs); an in-process run none.
   */
  readonly deadlineSeconds?: number;
  readonly progress?: ProgressSink;
  /** A live deployment; without it the run checks the embedded reference in-process. */
  readonly live?: {
    readonly baseUrl: string;
    /** `--also-base-url`: another instance of the same deployment (the fleet checks send to both). */
    readonly alsoBaseUrl?: string;
    /** The URL the deployment uses to reach the fixture host; default the host's own loopback URL. */
    readonly fixtureUrl?: string;
    readonly fixturePort?: number;
    readonly clientAddressHeader?: string;
    /** `--allow-spend --spend-cap N`: purchase checks may pay, at most N minor units in all. */
    readonly spendCapMinorUnits?: number;
    /** `--allow-waits`: checks of time-bound rules wait in real time; the deadline grows by their waits. */
    readonly allowWaits?: boolean;
    /** `--owner-key`: the operator's platform key the deployment accepts in X-Service-Owner-Key. */
    readonly ownerKey?: string;
    /** `--control-url`: the deployment's test control (docs/contracts.md section 5). */
    readonly controlUrl?: string;
    /** `--widget-host-url`: the deployment's widget host page, `{postId}` in it (docs/contracts.md section 6). */
    readonly widgetHostUrl?: string;
  };
  /**
   * `run --self-test`: besides the checks themselves, every check is tried against each mutant of the catalogue
   * naming one of its requirements (in-process only); the report carries the mutation score and survivors.
   */
  readonly selfTest?: SelfTestConfig;
  /** `run --chromium PATH`: the Chromium the browser checks of 4.6 and 7.1 launch. */
  readonly chromiumPath?: string;
  /** `run --expected-failures FILE`: the file's name and text (YAML or JSON), read before the run. */
  readonly expectedFailures?: { readonly file: string; readonly text: string };
  /**
   * `run --service-name`, `--problems-url`, `--payment-problems-url`, `--terms-url`: the names the deployment writes
   * where the spec writes Service or a placeholder. The run sends, signs and reads with them; the report shows them.
   */
  readonly deployment?: DeploymentNames;
  /**
   * `run --client-command CMD` (client mode, docs/client-mode.md): the agent's own client is judged against a platform
   * double per case instead of a server; `--client-self-test` judges client mode itself with the reference client.
   */
  readonly client?: ClientModeOptions;
  /** The folder a client command runs in; the working directory by default. */
  readonly cwd?: string;
}

export type RunExitCode = 0 | 1 | 2 | 3;

export interface RunOutcome {
  readonly exitCode: RunExitCode;
  readonly report: RunReport | null;
  readonly runDir: string | null;
  /** Set when the run could not be made (empty selection, harness failure). */
  readonly problem?: string;
}

/** The package root: suites/ and vectors/ ship beside src/ and dist/. */
const PACKAGE_ROOT = fileURLToPath(new URL(existsSync(new URL('../../suites', import.meta.url)) ? '../..' : '../../..', import.meta.url));
const SUITES = join(PACKAGE_ROOT, 'suites');
const SECTION = /^\d+(\.\d+)*$/;

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Suite files for the selected sections (a file `7.3-x.test.ts` belongs to sections 7 and 7.3); all without any. */
function suiteFiles(sections: readonly string[]): string[] {
  const files = readdirSync(SUITES).filter((f) => f.endsWith('.test.ts'));
  if (sections.length === 0) return files.map((f) => join(SUITES, f));
  return files.filter((f) => sections.some((s) => f.startsWith(`${s}-`) || f.startsWith(`${s}.`))).map((f) => join(SUITES, f));
}

type Plan =
  | {
      readonly files: readonly string[];
      readonly selection: readonly string[];
      /** Checks of the selection that `--skip` leaves out: not declared, reported not-run. */
      readonly skipped?: readonly IndexedCheck[];
    }
  | { readonly problem: string };

/** The reason a check left out by `--skip` is reported not-run with. */
const SKIP_REASON = 'skipped by --skip';

/** Checks outside the sections' own files that name a requirement of one of the sections. */
function checksOfSectionsElsewhere(index: CheckIndex, sections: readonly string[], sectionFiles: readonly string[]) {
  const own = new Set(sectionFiles.map((f) => relative(PACKAGE_ROOT, f)));
  const inSections = (section: string) => sections.some((s) => section === s || section.startsWith(`${s}.`));
  const requirements = new Set(CATALOGUE.filter((r) => inSections(r.section)).map((r) => r.id));
  return index.checks.filter((c) => !own.has(c.file) && c.requirements.some((r) => requirements.has(r)));
}

/**
 * Which suite files a run loads, and which checks of them it declares. A section selects its files whole, and the
 * checks of other files that name a requirement of the section; a requirement id or check id selects the checks that
 * carry it, found in suites/checks.json, so only their files load. A selection that names nothing known is refused
 * before any file loads.
 */
export function planRun(only: readonly string[], index: CheckIndex | undefined, skip: readonly string[] = []): Plan {
  const plan = planOnly(only, index);
  if ('problem' in plan || skip.length === 0) return plan;
  if (!index) return { problem: `--skip needs ${CHECK_INDEX_FILE}, which is missing (npm run vectors writes it)` };
  const skippedIds = new Set<string>();
  for (const word of skip) {
    const named = checksNamed(index, word);
    if (typeof named === 'string') return { problem: `--skip ${word}: ${named}` };
    for (const c of named) skippedIds.add(c.id);
  }
  const planned = plannedChecks(plan, index);
  const kept = planned.filter((c) => !skippedIds.has(c.id));
  const skipped = planned.filter((c) => skippedIds.has(c.id));
  if (skipped.length === 0) return plan;
  if (kept.length === 0) return { problem: `--skip ${skip.join(' ')} leaves none of the ${planned.length} selected checks to run` };
  return { files: [...new Set(kept.map((c) => c.file))].map((f) => join(PACKAGE_ROOT, f)), selection: kept.map((c) => c.id), skipped };
}

/** The checks of the index a plan runs: those of its files its selection takes. */
function plannedChecks(plan: { readonly files: readonly string[]; readonly selection: readonly string[] }, index: CheckIndex): IndexedCheck[] {
  const files = new Set(plan.files.map((f) => relative(PACKAGE_ROOT, f)));
  return index.checks.filter((c) => files.has(c.file) && selectedBy(plan.selection, c));
}

/** The checks one word of `--skip` names, as `--only` would select them; or what is wrong with the word. */
function checksNamed(index: CheckIndex, word: string): IndexedCheck[] | string {
  if (SECTION.test(word)) {
    const files = suiteFiles([word]);
    if (files.length === 0) return `no suite covers section ${word}`;
    const own = new Set(files.map((f) => relative(PACKAGE_ROOT, f)));
    return [...index.checks.filter((c) => own.has(c.file)), ...checksOfSectionsElsewhere(index, [word], files)];
  }
  const known = [...CATALOGUE.map((r) => r.id), ...index.checks.map((c) => c.id)];
  if (known.includes(word)) return indexedSelection(index, [word]);
  const near = closestWord(word, known);
  return `${word} is neither a section, a requirement id nor a check id${near ? ` (did you mean ${near}?)` : ''}`;
}

/**
 * The checks a run with this `--only` and `--skip` would run, from suites/checks.json (`list` prints them).
 */
export function selectedChecks(
  only: readonly string[],
  skip: readonly string[] = [],
): { readonly checks: readonly IndexedCheck[] } | { readonly problem: string } {
  const index = readCheckIndex(PACKAGE_ROOT);
  if (!index) return { problem: `${CHECK_INDEX_FILE} is missing (npm run vectors writes it)` };
  const plan = planRun(only, index, skip);
  return 'problem' in plan ? plan : { checks: plannedChecks(plan, index) };
}

function planOnly(only: readonly string[], index: CheckIndex | undefined): Plan {
  const sections = only.filter((o) => SECTION.test(o));
  const ids = only.filter((o) => !SECTION.test(o));
  const sectionFiles = sections.length ? suiteFiles(sections) : [];
  if (sections.length && sectionFiles.length === 0) return { problem: `no suite covers section ${sections.join(', ')}` };
  // A section's rules are also judged by checks in other files (the agent card of 2.4 by 4.3): they join the selection.
  const elsewhere = index && sections.length ? checksOfSectionsElsewhere(index, sections, sectionFiles) : [];
  if (ids.length === 0 && elsewhere.length === 0) return { files: sections.length ? sectionFiles : suiteFiles([]), selection: [] };
  if (!index) return { files: suiteFiles(sections), selection: ids };
  const known = new Set([...CATALOGUE.map((r) => r.id), ...index.checks.map((c) => c.id)]);
  for (const id of ids) {
    if (known.has(id)) continue;
    const near = closestWord(id, [...known]);
    return { problem: `${id} is neither a requirement id nor a check id${near ? ` (did you mean ${near}?)` : ''}; the selection selects no check` };
  }
  const named = indexedSelection(index, ids);
  const byId = [...named, ...elsewhere];
  if (ids.length && named.length === 0)
    return { problem: `the selection ${ids.join(' ')} selects no check: no check names ${ids.length > 1 ? 'these requirements' : 'this requirement'} yet` };
  const inSections = sectionFiles.map((f) => relative(PACKAGE_ROOT, f));
  const selection = [...ids, ...elsewhere.map((c) => c.id), ...index.checks.filter((c) => inSections.includes(c.file)).map((c) => c.id)];
  const files = [...new Set([...byId.map((c) => c.file), ...inSections])].map((f) => join(PACKAGE_ROOT, f));
  return { files, selection };
}

async function judgedSelfTest(
  config: SelfTestConfig,
  results: RunReport['results'],
  reporter: ConformanceReporter,
  selection: readonly string[],
  wallTimeMs: number,
) {
  const [{ judgeSelfTest }, { selfTestMutants }, { UNTESTABLE }, { mutantDepth }, { VARIANTS }] = await Promise.all([
    import('./self-test.js'),
    import('./self-test-config.js'),
    import('../mutants/untestable.js'),
    import('../mutants/types.js'),
    import('../variants/catalogue.js'),
  ]);
  const mutants = selfTestMutants(config).map((m) => ({ ...m, depth: mutantDepth(m) }));
  return judgeSelfTest({
    results,
    trials: reporter.trials,
    mutants,
    variants: VARIANTS,
    variantTrials: reporter.variantTrials,
    catalogue: CATALOGUE,
    untestable: UNTESTABLE,
    selection,
    wallTimeMs,
  });
}

/** What the run checked, in words a report heads with: the platform, and the agent when one is named. */
function targetDescription(target: TargetConfig, agentUrl: string | undefined): string {
  const platform =
    target.kind === 'live'
      ? `platform ${target.baseUrl}${target.alsoBaseUrl ? ` and its instance ${target.alsoBaseUrl}` : ''} (fixture host ${target.fixture.url})`
      : 'embedded reference platform';
  return agentUrl ? `${platform}; agent ${agentUrl}` : target.kind === 'live' ? platform : `${platform} and its reference agent`;
}

/** Waits for `promise` at most `ms`; true when it settled in time. Its rejection is swallowed: the caller only waits. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}

export async function runConformance(options: RunOptions = {}): Promise<RunOutcome> {
  // One stop for the whole run, from its plan to its written report (src/harness/run-stop.ts).
  const stop = new RunStop(options.progress?.notice?.bind(options.progress));
  try {
    return await runSuites(options, stop);
  } finally {
    stop.dispose();
  }
}

async function runSuites(options: RunOptions, stop: RunStop): Promise<RunOutcome> {
  const skip = options.skip ?? [];
  if (skip.length && (options.selfTest || options.client))
    return {
      exitCode: 2,
      report: null,
      runDir: null,
      problem: '--skip goes with a run of the suites; the self-test and client mode judge their whole selection',
    };
  if (options.client) return runClientRun(options, options.client);
  // Loaded before any check runs, not once they end: a terminal's Ctrl-C signals the whole process group, and a loader
  // that transforms modules in a child process of its own (tsx's esbuild) is gone by the time the report is written.
  const reportWriter = import('./write-reports.js');
  const started = Date.now();
  const only = options.only ?? [];
  if (options.selfTest && (options.live || options.agentUrl))
    return { exitCode: 2, report: null, runDir: null, problem: 'the self-test runs against the embedded reference only; drop --base-url and --agent-url' };
  const index = readCheckIndex(PACKAGE_ROOT);
  const planned = planRun(only, index, skip);
  if ('problem' in planned) return { exitCode: 2, report: null, runDir: null, problem: planned.problem };
  let expected: ExpectedFailures | undefined;
  try {
    expected = options.expectedFailures && readExpectedFailures(options.expectedFailures, index);
  } catch (error) {
    if (error instanceof ExpectedFailuresError) return { exitCode: 2, report: null, runDir: null, problem: error.message };
    throw error;
  }

  // The run's deadline: given (--deadline), or for a live run derived from its checks and the per-request timeout.
  const checkCount =
    selectedCheckCount(
      index,
      planned.files.map((f) => relative(PACKAGE_ROOT, f)),
      planned.selection,
    ) ?? index?.checks.length;
  if (checkCount !== undefined) options.progress?.selected?.(checkCount + (planned.skipped?.length ?? 0));
  const liveRun = Boolean(options.live || options.agentUrl);
  // Checks that wait in real time (--allow-waits) get their waits on top of the deadline.
  const waitsS = options.live?.allowWaits
    ? plannedWaitSeconds(
        PACKAGE_ROOT,
        index,
        planned.files.map((f) => relative(PACKAGE_ROOT, f)),
        planned.selection,
      )
    : 0;
  const deadlineMs =
    options.deadlineSeconds !== undefined
      ? options.deadlineSeconds * 1000
      : liveRun
        ? defaultDeadlineMs(checkCount ?? 0, options.timeoutMs) + waitsS * 1000
        : undefined;
  const deadlineReason =
    deadlineMs === undefined
      ? ''
      : options.deadlineSeconds !== undefined
        ? `its deadline passed: ${options.deadlineSeconds} s, set by --deadline`
        : `its deadline passed: ${Math.round(deadlineMs / 1000)} s = ${deadlineWords(checkCount ?? 0, options.timeoutMs)}${waitsS ? ` + ${waitsS} s of waits (--allow-waits)` : ''}; --deadline SECONDS changes it`;
  const remaining = () => (deadlineMs === undefined ? Number.POSITIVE_INFINITY : deadlineMs - (Date.now() - started));

  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${seed.toString(16)}`;
  let fixture: FixtureHost | undefined;
  let pacer: FailurePacer | undefined;
  let spendLedger: SpendLedger | undefined;
  let target: TargetConfig = { kind: 'in-process' };
  stop.deadline(deadlineMs, deadlineReason);
  if (options.live) {
    for (const url of [options.live.baseUrl, ...(options.live.alsoBaseUrl === undefined ? [] : [options.live.alsoBaseUrl])]) {
      const answer = await reachable(url, Math.max(1, Math.min(5000, remaining())));
      // The deadline may pass while the first request waits (a target that never answers, a deadline of a few seconds).
      if (remaining() <= 100) stop.stop(deadlineReason);
      else if (!answer.ok) return { exitCode: 3, report: null, runDir: null, problem: `target unreachable: ${answer.why}` };
      else if (answer.fault) options.progress?.notice?.(`the target answered its first request with a fault, which the checks will report: ${answer.fault}`);
      if (stop.reason) break;
    }
  }
  // From one address: the failing signed requests each suite file is planned to send (paced, so those files start first).
  const failingByFile =
    options.live && !options.live.clientAddressHeader
      ? plannedFailingByFile(
          PACKAGE_ROOT,
          index,
          planned.files.map((f) => relative(PACKAGE_ROOT, f)),
          planned.selection,
          { allowWaits: options.live.allowWaits === true, ownerKey: options.live.ownerKey, control: options.live.controlUrl !== undefined },
        )
      : undefined;
  if (options.live && !stop.reason) {
    // From one address the run's failing requests are paced by one pacer, which every suite file asks through the fixture host.
    pacer = new FailurePacer(
      () => Date.now(),
      (line) => options.progress?.notice?.(line),
      [...(failingByFile?.values() ?? [])].reduce((a, b) => a + b, 0),
    );
    const pace = pacer;
    // The cap holds for the whole run: suite files in several workers take from this one allowance.
    const ledger = options.live.spendCapMinorUnits === undefined ? undefined : new SpendLedger(options.live.spendCapMinorUnits);
    spendLedger = ledger;
    try {
      fixture = await startFixtureHost({
        port: options.live.fixturePort ?? 0,
        ...(options.live.fixtureUrl ? { publicUrl: options.live.fixtureUrl } : {}),
        pacer: (message) => pace.handle(message),
        ...(ledger ? { spender: (message: unknown) => ledger.handle(message) } : {}),
      });
    } catch (error) {
      const why = fixturePortProblem(error, options.live.fixturePort);
      if (why === undefined) throw error;
      return { exitCode: 2, report: null, runDir: null, problem: why };
    }
    options.progress?.notice?.(
      `target ${options.live.baseUrl}; agent documents are served at ${fixture.url}/r/${runId}/… (the deployment must be able to fetch from ${fixture.url})`,
    );
    target = {
      kind: 'live',
      baseUrl: options.live.baseUrl,
      ...(options.live.alsoBaseUrl === undefined ? {} : { alsoBaseUrl: options.live.alsoBaseUrl }),
      fixture: { url: fixture.url, adminUrl: fixture.adminUrl, token: fixture.adminToken },
      runId,
      ...(options.live.clientAddressHeader ? { clientAddressHeader: options.live.clientAddressHeader } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.live.spendCapMinorUnits === undefined ? {} : { spend: { capMinorUnits: options.live.spendCapMinorUnits } }),
      ...(options.live.allowWaits ? { allowWaits: true } : {}),
      ...(options.live.ownerKey === undefined ? {} : { ownerKey: options.live.ownerKey }),
      ...(options.live.controlUrl === undefined ? {} : { controlUrl: options.live.controlUrl }),
      ...(options.live.widgetHostUrl === undefined ? {} : { widgetHostUrl: options.live.widgetHostUrl }),
    };
    // One signed request first: a deployment that cannot read the fixture host would fail every signed check for it.
    // A signal, the launcher's end or the deadline during it stop the run as they would during the checks.
    const preflight = await stop.until(preflightFixtures(target, fixture.url, options.deployment));
    if ('stopped' in preflight) {
      // The stop said so already; the run goes on to its report.
    } else if (!preflight.ok) {
      await fixture.close();
      return { exitCode: 3, report: null, runDir: null, problem: preflight.problem };
    } else if (preflight.note) options.progress?.notice?.(preflight.note);
  }
  const context: RunContext = {
    target,
    seed,
    selection: planned.selection,
    ...(options.agentUrl ? { agentUrl: options.agentUrl } : {}),
    ...(options.agentClient ? { agentClient: options.agentClient } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.selfTest ? { selfTest: options.selfTest } : {}),
    ...(options.deployment ? { deployment: options.deployment } : {}),
    ...(options.chromiumPath === undefined ? {} : { chromiumPath: options.chromiumPath }),
  };
  const limits: LiveLimits = { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
  const startedAt = new Date(started).toISOString();
  const reporter = new ConformanceReporter(PACKAGE_ROOT, options.progress);
  const setupFaults = new SetupFaults(PACKAGE_ROOT);
  const harnessErrors: string[] = [];
  const runChecks = async () => {
    const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    // vitest loads only when a run starts: the library's root export and the other commands never load it.
    const { createVitest, BaseSequencer } = await import('vitest/node');
    // While paced requests wait, the files whose requests are not expected to fail run beside them.
    const paced = failingByFile?.size
      ? {
          sequence: { sequencer: failingFirstSequencer(BaseSequencer, PACKAGE_ROOT, failingByFile) },
          maxWorkers: Math.max(PACED_MIN_WORKERS, availableParallelism() - 1),
        }
      : {};
    const vitest = await createVitest('test', {
      root: PACKAGE_ROOT,
      config: false,
      watch: false,
      include: ['suites/**/*.test.ts'],
      // Suite files share one module graph per worker: loading the reference once is most of a run's cost.
      isolate: false,
      reporters: [reporter, setupFaults],
      provide: { conformance: context, conformanceLimits: limits },
      // From one address any check may meet the throttle and wait out its window twice: room for that, unless --timeout says.
      ...(options.timeoutMs
        ? { testTimeout: options.timeoutMs }
        : options.live && !options.live.clientAddressHeader
          ? { testTimeout: 2 * THROTTLE_WAIT_MS + 30_000 }
          : {}),
      passWithNoTests: true,
      ...paced,
    });
    // vitest's own signal handlers exit the process at once; the run's handler below cancels and reports instead.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) if (!signalListeners[signal].includes(listener)) process.off(signal, listener);
    }
    // A run told to stop (a signal, its launcher gone, its deadline) waits a little for its checks to wind down (each
    // stops its requests when cancelled), then stops waiting: it always writes its report.
    let stopWaiting!: () => void;
    const stopped = new Promise<void>((resolve) => (stopWaiting = resolve));
    let graceTimer: NodeJS.Timeout | undefined;
    // An interrupted run stops its checks and still writes a report, marked incomplete; a second signal kills.
    const forget = stop.onStop(() => {
      void vitest.cancelCurrentRun('keyboard-input');
      graceTimer = setTimeout(stopWaiting, STOP_GRACE_MS);
    });
    try {
      let failure: { error: unknown } | undefined;
      const running = vitest.start([...planned.files]).then(
        () => undefined,
        (error: unknown) => void (failure = { error }),
      );
      await Promise.race([running, stopped]);
      if (failure) throw failure.error;
    } finally {
      forget();
      clearTimeout(graceTimer);
      // A worker still busy with a target is stopped with the pool; the run does not wait on it for long.
      if (!(await settledWithin(vitest.close(), STOP_GRACE_MS))) harnessErrors.push('vitest did not close within 10 s; its workers were left to end');
    }
  };
  try {
    // The deadline may pass before any check starts (the target took it all to answer its first request).
    if (!stop.reason) await runChecks();
  } catch (error) {
    if (!stop.reason) harnessErrors.push(error instanceof Error ? error.message : String(error));
  } finally {
    await fixture?.close();
  }
  // From one address: what pacing cost, beside its floor (failing requests / 29 a minute).
  const pacing = pacer && options.live && !options.live.clientAddressHeader ? pacingRecord(pacer.summary(), Date.now() - started) : undefined;
  if (pacer && pacing) options.progress?.notice?.(paceSummaryLine(pacer.summary(), pacing.wallTimeMs));
  // Faults around the checks (a suite's setup): a live target's are its own, and fail the checks they left unrun.
  const judged = judgeSetupFaults(setupFaults.faults, reporter.results, reporter.errors, target.kind === 'live' || options.agentUrl !== undefined);
  harnessErrors.push(...judged.harnessErrors);
  // A stop after the checks ended (while the workers closed) still marks the report: a signal never goes unanswered.
  const interrupted = stop.reason;
  if (interrupted) harnessErrors.unshift(`the run was interrupted (${interrupted}); checks that had not finished are reported not run`);

  // Checks --skip left out were never declared: they are reported not-run, saying so.
  const skippedResults = (planned.skipped ?? []).map((c) => notRunResult(c, SKIP_REASON));
  const ranAndSkipped = [...judged.results, ...skippedResults];
  // A stopped run lists every check it selected: those no file reached are not run, saying why.
  const selected = index && !('problem' in planned) ? plannedChecks(planned, index) : [];
  const stopped = interrupted ? stoppedRunResults(ranAndSkipped, interrupted, selected) : ranAndSkipped;
  const baseline = expected && applyExpectedFailures(stopped, expected);
  const results = withNeeds(baseline ? baseline.results : stopped);
  // A whole run sees every check: the index that narrows selected runs must list exactly these.
  if (only.length === 0 && skip.length === 0 && reporter.finished && !interrupted) {
    const drift = index ? indexDrift(index, results) : [`${CHECK_INDEX_FILE} is missing`];
    if (drift.length)
      harnessErrors.push(
        `${CHECK_INDEX_FILE} is out of date (run npm run vectors): ${drift.slice(0, 5).join('; ')}${drift.length > 5 ? `; and ${drift.length - 5} more` : ''}`,
      );
  }
  // The mutant catalogue composes whole reference deployments: loaded only by a run that needs it.
  const selfTest = options.selfTest ? await judgedSelfTest(options.selfTest, results, reporter, only, Date.now() - started) : undefined;
  const report: RunReport = {
    tool: { name: 'agent-platform-conformance', version: packageVersion() },
    runId,
    startedAt,
    finishedAt: new Date().toISOString(),
    target: {
      kind: target.kind,
      description: targetDescription(target, options.agentUrl),
      ...namingOf(options.deployment),
      ...(target.kind === 'live' ? { platformUrl: target.baseUrl, fixtureUrl: target.fixture.url } : {}),
      ...(options.agentUrl ? { agentUrl: options.agentUrl } : {}),
      ...(options.deployment?.serviceName ? { serviceName: options.deployment.serviceName } : {}),
    },
    rerun: rerunWords(options),
    ...(pacing ? { pacing } : {}),
    ...(spendLedger ? { spend: spendLedger.summary() } : {}),
    selection: only,
    seed,
    complete: reporter.finished && harnessErrors.length === 0,
    counts: countVerdicts(results),
    results,
    harnessErrors,
    ...(selfTest ? { selfTest } : {}),
    ...(expected && baseline ? { expectedFailures: { file: expected.file, entries: baseline.outcomes } } : {}),
  };
  const { writeReports } = await reportWriter;
  const runDir = writeReports(options.out ?? 'reports', report);
  if (harnessErrors.length) return { exitCode: 3, report, runDir, problem: harnessErrors[0] };
  if (report.counts.total === 0) return { exitCode: 2, report, runDir, problem: `the selection ${only.join(' ') || '(all)'} selects no check` };
  if (report.counts.total === report.counts['not-run']) {
    // Nothing was judged, so nothing may pass: say why the checks could not run, and what would let them.
    const reasons = [...new Set(results.map((r) => r.message ?? 'no reason given'))];
    return {
      exitCode: 2,
      report,
      runDir,
      problem: `none of the ${report.counts.total} selected checks could run; ${reasons.length > 1 ? `${reasons.length} reasons, first` : 'the reason'}: ${reasons[0]}`,
    };
  }
  if (selfTest && !selfTest.passed)
    return { exitCode: 1, report, runDir, problem: `self-test failed: ${selfTest.problems.length} problem(s), first: ${selfTest.problems[0]}` };
  const verdict = runVerdict(report);
  return { exitCode: verdict === 'not-conformant' || verdict === 'baseline-stale' ? 1 : 0, report, runDir };
}

/**
 * Client mode: its cases run one after another in this process and hand their results to the same report writer
 * (src/harness/client/run-client.ts says why vitest has no part in it). Loaded only by a client run.
 */
async function runClientRun(options: RunOptions, client: ClientModeOptions): Promise<RunOutcome> {
  const [{ runClientMode }, { writeReports }] = await Promise.all([import('./client/run-client.js'), import('./write-reports.js')]);
  return runClientMode({
    client,
    only: options.only ?? [],
    cwd: options.cwd ?? process.cwd(),
    packageVersion: packageVersion(),
    rerun: rerunWords(options),
    writeReports: (report) => writeReports(options.out ?? 'reports', report),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.deadlineSeconds === undefined ? {} : { deadlineSeconds: options.deadlineSeconds }),
    ...(options.expectedFailures === undefined ? {} : { expectedFailures: options.expectedFailures }),
    ...(options.progress === undefined ? {} : { progress: options.progress }),
  });
}

/** Each not-run result with what would let it run (the report's "what to enable next" groups by it). */
function withNeeds(results: readonly CheckResult[]): CheckResult[] {
  return results.map((r) => (r.verdict === 'not-run' ? { ...r, needs: notRunNeed(r.message).id } : r));
}

/** The report's record of the deployment's names, when the run was given any. */
function namingOf(names: DeploymentNames | undefined): { naming?: NamingRecord } {
  const naming = reportedNaming(names);
  return naming ? { naming } : {};
}

/** The expected-failures file, every id checked against the suite's checks and the catalogue's requirements. */
function readExpectedFailures(source: { readonly file: string; readonly text: string }, index: CheckIndex | undefined): ExpectedFailures {
  const checks = new Set(index?.checks.map((c) => c.id) ?? []);
  return parseExpectedFailures(source.text, source.file, { checks, requirements: new Set(CATALOGUE.map((r) => r.id)) });
}

/** The preflight of a live run (src/harness/fixture-preflight.ts), loaded only by a live run. */
async function preflightFixtures(config: TargetConfig, fixtureUrl: string, deployment: DeploymentNames | undefined) {
  if (config.kind !== 'live') return { ok: true as const };
  const [{ fixturePreflight }, { LiveTarget }] = await Promise.all([import('./fixture-preflight.js'), import('./targets/live.js')]);
  const target = new LiveTarget({ ...config, ...(deployment ? { deployment } : {}) });
  try {
    return await fixturePreflight(target, fixtureUrl);
  } catch (error) {
    // A target that answers with no readable HTTP (garbage, a reset, a body past --max-body, a stall) shows that fault
    // to every check, which judges it; the preflight only stops a run over a fixture host the deployment cannot read.
    const why = error instanceof Error ? error.message : String(error);
    return { ok: true as const, note: `the preflight's signed request got no answer it could read (${why}); the checks will judge the target` };
  } finally {
    await target.close();
  }
}

/** The fixture host's port cannot be had: an input error naming the option, not a harness error. */
function fixturePortProblem(error: unknown, port: number | undefined): string | undefined {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return `--fixture-port ${port}: the port is in use; name a free one, or leave the option out for any free port`;
  if (code === 'EACCES') return `--fixture-port ${port}: this user may not listen on it; name a port above 1023`;
  return undefined;
}
