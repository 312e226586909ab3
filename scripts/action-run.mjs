#!/usr/bin/env node
// The step of action.yml (the GitHub Action): runs `agent-platform-conformance run` with the action's inputs, appends
// the run's summary.md to the job summary and writes the step's outputs. Plain Node, no dependencies, so that a test
// (tests/e2e/action.test.ts) runs it as the Action does: INPUT_* variables, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'agent-platform-conformance';
/** The checkout this script belongs to: the action's folder ($GITHUB_ACTION_PATH). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const input = (name) => (process.env[`INPUT_${name.toUpperCase().replaceAll('-', '_')}`] ?? '').trim();
/** A list input: words separated by spaces, commas or new lines. */
const words = (name) =>
  input(name)
    .split(/[\s,]+/)
    .filter(Boolean);

function fail(message, code = 2) {
  process.stderr.write(`::error::${PACKAGE} action: ${message}\n`);
  process.exit(code);
}

/** The run's words after `run`, one option per input that was given. */
function runArgs(out) {
  const args = ['run', '--out', out, '--json'];
  const baseUrl = input('base-url');
  if (baseUrl) args.push('--base-url', baseUrl);
  for (const [name, option] of [
    ['agent-url', 'agent-url'],
    ['service-name', 'service-name'],
    ['expected-failures', 'expected-failures'],
    ['fixture-url', 'fixture-url'],
    ['chromium', 'chromium'],
  ]) {
    const value = input(name);
    if (value) args.push(`--${option}`, value);
  }
  const spendCap = input('spend-cap');
  if (spendCap) args.push('--allow-spend', '--spend-cap', spendCap);
  for (const word of words('only')) args.push('--only', word);
  for (const word of words('skip')) args.push('--skip', word);
  args.push(...input('args').split(/\s+/).filter(Boolean));
  return args;
}

/**
 * The command line to run: a given version from the registry; else this checkout when its dependencies are installed
 * (`uses: ./` in the package's own repository after npm ci); else the registry's copy of this checkout's version.
 */
function cli() {
  const version = input('version');
  const npx = (v) => ['npx', ['--yes', `${PACKAGE}@${v}`]];
  if (version) return npx(version);
  const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
  const entry = join(ROOT, 'src', 'cli', 'entry.ts');
  if (existsSync(tsx) && existsSync(entry)) return [tsx, [entry]];
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  if (own.name !== PACKAGE) fail(`${ROOT} is not a checkout of ${PACKAGE}; give the version input`);
  return npx(own.version);
}

/** Runs the CLI: stdout (report.json, with --json) is kept, progress on stderr goes to the log as it comes. */
function runCli(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => fail(`could not start ${command}: ${error.message}`, 3));
    child.on('close', (code, signal) => done({ code: code ?? (signal ? 3 : 0), stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

function output(name, value) {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) return;
  const text = String(value);
  if (/[\r\n]/.test(text)) throw new Error(`output ${name} spans lines`);
  appendFileSync(file, `${name}=${text}\n`);
}

const out = resolve(input('out') || 'conformance-reports');
const [command, prefix] = cli();
const args = runArgs(out);
process.stderr.write(`${PACKAGE} action: ${[command, ...prefix, ...args].join(' ')}\n`);
const { code, stdout } = await runCli(command, [...prefix, ...args]);
output('exit-code', code);

let report;
try {
  report = stdout.trim() ? JSON.parse(stdout) : undefined;
} catch {
  report = undefined;
}
if (!report) {
  // No report: bad options (2) or a target that never answered (3); the CLI said why on stderr.
  output('verdict', 'NO REPORT');
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) appendFileSync(summary, `# Conformance: NO REPORT\n\nThe run wrote no report (exit ${code}); its log says why.\n`);
  process.exit(code || 3);
}

const reportDir = join(out, report.runId);
const summaryFile = join(reportDir, 'summary.md');
const summaryText = existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '';
// The verdict in the report's own words: the heading of summary.md (# Conformance: CONFORMANT).
const verdict = /^# Conformance: (.+)$/m.exec(summaryText)?.[1] ?? 'UNKNOWN';
output('verdict', verdict);
for (const [name, value] of Object.entries(report.counts)) output(name, value);
output('complete', report.complete);
output('report-dir', reportDir);
output('report-json', join(reportDir, 'report.json'));
if (process.env.GITHUB_STEP_SUMMARY && summaryText)
  appendFileSync(process.env.GITHUB_STEP_SUMMARY, summaryText.endsWith('\n') ? summaryText : `${summaryText}\n`);
const c = report.counts;
process.stdout.write(
  `${verdict}: ${c.pass} passed, ${c.fail} failed, ${c.warn} warnings, ${c['not-run']} not run, ${c.error} errors (${c.total} checks)\nreports: ${reportDir}\n`,
);
process.exit(code);
