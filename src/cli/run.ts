import { spendWords } from '../harness/spend-ledger.js';
import { accessSync, constants, statSync } from 'node:fs';
import { redactedReport, redactText } from '../harness/exchange.js';
import { makeFolder } from '../harness/make-folder.js';
import { resolve } from 'node:path';
import { fileProblem, readInputFile } from './read-input.js';
import { countVerdicts, runVerdict, RUN_VERDICT_LABELS, type CheckResult, type RunReport } from '../harness/results.js';
import { judgedWords } from '../harness/not-run-needs.js';
import type { Command, CommandArgs } from './command.js';
import { UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { clientCredentialsOption, flag, serviceNameOption, stringOption, stringOptions } from './option-values.js';
import { REQUIREMENT_VERDICTS } from '../harness/self-test.js';
import type { ProgressSink } from '../harness/reporter.js';
import type { DeploymentNames } from '../contract/run-context.js';
import { WIDGET_HOST_POST_ID } from '../contract/widget-host.js';
import type { ClientModeOptions } from '../harness/client/run-client.js';

const NAME = 'run';

function wholeNumber(args: CommandArgs, name: string): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--${name} must be a whole number, not "${value}"`, NAME);
  return Number(value);
}

const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 };

/** `--max-body`: bytes, or a whole number of KiB, MiB or GiB (`64MiB`, `512k`). */
function byteSize(args: CommandArgs, name: string): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(value.trim());
  const unit = match ? BYTE_UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && unit ? Number(match[1]) * unit : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(`--${name} must be a size of at least 1 byte: a whole number of bytes, or of KiB, MiB or GiB (64MiB), not "${value}"`, NAME);
  return bytes;
}

function failureLines(results: readonly CheckResult[]): string[] {
  return results
    .filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'warn')
    .slice(0, 50)
    .map(
      (r) =>
        `  ${r.verdict.toUpperCase()}${r.expected ? ' (expected)' : ''} ${r.level} ${r.requirements.join(' ')}: ${r.name}\n    ${(r.message ?? '').split('\n')[0]}`,
    );
}

/** The entries of an expected-failures file that need the user: stale ones (remove them) and ones whose checks differ. */
function expectedLines(report: RunReport): string[] {
  const x = report.expectedFailures;
  if (x === undefined) return [];
  const listed = report.results.filter((r) => r.expected).length;
  return [
    `expected failures (${x.file}): ${listed} check(s) failed as listed`,
    ...x.entries
      .filter((e) => e.outcome === 'stale' || e.outcome === 'differs')
      .map((e) =>
        e.outcome === 'stale'
          ? `  STALE ${e.id}: now passes (${e.checks.join(', ')}); remove it from ${x.file}`
          : `  DIFFERS ${e.id}: expected ${e.verdict}, its checks have other verdicts (reported as they are)`,
      ),
  ];
}

function humanSummary(report: RunReport, runDir: string): string {
  const c = report.counts;
  const verdict = RUN_VERDICT_LABELS[runVerdict(report)];
  return [
    '',
    `${verdict} (${judgedWords(report)})`,
    `  ${c.pass} passed, ${c.fail} failed, ${c.warn} warnings, ${c['not-run']} not run, ${c.error} errors (${c.total} checks, seed ${report.seed})`,
    ...(report.spend ? [`  ${spendWords(report.spend)}`] : []),
    ...failureLines(report.results),
    ...expectedLines(report),
    `reports: ${runDir}/report.html, report.json, junit.xml, summary.md`,
    '',
  ].join('\n');
}

function selfTestLines(s: NonNullable<RunReport['selfTest']>): string {
  const m = s.mutants;
  const lines = [
    `SELF-TEST ${s.passed ? 'PASSED' : 'FAILED'}: mutation score ${(m.score * 100).toFixed(1)}% (${m.killed} of ${m.total} mutants caught, ${m.deep.killed} of ${m.deep.total} deep; ${m.survived} survived) in ${(s.wallTimeMs / 1000).toFixed(1)} s`,
    `  conformant variants: ${s.variants.conformant} of ${s.variants.total} passed, ${s.variants.falseFails} false fails`,
    `  requirements: ${REQUIREMENT_VERDICTS.map((v) => `${s.requirementCounts[v]} ${v}`).join(', ')} (of ${s.requirementCounts.total})`,
    ...s.problems.slice(0, 40).map((p) => `  ${p}`),
    ...(s.problems.length > 40 ? [`  ... and ${s.problems.length - 40} more (see report.html)`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

function counted(results: readonly CheckResult[]): string {
  const c = countVerdicts(results);
  const parts = [
    `${c.pass} passed`,
    c.fail && `${c.fail} FAILED`,
    c.warn && `${c.warn} warnings`,
    c['not-run'] && `${c['not-run']} not run`,
    c.error && `${c.error} errors`,
  ];
  return parts.filter(Boolean).join(', ');
}

/** `--agent-client ID:SECRET`: a client of the live agent's token endpoint. */
function agentClientOption(value: string | undefined, agentUrl: string | undefined): { id: string; secret: string } | undefined {
  if (value === undefined) return undefined;
  if (agentUrl === undefined) throw new UsageError('--agent-client goes with --agent-url: it is a client of that agent', NAME);
  return clientCredentialsOption(value, NAME);
}

/**
 * `--service-name`, `--problems-url`, `--payment-problems-url`, `--terms-url`: the names the deployment writes where
 * the spec writes Service or a placeholder. The addresses are a live deployment's (the embedded reference's are known).
 */
function deploymentNames(args: CommandArgs, live: boolean): DeploymentNames | undefined {
  const serviceName = serviceNameOption(args, NAME);
  const urls = (['problems-url', 'payment-problems-url', 'terms-url'] as const).map((name) => {
    const value = stringOption(args, name);
    if (value === undefined) return undefined;
    if (!live) throw new UsageError(`--${name} goes with --base-url: the embedded reference's addresses are known`, NAME);
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol)) throw new UsageError(`--${name} must be an http or https URL, not ${JSON.stringify(value)}`, NAME);
    return value.replace(/\/+$/, '');
  });
  const [problemsUrl, paymentProblemsUrl, termsUrl] = urls;
  const names: DeploymentNames = {
    ...(serviceName === undefined ? {} : { serviceName }),
    ...(problemsUrl === undefined ? {} : { problemsUrl }),
    ...(paymentProblemsUrl === undefined ? {} : { paymentProblemsUrl }),
    ...(termsUrl === undefined ? {} : { termsUrl }),
  };
  return Object.keys(names).length ? names : undefined;
}

/** `--chromium PATH`: a Chromium or Chrome binary the run can execute, checked before any check runs. */
function chromiumOption(args: CommandArgs, io: CliIo): string | undefined {
  const value = stringOption(args, 'chromium');
  if (value === undefined) return undefined;
  const path = resolve(io.cwd, value);
  let why: string | undefined;
  try {
    if (statSync(path).isDirectory()) why = 'it is a folder, not a program';
    else accessSync(path, constants.X_OK);
  } catch (error) {
    why = (error as { code?: string }).code === 'EACCES' ? 'it is not executable' : fileProblem(error);
  }
  if (why !== undefined) throw new UsageError(`--chromium ${value}: no Chromium to run there (${why}); give the path of a Chromium or Chrome binary`, NAME);
  return path;
}

/** The reports folder must be one the run can create or write into. */
function reportsDirProblem(dir: string): void {
  try {
    makeFolder(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'it is a file, not a folder'
        : code === 'ENOENT'
          ? 'no folder can be made there'
          : code === 'EROFS'
            ? 'the file system is read-only'
            : fileProblem(error);
    throw new UsageError(`--out ${dir}: the reports cannot be written there (${why})`, NAME);
  }
}

/** A CI log gets a progress line at most this often; a terminal rewrites its line at every check. */
const PROGRESS_EVERY_MS = 15_000;

/**
 * Progress goes where a person watching sees it: stdout, or stderr with --json (stdout then holds only the report).
 * First how many checks are selected; on a terminal a running count per suite is rewritten in place; elsewhere one
 * line per suite when it ends, and between them at most one line per PROGRESS_EVERY_MS with the checks done and an
 * estimate of what is left, so a CI log never stays silent long and is never flooded.
 */
export function progressLines(out: CliIo['stdout'], inPlace: boolean, now: () => number = Date.now): ProgressSink & { stop(): void } {
  const started = now();
  let selected: number | undefined;
  let done = 0;
  let lastLine = started;
  const write = (line: string) => {
    lastLine = now();
    out.write(line);
  };
  const status = () =>
    `${done}${selected ? ` of ${selected}` : ''} checks done in ${seconds(now() - started)}${estimateWords(done, selected, now() - started)}`;
  const heartbeat = inPlace
    ? undefined
    : setInterval(() => {
        if (now() - lastLine >= PROGRESS_EVERY_MS) write(`  ... ${status()}\n`);
      }, 1000);
  heartbeat?.unref();
  return {
    selected: (checks) => {
      selected = checks;
      write(`${checks} ${checks === 1 ? 'check' : 'checks'} selected\n`);
    },
    notice: (line) => write(`${line}\n`),
    check: (file: string, _r: CheckResult, sofar: readonly CheckResult[]) => {
      done++;
      if (inPlace) write(`\r[${done}${selected ? `/${selected}` : ''}] ${file}: ${counted(sofar)}\u001b[K`);
      else if (now() - lastLine >= PROGRESS_EVERY_MS) write(`  ... ${status()}\n`);
    },
    section: (file, results) => write(`${inPlace ? '\r' : ''}${file}: ${counted(results)}${inPlace ? '\u001b[K' : ''}\n`),
    stop: () => clearInterval(heartbeat),
  };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/** "; about 40 s left" once a tenth of the checks are done (earlier guesses mislead more than they help). */
function estimateWords(done: number, selected: number | undefined, elapsedMs: number): string {
  if (!selected || done < Math.max(1, selected / 10) || done >= selected) return '';
  return `; about ${seconds((elapsedMs / done) * (selected - done))} left`;
}

/**
 * Client mode (docs/client-mode.md): `--client-command CMD` judges the agent's own client against a platform double per
 * case, `--client-self-test` judges client mode itself. Neither takes a server target or a server self-test.
 */
function clientMode(
  args: CommandArgs,
  given: { baseUrl?: string; agentUrl?: string; selfTest: boolean; deployment?: DeploymentNames; chromiumPath?: string; maxBodyBytes?: number },
): ClientModeOptions | undefined {
  const command = stringOption(args, 'client-command');
  const clientSelfTest = flag(args, 'client-self-test');
  const insecure = flag(args, 'allow-insecure-fixtures');
  if (command === undefined && !clientSelfTest) {
    if (insecure)
      throw new UsageError('--allow-insecure-fixtures goes with --client-command: it lets the platform double read plain-http documents on loopback', NAME);
    return undefined;
  }
  if (command !== undefined && clientSelfTest) throw new UsageError('--client-self-test runs the reference client itself; it takes no --client-command', NAME);
  if (command !== undefined && command.trim() === '')
    throw new UsageError('--client-command needs a command line, e.g. --client-command "node my-wrapper.mjs"', NAME);
  const server = [
    ['--base-url', given.baseUrl],
    ['--agent-url', given.agentUrl],
    ['--self-test', given.selfTest || undefined],
    ['--service-name, --problems-url, --payment-problems-url and --terms-url', given.deployment],
    ['--chromium', given.chromiumPath],
    ['--max-body', given.maxBodyBytes],
  ].find(([, value]) => value !== undefined);
  if (server)
    throw new UsageError(
      `${server[0]} checks a server; client mode (${command === undefined ? '--client-self-test' : '--client-command'}) checks a client against platform doubles`,
      NAME,
    );
  if (clientSelfTest && insecure)
    throw new UsageError('--allow-insecure-fixtures goes with --client-command; the client self-test reads nothing over the network', NAME);
  return command === undefined
    ? { command: 'reference client (self-test)', allowInsecureFixtures: false, selfTest: true }
    : { command, allowInsecureFixtures: insecure };
}

/** A terminal a person watches, as opposed to CI logs and pipes. */
function isInteractive(io: CliIo): boolean {
  return (io.stdout as { isTTY?: boolean }).isTTY === true && !process.env.CI;
}

async function runRun(args: CommandArgs, io: CliIo): Promise<number> {
  const interactive = isInteractive(io);
  const baseUrl = stringOption(args, 'base-url');
  const fixtureUrl = stringOption(args, 'fixture-url');
  const clientAddressHeader = stringOption(args, 'client-address-header');
  const fixturePort = wholeNumber(args, 'fixture-port');
  if (fixturePort !== undefined && fixturePort > 65535) throw new UsageError(`--fixture-port must be a port number from 0 to 65535, not ${fixturePort}`, NAME);
  if (clientAddressHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(clientAddressHeader)) {
    throw new UsageError(`--client-address-header must be a header name such as x-forwarded-for, not ${JSON.stringify(clientAddressHeader)}`, NAME);
  }
  const alsoBaseUrl = stringOption(args, 'also-base-url');
  if (alsoBaseUrl !== undefined && baseUrl === undefined)
    throw new UsageError('--also-base-url goes with --base-url: it names another instance of the deployment at --base-url', NAME);
  const allowSpend = flag(args, 'allow-spend');
  const spendCap = wholeNumber(args, 'spend-cap');
  if (
    baseUrl === undefined &&
    (fixtureUrl !== undefined || clientAddressHeader !== undefined || fixturePort !== undefined || allowSpend || spendCap !== undefined)
  ) {
    throw new UsageError('--fixture-url, --fixture-port, --client-address-header, --allow-spend and --spend-cap go with --base-url', NAME);
  }
  const allowWaits = flag(args, 'allow-waits');
  const ownerKey = stringOption(args, 'owner-key');
  const controlUrl = stringOption(args, 'control-url');
  const widgetHostUrl = stringOption(args, 'widget-host-url');
  if (baseUrl === undefined && (allowWaits || ownerKey !== undefined || controlUrl !== undefined || widgetHostUrl !== undefined))
    throw new UsageError('--allow-waits, --owner-key, --control-url and --widget-host-url go with --base-url: they let checks of a live deployment run', NAME);
  if (widgetHostUrl !== undefined && !widgetHostUrl.includes(WIDGET_HOST_POST_ID))
    throw new UsageError(
      `--widget-host-url must name where the published widget goes with ${WIDGET_HOST_POST_ID} (e.g. https://platform.example/widgets/${WIDGET_HOST_POST_ID}/host), not "${widgetHostUrl}"`,
      NAME,
    );
  if (ownerKey !== undefined && !/^[\x21-\x7e]+$/.test(ownerKey))
    throw new UsageError('--owner-key must be the header value the deployment accepts: printable ASCII without spaces', NAME);
  if (allowSpend !== (spendCap !== undefined)) {
    throw new UsageError('--allow-spend and --spend-cap N go together: a live run pays only when told to, and never more than the cap', NAME);
  }
  for (const [name, value] of [
    ['base-url', baseUrl],
    ['also-base-url', alsoBaseUrl],
    ['fixture-url', fixtureUrl],
    ['control-url', controlUrl],
    ['widget-host-url', widgetHostUrl],
  ] as const) {
    if (value !== undefined && !/^https?:\/\/[^/]/.test(value)) throw new UsageError(`--${name} must be an http or https URL, not "${value}"`, NAME);
  }
  const agentUrl = stringOption(args, 'agent-url');
  const agentClient = agentClientOption(stringOption(args, 'agent-client'), agentUrl);
  if (agentUrl !== undefined && !/^https?:\/\/[^/]/.test(agentUrl)) throw new UsageError(`--agent-url must be an http or https URL, not "${agentUrl}"`, NAME);
  const json = flag(args, 'json');
  const seed = wholeNumber(args, 'seed');
  const timeoutMs = wholeNumber(args, 'timeout');
  if (timeoutMs === 0) throw new UsageError("--timeout must be at least 1 millisecond; leave it out for each check's own", NAME);
  const maxBodyBytes = byteSize(args, 'max-body');
  if (maxBodyBytes !== undefined && baseUrl === undefined && agentUrl === undefined)
    throw new UsageError('--max-body goes with --base-url or --agent-url: it bounds what a live target may send', NAME);
  const deadlineSeconds = wholeNumber(args, 'deadline');
  if (deadlineSeconds === 0) throw new UsageError('--deadline must be at least 1 second', NAME);
  const out = stringOption(args, 'out');
  // Checked before any check runs, so a run's results are never thrown away for want of a place to write them.
  if (out !== undefined) reportsDirProblem(resolve(io.cwd, out));
  const chromiumPath = chromiumOption(args, io);
  const expectedFile = stringOption(args, 'expected-failures');
  const expectedFailures =
    expectedFile === undefined ? undefined : { file: expectedFile, text: (await readInputFile(io, expectedFile, '--expected-failures')).toString('utf8') };
  const selfTest = flag(args, 'self-test');
  if (selfTest && (baseUrl !== undefined || agentUrl !== undefined))
    throw new UsageError('--self-test runs against the embedded reference deployments; it does not take --base-url or --agent-url', NAME);
  const deployment = deploymentNames(args, baseUrl !== undefined);
  if (selfTest && deployment)
    throw new UsageError("--self-test judges the mutants of the reference under the spec's own names; it does not take --service-name", NAME);
  const client = clientMode(args, { baseUrl, agentUrl, selfTest, deployment, chromiumPath, maxBodyBytes });
  const skip = stringOptions(args, 'skip');
  if (skip.length && (selfTest || client))
    throw new UsageError(
      `--skip goes with a run of the suites; ${selfTest ? '--self-test' : 'client mode'} judges its whole selection (narrow it with --only)`,
      NAME,
    );
  // vitest is loaded only when a run starts, so every other command starts fast.
  const { runConformance } = await import('../harness/run.js');
  const progress = progressLines(json ? io.stderr : io.stdout, !json && interactive);
  const outcome = await runConformance({
    only: stringOptions(args, 'only'),
    ...(skip.length ? { skip } : {}),
    ...(agentUrl === undefined ? {} : { agentUrl: agentUrl.replace(/\/+$/, '') }),
    ...(agentClient ? { agentClient } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    ...(deadlineSeconds === undefined ? {} : { deadlineSeconds }),
    ...(expectedFailures === undefined ? {} : { expectedFailures }),
    ...(out === undefined ? {} : { out: resolve(io.cwd, out) }),
    ...(chromiumPath === undefined ? {} : { chromiumPath }),
    ...(selfTest ? { selfTest: {} } : {}),
    ...(deployment ? { deployment } : {}),
    ...(client ? { client, cwd: io.cwd } : {}),
    ...(baseUrl === undefined
      ? {}
      : {
          live: {
            baseUrl: baseUrl.replace(/\/+$/, ''),
            ...(alsoBaseUrl ? { alsoBaseUrl: alsoBaseUrl.replace(/\/+$/, '') } : {}),
            ...(fixtureUrl ? { fixtureUrl: fixtureUrl.replace(/\/+$/, '') } : {}),
            ...(fixturePort === undefined ? {} : { fixturePort }),
            ...(clientAddressHeader ? { clientAddressHeader: clientAddressHeader.toLowerCase() } : {}),
            ...(spendCap === undefined ? {} : { spendCapMinorUnits: spendCap }),
            ...(allowWaits ? { allowWaits: true } : {}),
            ...(ownerKey === undefined ? {} : { ownerKey }),
            ...(controlUrl === undefined ? {} : { controlUrl }),
            ...(widgetHostUrl === undefined ? {} : { widgetHostUrl }),
          },
        }),
    progress,
  }).finally(() => progress.stop());
  // What the reports show, the terminal shows: messages with their credentials redacted.
  const report = outcome.report && redactedReport(outcome.report);
  if (report && json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (report && outcome.runDir) io.stdout.write(humanSummary(report, outcome.runDir));
  if (outcome.report?.selfTest && !json) io.stdout.write(selfTestLines(outcome.report.selfTest));
  if (outcome.problem) io.stderr.write(`agent-platform-conformance run: ${redactText(outcome.problem)}\n`);
  return outcome.exitCode;
}

export const runCommand: Command = {
  name: NAME,
  summary: 'run the conformance suites and write report.html, report.json, junit.xml and summary.md',
  usage:
    '[--client-command CMD [--allow-insecure-fixtures] | --client-self-test] [--self-test] [--base-url URL [--also-base-url URL] [--fixture-url URL] [--fixture-port N] [--client-address-header NAME] [--allow-spend --spend-cap N] [--allow-waits] [--owner-key KEY] [--control-url URL] [--widget-host-url URL] [--problems-url URL] [--payment-problems-url URL] [--terms-url URL]] [--service-name NAME] [--agent-url URL [--agent-client ID:SECRET]] [--only ID-or-SECTION]... [--skip ID-or-SECTION]... [--seed N] [--out DIR] [--timeout MS] [--max-body SIZE] [--deadline SECONDS] [--expected-failures FILE] [--chromium PATH] [--json]',
  description: [
    'Runs the suites (one per spec section) against the embedded reference deployment, or a live one with',
    '--base-url, and writes',
    'DIR/<run-id>/report.html, report.json, junit.xml and summary.md. --only takes a section (7.3) or a requirement id',
    '(AUTH-SIGNATURE-EXPIRED) and may repeat; --skip takes the same words (and check ids) and leaves those checks out,',
    'reported not-run "skipped by --skip". Exit 0 conformant, 1 a MUST check failed, 2 a selection that',
    'selects nothing or bad options, 3 a harness failure (the report is then marked incomplete).',
    'Live runs publish the agent documents the checks need on a fixture host this command starts on',
    'loopback (--fixture-port); the deployment must reach it at --fixture-url (default its loopback URL).',
    'Checks that need what a live deployment cannot offer (a controllable clock, seeded state) are reported',
    'not-run with the reason. A live run paces its failing requests to stay under the platform throttle',
    '(30 in 60 s per address) unless --client-address-header names a header the deployment takes the client',
    'address from; without it the checks that trip the throttle on purpose run with --allow-waits, alone, then wait',
    'the window out. Purchase checks against a live deployment never present a payment credential unless',
    "--allow-spend --spend-cap N is given (N in the currency's minor units, for the whole run); they pay with",
    'test tokens (spt_test_<outcome>_...) and are reported not-run with the reason otherwise.',
    'Checks of time-bound rules (the key set re-read after 5 minutes, card memory, the throttle window, a',
    'challenge expiring at 300 s) wait in real time with --allow-waits, each wait announced (a run then takes',
    "30 to 45 minutes more); --owner-key KEY gives the operator's platform key the deployment accepts in",
    'X-Service-Owner-Key, for the key-continuity case that presents it. Without them they are reported not-run.',
    'A deployment of several instances sharing their stores: --also-base-url URL names a second instance of the one at',
    "--base-url (requests to it still name --base-url's host); the fleet checks (5.2-fleet) then send to both: a replay",
    'across instances, failures counted together, a charge in flight resumed by the other, one charge for concurrent',
    'presentations. Without it they are reported not-run.',
    'A deployment may offer a test control (docs/contracts.md section 5; serve --test-control): --control-url URL lets',
    'the checks of faults and switches (buying closed, the purchase lock down, a charge that settles later, an agent',
    'blocked) put one agent or one test token in that state; their verdicts still come from the public routes.',
    "A deployment's widget host page (docs/contracts.md section 6): --widget-host-url URL, with {postId} where the",
    'published widget goes, lets the host-side browser checks of 4.6 and 7.1 drive it; without it they are not run.',
    'A deployment writes its own name where the spec writes Service (Acme-Terms-Version, X-Acme-Owner-Key,',
    'realm=acme): --service-name Acme sends, signs and reads those names (in-process, the embedded reference',
    'takes the name too); --problems-url, --payment-problems-url and --terms-url give its {problems_url},',
    '{payment_problems_url} and {terms_url}. The report shows the names the run used.',
    '--self-test checks the suite itself: every check must pass against the embedded reference, and for each',
    'named fault of the mutant catalogue (src/mutants/) a check naming the requirement it breaks must fail with',
    'the fault switched on. The report shows the mutation score, the survivors and a verdict per requirement;',
    'a survivor, a failing check or a requirement with no check (unless marked untestable) exits 1.',
    'A live run stays bounded whatever the target sends: each answer is read within the per-request timeout',
    '(--timeout, else 10 s for a platform and 30 s for an agent: once for its status and headers, once more for its',
    'body) and up to --max-body (default 64MiB: room above the 50 MiB a probe may report back); redirects are not',
    "followed and bodies not decompressed. What a target does wrong on the wire (headers past the parser's limit,",
    'bytes that are not HTTP, a reset connection, a body past the cap) fails the check that met it, exit 1.',
    'A live run ends by its deadline: 60 s + (selected checks) x (--timeout, else 30 s); --deadline SECONDS sets',
    'another (for any run). A run past its deadline, or stopped by SIGINT or SIGTERM, writes its report marked',
    'incomplete and exits 3.',
    "Client mode: --client-command CMD judges an agent's own client instead of a server. For each client case (--only",
    'takes case ids, client check ids, CLIENT-* requirement ids or sections) a platform double starts on loopback and',
    'CMD runs through the shell with APC_PLATFORM_URL, APC_CASE, APC_REQUEST_URL, APC_REQUEST_METHOD, APC_REQUEST_BODY',
    '(a file), APC_REQUEST_CONTENT_TYPE, APC_CARD_TOKEN, APC_ALLOWED_HOSTS, APC_DAILY_CAP and APC_WALLET_KEY; the client sends that',
    'request signed and buys as 7.4 and section 6 say.',
    "Every request is judged (5.2, 2.4, 7.4, section 3); --timeout is each case's time limit (default 30 s), past which",
    "the client's process group is stopped. --allow-insecure-fixtures lets the double read key sets and cards at",
    'plain-http loopback addresses. --client-self-test checks client mode itself (docs/client-mode.md).',
  ].join('\n'),
  options: {
    only: { type: 'string', multiple: true, value: 'ID-or-SECTION', help: 'run only this section, requirement or check' },
    skip: { type: 'string', multiple: true, value: 'ID-or-SECTION', help: 'do not run this section, requirement or check; reported not-run' },
    seed: { type: 'string', value: 'N', help: 'seed for property-based checks (default: random, printed)' },
    out: { type: 'string', value: 'DIR', help: 'where reports go (default reports/)' },
    timeout: { type: 'string', value: 'MS', help: 'per-check and per-request timeout in milliseconds' },
    'max-body': {
      type: 'string',
      value: 'SIZE',
      help: 'the largest answer body a live target may send, in bytes or with KiB/MiB/GiB (default 64MiB); more fails the check',
    },
    'expected-failures': {
      type: 'string',
      value: 'FILE',
      help: 'known deviations (YAML or JSON: id, verdict, reason): listed failures fail nothing, listed checks that now pass fail the run',
    },
    deadline: {
      type: 'string',
      value: 'SECONDS',
      help: 'end the run after this long, exit 3 with an incomplete report (live default: 60 s + checks x per-request timeout)',
    },
    json: { type: 'boolean', help: 'print report.json on stdout instead of the text summary' },
    chromium: {
      type: 'string',
      value: 'PATH',
      help: 'the Chromium or Chrome binary the browser checks of 4.6 and 7.1 launch (default CHROMIUM_PATH, else /usr/bin/chromium)',
    },
    'base-url': { type: 'string', value: 'URL', help: 'the live deployment to check (default: the embedded reference)' },
    'also-base-url': { type: 'string', value: 'URL', help: 'another instance of the deployment at --base-url, for the fleet checks (5.2-fleet)' },
    'fixture-url': { type: 'string', value: 'URL', help: 'where the deployment reaches the fixture host (default its loopback URL)' },
    'fixture-port': { type: 'string', value: 'N', help: 'port of the fixture host (default: any free port)' },
    'client-address-header': { type: 'string', value: 'NAME', help: 'header the deployment reads the client address from (e.g. x-forwarded-for)' },
    'allow-spend': { type: 'boolean', help: 'let purchase checks present payment credentials (needs --spend-cap)' },
    'spend-cap': { type: 'string', value: 'N', help: 'the most purchase checks may pay in all, in minor units (e.g. 1500 = 15.00 usd)' },
    'allow-waits': { type: 'boolean', help: 'let checks of time-bound rules wait in real time (minutes each; every wait announced)' },
    'owner-key': { type: 'string', value: 'KEY', help: "the operator's platform key the deployment accepts in X-Service-Owner-Key (key continuity)" },
    'control-url': {
      type: 'string',
      value: 'URL',
      help: "the deployment's test control (docs/contracts.md section 5; serve --test-control): checks of faults and switches put it in a named state there",
    },
    'widget-host-url': {
      type: 'string',
      value: 'URL',
      help: "the deployment's widget host page, {postId} where the published widget goes (docs/contracts.md section 6): the host-side checks of 4.6 and 7.1 drive it",
    },
    'service-name': {
      type: 'string',
      value: 'NAME',
      help: 'what the deployment writes where the spec writes Service: Acme-Terms-Version, X-Acme-Owner-Key, realm=acme (default Service)',
    },
    'problems-url': { type: 'string', value: 'URL', help: "the deployment's {problems_url} (default: learned from its first answers)" },
    'payment-problems-url': { type: 'string', value: 'URL', help: "the deployment's {payment_problems_url} (default: learned from its first answers)" },
    'terms-url': { type: 'string', value: 'URL', help: "the deployment's {terms_url} (default: any URL the terms Link names)" },
    'self-test': {
      type: 'boolean',
      help: 'also run every check against the mutants of the reference naming its requirements; fails on a survivor or an unchecked requirement',
    },
    'agent-client': {
      type: 'string',
      value: 'ID:SECRET',
      help: 'a client the live agent knows at POST /auth/token (4.3), so the good-grant check runs; goes with --agent-url',
    },
    'agent-url': {
      type: 'string',
      value: 'URL',
      help: 'a live agent for the agent suites (4.1-4.3, 7.2); it declares the conformance probes (default: the embedded reference agent)',
    },
    'client-command': {
      type: 'string',
      value: 'CMD',
      help: "client mode: judge the agent's own signer and buyer; CMD runs it for each case against a platform double (docs/client-mode.md)",
    },
    'allow-insecure-fixtures': {
      type: 'boolean',
      help: "client mode: the platform double reads the client's key set and card at plain-http loopback addresses (local testing only)",
    },
    'client-self-test': {
      type: 'boolean',
      help: "client mode's own self-test: the reference client must pass every case, each of its faults must be caught",
    },
  },
  positionals: { names: [], min: 0, max: 0 },
  examples: [
    'agent-platform-conformance run',
    'agent-platform-conformance run --only 7.3 --seed 42 --out ci-reports',
    'agent-platform-conformance run --skip 4.6 --skip 7.1',
    'agent-platform-conformance run --base-url http://127.0.0.1:8787',
    'agent-platform-conformance run --self-test',
    'agent-platform-conformance run --base-url http://127.0.0.1:8787 --allow-spend --spend-cap 1500',
    'agent-platform-conformance run --base-url http://127.0.0.1:8787 --also-base-url http://127.0.0.1:8788 --only 5.2',
    'agent-platform-conformance run --base-url https://platform.example --service-name Acme --terms-url https://platform.example/terms',
    "agent-platform-conformance run --client-command 'node my-client-wrapper.mjs' --allow-insecure-fixtures",
  ],
  available: true,
  run: runRun,
};
