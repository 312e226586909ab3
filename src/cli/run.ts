import { runConformance } from '../harness/run.js';
import type { CheckResult, RunReport } from '../harness/results.js';
import type { Command, CommandArgs } from './command.js';
import { InputError, UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { flag, stringOption, stringOptions } from './option-values.js';

const NAME = 'run';

function wholeNumber(args: CommandArgs, name: string): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--${name} must be a whole number, not "${value}"`, NAME);
  return Number(value);
}

function failureLines(results: readonly CheckResult[]): string[] {
  return results
    .filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'warn')
    .slice(0, 50)
    .map((r) => `  ${r.verdict.toUpperCase()} ${r.level} ${r.requirements.join(' ')}: ${r.name}\n    ${(r.message ?? '').split('\n')[0]}`);
}

function humanSummary(report: RunReport, runDir: string): string {
  const c = report.counts;
  const verdict = c.fail || c.error || !report.complete ? 'NOT CONFORMANT' : 'CONFORMANT';
  return [
    '',
    `${verdict}: ${c.pass} passed, ${c.fail} failed, ${c.warn} warnings, ${c['not-run']} not run, ${c.error} errors (${c.total} checks, seed ${report.seed})`,
    ...failureLines(report.results),
    `reports: ${runDir}/report.json, junit.xml, summary.md`,
    '',
  ].join('\n');
}

async function runRun(args: CommandArgs, io: CliIo): Promise<number> {
  if (stringOption(args, 'base-url') !== undefined || stringOption(args, 'fixture-url') !== undefined) {
    throw new InputError('live runs against --base-url are not available in this version yet; run without it to check the embedded reference');
  }
  const json = flag(args, 'json');
  const seed = wholeNumber(args, 'seed');
  const timeoutMs = wholeNumber(args, 'timeout');
  const out = stringOption(args, 'out');
  const outcome = await runConformance({
    only: stringOptions(args, 'only'),
    ...(seed === undefined ? {} : { seed }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(out === undefined ? {} : { out }),
    ...(json
      ? {}
      : {
          progress: {
            section: (file, results) => {
              const failed = results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').length;
              io.stdout.write(`${file}: ${results.length} checks, ${results.length - failed} ok${failed ? `, ${failed} FAILED` : ''}\n`);
            },
          },
        }),
  });
  if (outcome.report && json) io.stdout.write(`${JSON.stringify(outcome.report, null, 2)}\n`);
  else if (outcome.report && outcome.runDir) io.stdout.write(humanSummary(outcome.report, outcome.runDir));
  if (outcome.problem) io.stderr.write(`agent-platform-conformance run: ${outcome.problem}\n`);
  return outcome.exitCode;
}

export const runCommand: Command = {
  name: NAME,
  summary: 'run the conformance suites and write report.json, junit.xml and summary.md',
  usage: '[--only ID-or-SECTION]... [--seed N] [--out DIR] [--timeout MS] [--json]',
  description: [
    'Runs the suites (one per spec section) against the embedded reference deployment and writes',
    'DIR/<run-id>/report.json, junit.xml and summary.md. --only takes a section (7.3) or a requirement id',
    '(AUTH-SIGNATURE-EXPIRED) and may repeat. Exit 0 conformant, 1 a MUST check failed, 2 a selection that',
    'selects nothing or bad options, 3 a harness failure (the report is then marked incomplete).',
    '--base-url and --fixture-url (live runs) are not available in this version yet.',
  ].join('\n'),
  options: {
    only: { type: 'string', multiple: true, value: 'ID-or-SECTION', help: 'run only this section or requirement (repeatable)' },
    seed: { type: 'string', value: 'N', help: 'seed for property-based checks (default: random, printed)' },
    out: { type: 'string', value: 'DIR', help: 'where reports go (default reports/)' },
    timeout: { type: 'string', value: 'MS', help: 'per-check timeout in milliseconds' },
    json: { type: 'boolean', help: 'print report.json on stdout instead of the text summary' },
    'base-url': { type: 'string', value: 'URL', help: 'live deployment to check (not available in this version yet)' },
    'fixture-url': { type: 'string', value: 'URL', help: 'where the deployment reaches the fixture host (not available yet)' },
  },
  positionals: { names: [], min: 0, max: 0 },
  examples: ['agent-platform-conformance run', 'agent-platform-conformance run --only 7.3 --seed 42 --out ci-reports'],
  available: true,
  run: runRun,
};
