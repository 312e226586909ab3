import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_RULE_LIST, type ClientRule } from '../../client-judge/rules.js';
import { SignerJudge } from '../../client-judge/signer.js';
import { testToken } from '../../contract/test-tokens.js';
import { createUndiciFetcher } from '../../fetch/undici-fetcher.js';
import { CLIENT_VARIABLES } from '../../reference/client/environment.js';
import { closestWord } from '../../schema/closest-word.js';
import { CASE_WALLET_KEY, CLIENT_CASES, type ClientCase } from '../../scenarios/clients/cases.js';
import { CLIENT_REQUIREMENT_LIST } from '../../spec/client-requirements.js';
import { applyExpectedFailures, ExpectedFailuresError, parseExpectedFailures, type ExpectedFailures } from '../expected-failures.js';
import type { ProgressSink } from '../reporter.js';
import { countVerdicts, runVerdict, type CheckResult, type RunReport } from '../results.js';
import { createPlatformDouble, listenPlatformDouble } from './double.js';
import { caseBuyer } from './in-process.js';
import { clientCheckResults, type ClientCaseRun } from './results.js';
import { outcomeWords, runClientCommand } from './runner.js';

/** What `run --client-command` was told. */
export interface ClientModeOptions {
  /** The shell command line that runs the client under test for one case. */
  readonly command: string;
  /** `--allow-insecure-fixtures`: the double reads key sets and cards at plain-http loopback addresses. */
  readonly allowInsecureFixtures: boolean;
  /** `--client-self-test`: the reference client and its faults instead of a command (src/harness/client/self-test.ts). */
  readonly selfTest?: boolean;
}

export interface ClientRunInput {
  readonly client: ClientModeOptions;
  readonly only: readonly string[];
  readonly seed?: number;
  /** Each case's time limit in milliseconds (`--timeout`); CASE_TIME_LIMIT_MS otherwise. */
  readonly timeoutMs?: number;
  readonly deadlineSeconds?: number;
  readonly expectedFailures?: { readonly file: string; readonly text: string };
  readonly progress?: ProgressSink;
  /** Where the command runs. */
  readonly cwd: string;
  readonly packageVersion: string;
  readonly rerun: readonly string[];
  readonly writeReports: (report: RunReport) => string;
}

/** What the run made: exit code, report and where it went, or the problem that stopped it. */
export interface ClientRunOutcome {
  readonly exitCode: 0 | 1 | 2 | 3;
  readonly report: RunReport | null;
  readonly runDir: string | null;
  readonly problem?: string;
}

/** How long a client may take over one case before its process group is stopped. */
const CASE_TIME_LIMIT_MS = 30_000;

const SECTION = /^\d+(\.\d+)*$/;

/** The rules a selection names (all when it names only cases), and the cases that judge them. */
export function planClientRun(only: readonly string[]): { cases: ClientCase[]; rules: ClientRule[] } | { problem: string } {
  if (only.length === 0) return { cases: [...CLIENT_CASES], rules: [...CLIENT_RULE_LIST] };
  const caseIds = new Set<string>();
  const ruleKeys = new Set<string>();
  const known = [...CLIENT_CASES.map((c) => c.id), ...CLIENT_RULE_LIST.map((r) => r.id), ...CLIENT_REQUIREMENT_LIST.map((r) => r.id)];
  for (const word of only) {
    const inSection = (section: string) => section === word || section.startsWith(`${word}.`);
    if (CLIENT_CASES.some((c) => c.id === word)) caseIds.add(word);
    else if (SECTION.test(word)) {
      const rules = CLIENT_RULE_LIST.filter((r) => inSection(r.requirement.section));
      if (rules.length === 0) return { problem: `no client rule is of section ${word}` };
      for (const r of rules) ruleKeys.add(r.key);
    } else {
      const rule = CLIENT_RULE_LIST.find((r) => r.id === word || r.requirement.id === word);
      if (!rule) {
        const near = closestWord(word, known);
        return { problem: `${word} is neither a client case, a client check id nor a client requirement id${near ? ` (did you mean ${near}?)` : ''}` };
      }
      ruleKeys.add(rule.key);
    }
  }
  const rules = ruleKeys.size ? CLIENT_RULE_LIST.filter((r) => ruleKeys.has(r.key)) : [...CLIENT_RULE_LIST];
  // Cases named: those cases (judged for the rules named, if any); rules alone: the cases that judge them.
  const cases = caseIds.size ? CLIENT_CASES.filter((c) => caseIds.has(c.id)) : CLIENT_CASES.filter((c) => c.rules.some((k) => ruleKeys.has(k)));
  return { cases, rules };
}

/** The APC_* variables of one case (docs/client-mode.md). */
function caseVariables(clientCase: ClientCase, requestUrl: string, platformUrl: string, bodyFile: string, cardToken: string): Record<string, string> {
  const v = CLIENT_VARIABLES;
  const buyer = caseBuyer(clientCase, platformUrl);
  return {
    [v.allowedHosts]: buyer.allowedHosts.join(','),
    [v.dailyCap]: buyer.dailyCap === null ? '' : String(buyer.dailyCap),
    [v.walletKey]: clientCase.wallet ? CASE_WALLET_KEY : '',
    [v.platformUrl]: platformUrl,
    [v.caseId]: clientCase.id,
    [v.requestUrl]: requestUrl,
    [v.requestMethod]: clientCase.request.method,
    [v.requestBody]: bodyFile,
    [v.requestContentType]: clientCase.request.contentType ?? '',
    [v.cardToken]: cardToken,
  };
}

/**
 * `run --client-command CMD` (client mode, docs/client-mode.md): for each selected case a platform double on loopback,
 * the client command run against it with the case's variables, every request judged; then one check per rule, in the
 * report files a server run writes and with its exit codes. The cases run one after the other in this process: each
 * needs the previous one's end (the run's nonces, the client's one process group), so there is nothing for vitest's
 * workers to share.
 */
export async function runClientMode(input: ClientRunInput): Promise<ClientRunOutcome> {
  const started = Date.now();
  const planned = planClientRun(input.only);
  if ('problem' in planned) return { exitCode: 2, report: null, runDir: null, problem: planned.problem };
  let expected: ExpectedFailures | undefined;
  try {
    expected =
      input.expectedFailures &&
      parseExpectedFailures(input.expectedFailures.text, input.expectedFailures.file, {
        checks: new Set(CLIENT_RULE_LIST.map((r) => r.id)),
        requirements: new Set(CLIENT_REQUIREMENT_LIST.map((r) => r.id)),
      });
  } catch (error) {
    if (error instanceof ExpectedFailuresError) return { exitCode: 2, report: null, runDir: null, problem: error.message };
    throw error;
  }
  if (input.client.selfTest) return runClientSelfTest(input, planned, started, expected);
  const seed = input.seed ?? randomBytes(4).readUInt32BE(0);
  const runId = `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${seed.toString(16)}`;
  const timeLimitMs = input.timeoutMs ?? CASE_TIME_LIMIT_MS;
  const deadlineMs = input.deadlineSeconds !== undefined ? input.deadlineSeconds * 1000 : 60_000 + planned.cases.length * (timeLimitMs + 5000);
  const harnessErrors: string[] = [];
  const runs: ClientCaseRun[] = [];
  let interrupted: string | undefined;
  const abort = new AbortController();
  const interrupt = (reason: string) => () => {
    if (interrupted) return;
    interrupted = reason;
    input.progress?.notice?.(`stopping: the run was interrupted (${reason}); writing the incomplete report`);
    abort.abort();
  };
  const onInt = interrupt('SIGINT');
  const onTerm = interrupt('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  const deadline = setTimeout(interrupt(`its deadline passed: ${Math.round(deadlineMs / 1000)} s`), deadlineMs);

  const fetcher = createUndiciFetcher({ allowInsecureLoopback: input.client.allowInsecureFixtures });
  const judge = new SignerJudge({ fetcher, allowInsecureAgentUrls: input.client.allowInsecureFixtures });
  const folder = mkdtempSync(join(tmpdir(), 'apc-client-'));
  input.progress?.notice?.(`client mode: ${planned.cases.length} case(s), each against a platform double on loopback, running: ${input.client.command}`);
  if (input.client.allowInsecureFixtures)
    input.progress?.notice?.(
      'warning: --allow-insecure-fixtures is on: the double reads plain-http key sets and cards on loopback, which a platform never does',
    );
  try {
    for (const [n, clientCase] of planned.cases.entries()) {
      if (interrupted) break;
      const cardToken = testToken(clientCase.token, `${seed.toString(16)}-${n}`);
      const bodyFile = clientCase.request.body === undefined ? '' : join(folder, `${clientCase.id}.body`);
      if (bodyFile) writeFileSync(bodyFile, clientCase.request.body!);
      const listening = await listenPlatformDouble((origin) =>
        createPlatformDouble({
          clientCase,
          origin,
          fetcher,
          judge,
          clock: { nowMs: () => Date.now() },
          cardToken,
          allowInsecureAgentUrls: input.client.allowInsecureFixtures,
        }),
      );
      const { double } = listening;
      let outcome: Awaited<ReturnType<typeof runClientCommand>>;
      try {
        outcome = await runClientCommand({
          command: input.client.command,
          env: caseVariables(clientCase, double.requestUrl, double.origin, bodyFile, cardToken),
          cwd: input.cwd,
          timeLimitMs,
          signal: abort.signal,
        });
      } finally {
        await listening.close();
      }
      const ended = outcomeWords(outcome, timeLimitMs);
      runs.push({
        clientCase,
        exchanges: [...double.exchanges],
        frames: [...double.frames],
        ended,
        durationMs: outcome.durationMs,
        buyer: caseBuyer(clientCase, double.origin),
      });
      const said = outcome.exitCode !== 0 && outcome.stderr.trim() ? `; it said: ${outcome.stderr.trim().split('\n').slice(-3).join(' | ')}` : '';
      input.progress?.notice?.(`case ${clientCase.id}: ${double.exchanges.length} request(s), the client ${ended}${said}`);
    }
  } catch (error) {
    harnessErrors.push(error instanceof Error ? error.message : String(error));
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    clearTimeout(deadline);
    rmSync(folder, { recursive: true, force: true });
    await fetcher.close();
  }
  if (interrupted) harnessErrors.unshift(`the run was interrupted (${interrupted}); cases that had not run are missing`);

  const judged = clientCheckResults(runs, CLIENT_CASES, planned.rules);
  const baseline = expected && applyExpectedFailures(judged, expected);
  const results: readonly CheckResult[] = baseline ? baseline.results : judged;
  const report: RunReport = {
    tool: { name: 'agent-platform-conformance', version: input.packageVersion },
    runId,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date().toISOString(),
    target: {
      kind: 'client',
      description: `the client run by ${input.client.command}, against a platform double per case (${runs.map((r) => r.clientCase.id).join(', ') || 'no case ran'})`,
      clientCommand: input.client.command,
    },
    rerun: input.rerun,
    selection: input.only,
    seed,
    complete: !interrupted && harnessErrors.length === 0,
    counts: countVerdicts(results),
    results,
    harnessErrors,
    ...(expected && baseline ? { expectedFailures: { file: expected.file, entries: baseline.outcomes } } : {}),
  };
  const runDir = input.writeReports(report);
  for (const line of judgedSummary(results)) input.progress?.notice?.(line);
  if (harnessErrors.length) return { exitCode: 3, report, runDir, problem: harnessErrors[0] };
  if (report.counts.total === report.counts['not-run']) {
    const reasons = [...new Set(results.map((r) => r.message ?? 'no reason given'))];
    return { exitCode: 2, report, runDir, problem: `none of the ${report.counts.total} selected client checks could run; first reason: ${reasons[0]}` };
  }
  const verdict = runVerdict(report);
  return { exitCode: verdict === 'not-conformant' || verdict === 'baseline-stale' ? 1 : 0, report, runDir };
}

/** One line per area: how its checks went. */
function judgedSummary(results: readonly CheckResult[]): string[] {
  const bySuite = new Map<string, CheckResult[]>();
  for (const r of results) bySuite.set(r.suite, [...(bySuite.get(r.suite) ?? []), r]);
  return [...bySuite].map(([suite, rs]) => {
    const c = countVerdicts(rs);
    return `${suite}: ${c.pass} passed${c.fail ? `, ${c.fail} FAILED` : ''}${c['not-run'] ? `, ${c['not-run']} not run` : ''}`;
  });
}

/**
 * `run --client-self-test`: client mode judging itself, in this process (src/harness/client/self-test.ts): the
 * reference client must pass every selected case, each client mutant must be caught and each client variant pass.
 */
async function runClientSelfTest(
  input: ClientRunInput,
  planned: { cases: ClientCase[]; rules: ClientRule[] },
  started: number,
  expected: ExpectedFailures | undefined,
): Promise<ClientRunOutcome> {
  const { clientSelfTest } = await import('./self-test.js');
  const seed = input.seed ?? randomBytes(4).readUInt32BE(0);
  const { CLIENT_MUTANTS } = await import('../../mutants/client.js');
  const { CLIENT_VARIANTS } = await import('../../variants/client.js');
  // Only the faults and choices naming a selected rule are tried: the others are out of the selection's scope.
  const inScope = (requirements: readonly string[]) => planned.rules.some((r) => requirements.includes(r.requirement.id));
  const { results: all, selfTest } = await clientSelfTest({
    cases: planned.cases,
    all: CLIENT_CASES,
    mutants: CLIENT_MUTANTS.filter((m) => inScope(m.requirements)),
    variants: CLIENT_VARIANTS.filter((v) => inScope(v.requirements)),
    selection: input.only.filter((o) => CLIENT_REQUIREMENT_LIST.some((r) => r.id === o) || SECTION.test(o)),
    progress: (line) => input.progress?.notice?.(line),
  });
  const judged = all.filter((r) => planned.rules.some((rule) => rule.id === r.id));
  const baseline = expected && applyExpectedFailures(judged, expected);
  const results: readonly CheckResult[] = baseline ? baseline.results : judged;
  const report: RunReport = {
    tool: { name: 'agent-platform-conformance', version: input.packageVersion },
    runId: `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${seed.toString(16)}`,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date().toISOString(),
    target: { kind: 'client', description: "the reference client and its faults, in process (client mode's self-test)" },
    rerun: input.rerun,
    selection: input.only,
    seed,
    complete: true,
    counts: countVerdicts(results),
    results,
    harnessErrors: [],
    selfTest,
    ...(expected && baseline ? { expectedFailures: { file: expected.file, entries: baseline.outcomes } } : {}),
  };
  const runDir = input.writeReports(report);
  if (!selfTest.passed)
    return { exitCode: 1, report, runDir, problem: `client self-test failed: ${selfTest.problems.length} problem(s), first: ${selfTest.problems[0]}` };
  const verdict = runVerdict(report);
  return { exitCode: verdict === 'not-conformant' || verdict === 'baseline-stale' ? 1 : 0, report, runDir };
}
