import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { startFixtureHost, type FixtureHost } from './fixture-host.js';
import { reachable } from './reachability.js';
import { ConformanceReporter, type ProgressSink } from './reporter.js';
import { CHECK_TIMEOUT_ENV, TARGET_ENV, type TargetConfig } from './target-config.js';
import { countVerdicts, type RunReport } from './results.js';
import { writeReports } from './write-reports.js';
import { CATALOGUE } from './coverage.js';
import { judgeSelfTest } from './self-test.js';
import { SELF_TEST_ENV, selfTestMutants, type SelfTestConfig } from './self-test-config.js';
import { UNTESTABLE } from '../mutants/untestable.js';

export interface RunOptions {
  /** Sections (`7.3`, `7`) or requirement ids (`AUTH-SIGNATURE-EXPIRED`). */
  readonly only?: readonly string[];
  readonly seed?: number;
  /** Where reports go; default `reports/` under the working directory. */
  readonly out?: string;
  /** Per-check timeout in milliseconds. */
  readonly timeoutMs?: number;
  readonly progress?: ProgressSink;
  /** A live deployment; without it the run checks the embedded reference in-process. */
  readonly live?: {
    readonly baseUrl: string;
    /** The URL the deployment uses to reach the fixture host; default the host's own loopback URL. */
    readonly fixtureUrl?: string;
    readonly fixturePort?: number;
    readonly clientAddressHeader?: string;
    /** `--allow-spend --spend-cap N`: purchase checks may pay, at most N minor units in all. */
    readonly spendCapMinorUnits?: number;
  };
  /**
   * `run --self-test`: besides the checks themselves, every check is tried against each mutant of the catalogue
   * naming one of its requirements (in-process only); the report carries the mutation score and survivors.
   */
  readonly selfTest?: SelfTestConfig;
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
export const PACKAGE_ROOT = fileURLToPath(new URL(existsSync(new URL('../../suites', import.meta.url)) ? '../..' : '../../..', import.meta.url));
const SUITES = join(PACKAGE_ROOT, 'suites');
const SECTION = /^\d+(\.\d+)*$/;

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Suite files for the selected sections (a file `7.3-x.test.ts` belongs to sections 7 and 7.3). */
export function suiteFiles(sections: readonly string[]): string[] {
  const files = readdirSync(SUITES).filter((f) => f.endsWith('.test.ts'));
  if (sections.length === 0) return files.map((f) => join(SUITES, f));
  return files.filter((f) => sections.some((s) => f.startsWith(`${s}-`) || f.startsWith(`${s}.`))).map((f) => join(SUITES, f));
}

/**
 * The process that started the run (npx, a shell, a CI step) may be stopped while this one is not: `npx` dies of
 * a SIGTERM sent to it alone and leaves the run orphaned, with nobody waiting for its answer. Seen from here the
 * parent process changes; the run then stops as if it had been sent SIGTERM, and writes its incomplete report.
 */
function watchLauncher(interrupt: (reason: string) => () => void): NodeJS.Timeout {
  const launcher = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== launcher) interrupt(`the process that started it, pid ${launcher}, ended`)();
  }, 500);
  timer.unref();
  return timer;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function runConformance(options: RunOptions = {}): Promise<RunOutcome> {
  const only = options.only ?? [];
  const sections = only.filter((o) => SECTION.test(o));
  const ids = only.filter((o) => !SECTION.test(o));
  const files = suiteFiles(sections);
  if (options.selfTest && options.live) return { exitCode: 2, report: null, runDir: null, problem: 'the self-test runs against the embedded reference only; drop --base-url' };
  if (files.length === 0) return { exitCode: 2, report: null, runDir: null, problem: `no suite covers section ${sections.join(', ')}` };

  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${seed.toString(16)}`;
  let fixture: FixtureHost | undefined;
  let target: TargetConfig = { kind: 'in-process' };
  if (options.live) {
    const answer = await reachable(options.live.baseUrl);
    if (!answer.ok) return { exitCode: 3, report: null, runDir: null, problem: `target unreachable: ${answer.why}` };
    fixture = await startFixtureHost({ port: options.live.fixturePort ?? 0, ...(options.live.fixtureUrl ? { publicUrl: options.live.fixtureUrl } : {}) });
    options.progress?.notice?.(
      `target ${options.live.baseUrl}; agent documents are served at ${fixture.url}/r/${runId}/… (the deployment must be able to fetch from ${fixture.url})`,
    );
    target = {
      kind: 'live',
      baseUrl: options.live.baseUrl,
      fixture: { url: fixture.url, adminUrl: fixture.adminUrl, token: fixture.adminToken },
      runId,
      ...(options.live.clientAddressHeader ? { clientAddressHeader: options.live.clientAddressHeader } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.live.spendCapMinorUnits === undefined ? {} : { spend: { capMinorUnits: options.live.spendCapMinorUnits } }),
    };
  }
  process.env[TARGET_ENV] = JSON.stringify(target);
  if (options.selfTest) process.env[SELF_TEST_ENV] = JSON.stringify(options.selfTest);
  else delete process.env[SELF_TEST_ENV];
  const started = Date.now();
  if (options.timeoutMs) process.env[CHECK_TIMEOUT_ENV] = String(options.timeoutMs);
  else delete process.env[CHECK_TIMEOUT_ENV];
  const startedAt = new Date().toISOString();
  const reporter = new ConformanceReporter(PACKAGE_ROOT, options.progress, ids);
  const harnessErrors: string[] = [];
  let interrupted: string | undefined;
  process.env.CONFORMANCE_SEED = String(seed);
  try {
    const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const vitest = await createVitest('test', {
      root: PACKAGE_ROOT,
      config: false,
      watch: false,
      include: ['suites/**/*.test.ts'],
      reporters: [reporter],
      ...(ids.length ? { testNamePattern: new RegExp(`\\[[^\\]]*\\b(${ids.map(escapeRegExp).join('|')})\\b[^\\]]*\\]`) } : {}),
      ...(options.timeoutMs ? { testTimeout: options.timeoutMs } : {}),
      passWithNoTests: true,
    });
    // vitest's own signal handlers exit the process at once; the run's handler below cancels and reports instead.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) if (!signalListeners[signal].includes(listener)) process.off(signal, listener);
    }
    // An interrupted run stops its checks and still writes a report, marked incomplete; a second signal kills.
    const interrupt = (reason: string) => () => {
      if (interrupted) return;
      interrupted = reason;
      options.progress?.notice?.(`stopping: the run was interrupted (${reason}); writing the incomplete report`);
      void vitest.cancelCurrentRun('keyboard-input');
    };
    const onInt = interrupt('SIGINT');
    const onTerm = interrupt('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    const orphaned = watchLauncher(interrupt);
    try {
      await vitest.start(files);
    } finally {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      clearInterval(orphaned);
      await vitest.close();
    }
  } catch (error) {
    harnessErrors.push(error instanceof Error ? error.message : String(error));
  } finally {
    await fixture?.close();
  }
  harnessErrors.push(...reporter.errors);
  if (interrupted) harnessErrors.unshift(`the run was interrupted (${interrupted}); checks that had not finished are missing`);

  const results = reporter.results;
  const selfTest = options.selfTest
    ? judgeSelfTest({ results, trials: reporter.trials, mutants: selfTestMutants(options.selfTest), catalogue: CATALOGUE, untestable: UNTESTABLE, selection: only, wallTimeMs: Date.now() - started })
    : undefined;
  const report: RunReport = {
    tool: { name: 'agent-platform-conformance', version: packageVersion() },
    runId,
    startedAt,
    finishedAt: new Date().toISOString(),
    target: options.live
      ? { kind: 'live', description: `${options.live.baseUrl} (fixture host ${target.kind === 'live' ? target.fixture.url : ''})` }
      : { kind: 'in-process', description: 'embedded reference platform' },
    selection: only,
    seed,
    complete: reporter.finished && harnessErrors.length === 0,
    counts: countVerdicts(results),
    results,
    harnessErrors,
    ...(selfTest ? { selfTest } : {}),
  };
  const runDir = writeReports(options.out ?? 'reports', report);
  if (harnessErrors.length) return { exitCode: 3, report, runDir, problem: harnessErrors[0] };
  if (report.counts.total === 0 || report.counts.total === report.counts['not-run']) {
    return { exitCode: 2, report, runDir, problem: `the selection ${only.join(' ') || '(all)'} selects no check` };
  }
  if (selfTest && !selfTest.passed) return { exitCode: 1, report, runDir, problem: `self-test failed: ${selfTest.problems.length} problem(s), first: ${selfTest.problems[0]}` };
  return { exitCode: report.counts.fail > 0 || report.counts.error > 0 ? 1 : 0, report, runDir };
}
