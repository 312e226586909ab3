import { renameSync, writeFileSync } from 'node:fs';
import { makeFolder } from './make-folder.js';
import { exchangeText, redactedReport } from './exchange.js';
import { join } from 'node:path';
import { reportHtml } from './report-html.js';
import { catalogueFor, requirementCoverage } from './coverage.js';
import { MUTANTS } from '../mutants/catalogue.js';
import { CLIENT_MUTANTS } from '../mutants/client.js';
import { runVerdict, RUN_VERDICT_LABELS, type CheckResult, type RunReport } from './results.js';
import { judgedWords, notRunGroups } from './not-run-needs.js';
import { namingWords } from './naming.js';
import { pacingWords, rerunCommand, targetHeading } from './report-heading.js';

function atomicWrite(path: string, text: string): void {
  const temporary = `${path}.partial`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

const xml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The first line of a message, at most 300 characters: what a failure's one-line headline can hold. */
function firstLine(message: string | undefined): string {
  const line = (message ?? '').split('\n', 1)[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** The last exchange of a failed check (the one that failed), as HTTP text. */
function exchanges(r: CheckResult): string {
  const last = r.exchanges?.at(-1);
  return last ? `\n\n${exchangeText(last)}` : '';
}

/**
 * JUnit XML: one testsuite per suite file; every testcase named by its check id (stable, so CI history follows a
 * check across versions) with its title and requirements as properties; failures carry the requirement and, in
 * their message attribute, the reason's first line.
 */
export function junitXml(report: RunReport): string {
  const bySuite = new Map<string, CheckResult[]>();
  for (const r of report.results) bySuite.set(r.suite, [...(bySuite.get(r.suite) ?? []), r]);
  const suites = [...bySuite].map(([suite, results]) => {
    const failures = results.filter((r) => r.verdict === 'fail' && !r.expected).length;
    const errors = results.filter((r) => r.verdict === 'error' && !r.expected).length;
    const skipped = results.filter((r) => r.verdict === 'not-run' || r.expected).length;
    const time = results.reduce((t, r) => t + r.durationMs, 0) / 1000;
    const cases = results.map((r) => {
      const attributes = `name="${xml(r.id)}" classname="${xml(suite)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      const properties = `<properties><property name="title" value="${xml(r.name)}"/><property name="requirements" value="${xml(r.requirements.join(' '))}"/><property name="level" value="${r.level}"/></properties>`;
      const requirement = `${r.level} ${r.requirements.join(' ') || '(no requirement id)'}`;
      // A CI view often shows only the attribute: it carries the reason too (the message's first line, clipped).
      const reason = firstLine(r.message);
      const headline = reason ? `${requirement}: ${reason}` : requirement;
      const body = r.expected
        ? `<skipped message="${xml(`expected failure (${r.expected.id}): ${r.expected.reason}`)}"/>`
        : r.verdict === 'fail'
          ? `<failure message="${xml(headline)}">${xml(`${requirement}\n${r.message ?? ''}${exchanges(r)}`)}</failure>`
          : r.verdict === 'error'
            ? `<error message="${xml(headline)}">${xml(r.message ?? '')}</error>`
            : r.verdict === 'not-run'
              ? `<skipped message="${xml(r.message ?? '')}"/>`
              : r.verdict === 'warn'
                ? `<system-out>${xml(`warning: ${requirement}\n${r.message ?? ''}`)}</system-out>`
                : '';
      return `    <testcase ${attributes}>${properties}${body}</testcase>`;
    });
    return `  <testsuite name="${xml(suite)}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const baseline = expectedFailuresSuite(report);
  if (baseline) suites.push(baseline.xml);
  const tests = report.results.length + (baseline?.tests ?? 0);
  const failures = report.results.filter((r) => r.verdict === 'fail' && !r.expected).length + (baseline?.failures ?? 0);
  const errors = report.results.filter((r) => r.verdict === 'error' && !r.expected).length;
  const skipped = report.results.filter((r) => r.verdict === 'not-run' || r.expected).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agent-platform-conformance" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The expected-failures file as a suite of its own: each entry a testcase, a stale one (its checks now pass) a failure. */
function expectedFailuresSuite(report: RunReport): { xml: string; tests: number; failures: number } | undefined {
  const x = report.expectedFailures;
  if (x === undefined) return undefined;
  const name = `expected failures ${x.file}`;
  const cases = x.entries.map((e) => {
    const attributes = `name="${xml(e.id)}" classname="${xml(name)}" time="0.000"`;
    const body =
      e.outcome === 'stale'
        ? `<failure message="${xml(`listed as expected to ${e.verdict}, now passes`)}">${xml(`${e.checks.join(' ')} now pass; remove ${e.id} from ${x.file} (reason given: ${e.reason})`)}</failure>`
        : `<system-out>${xml(`${e.outcome}: ${e.reason}`)}</system-out>`;
    return `    <testcase ${attributes}>${body}</testcase>`;
  });
  const failures = x.entries.filter((e) => e.outcome === 'stale').length;
  return {
    xml: `  <testsuite name="${xml(name)}" tests="${x.entries.length}" failures="${failures}" errors="0" skipped="0" time="0.000">\n${cases.join('\n')}\n  </testsuite>`,
    tests: x.entries.length,
    failures,
  };
}

/** A Markdown page that fits a CI job summary. */
export function summaryMarkdown(report: RunReport): string {
  const c = report.counts;
  const verdict = RUN_VERDICT_LABELS[runVerdict(report)];
  const lines = [
    `# Conformance: ${verdict}`,
    '',
    `Target: ${report.target.description} (${report.target.kind}) · run ${report.runId} · seed ${report.seed}${report.complete ? '' : ' · **incomplete**'}`,
    ...targetHeading(report).flatMap(([, label, value], i) => [...(i === 0 ? [''] : []), `- ${label}: \`${value}\``]),
    ...(report.target.naming ? ['', `Names: ${namingWords(report.target.naming).join('; ')}`] : []),
    ...(report.pacing ? ['', `Pacing: ${pacingWords(report.pacing)}`] : []),
    '',
    `Repeat: \`${rerunCommand(report)}\``,
    '',
    '| pass | fail (MUST) | warn (SHOULD) | not run | error | total |',
    '|---|---|---|---|---|---|',
    `| ${c.pass} | ${c.fail} | ${c.warn} | ${c['not-run']} | ${c.error} | ${c.total} |`,
    '',
    `**${verdict}** (${judgedWords(report)})`,
    ...enableNextLines(report),
  ];
  // Failures first; checks that did not run are not failures and come after them.
  const notable = [...report.results.filter((r) => r.verdict !== 'pass' && r.verdict !== 'not-run'), ...report.results.filter((r) => r.verdict === 'not-run')];
  if (notable.length) {
    lines.push('', '| verdict | requirement | check | why |', '|---|---|---|---|');
    for (const r of notable.slice(0, 200)) {
      const why = (r.message ?? '').split('\n')[0]!.replace(/\|/g, '\\|').slice(0, 200);
      lines.push(`| ${r.verdict}${r.expected ? ' (expected)' : ''} | ${r.requirements.join(' ')} | ${r.name.replace(/\|/g, '\\|')} | ${why} |`);
    }
  }
  if (report.expectedFailures) {
    lines.push('', `## Expected failures (${report.expectedFailures.file})`, '', '| id | outcome | reason |', '|---|---|---|');
    for (const e of report.expectedFailures.entries) lines.push(`| ${e.id} | ${e.outcome} | ${e.reason.replace(/\|/g, '\\|')} |`);
  }
  for (const e of report.harnessErrors) lines.push('', `Harness error: ${e}`);
  lines.push(...selfTestLines(report), ...coverageLines(report));
  return `${lines.join('\n')}\n`;
}

/** What would run the checks that did not: one line per need, largest first. */
function enableNextLines(report: RunReport): string[] {
  const groups = notRunGroups(report.results);
  if (groups.length === 0) return [];
  return ['', '## What to enable next', '', '| not run | what would run them |', '|---|---|', ...groups.map((g) => `| ${g.checks} | ${g.need.enable} |`)];
}

function selfTestLines(report: RunReport): string[] {
  const s = report.selfTest;
  if (!s) return [];
  const m = s.mutants;
  const lines = [
    '',
    `## Self-test: ${s.passed ? 'PASSED' : 'FAILED'}`,
    '',
    `Mutation score **${(m.score * 100).toFixed(1)}%**: ${m.killed} of ${m.total} mutants caught (${m.deep.killed} of ${m.deep.total} deep), ${m.survived} survived, in ${(s.wallTimeMs / 1000).toFixed(1)} s.`,
    `Conformant variants: ${s.variants.conformant} of ${s.variants.total} passed, ${s.variants.falseFails} false fails.`,
  ];
  for (const v of s.variantOutcomes.filter((o) => o.verdict !== 'conformant'))
    lines.push(`- variant ${v.id}: ${v.verdict} ${v.failures.map((f) => f.check).join(', ')}`);
  const survivors = s.outcomes.filter((o) => o.verdict === 'survived');
  if (survivors.length) {
    lines.push('', '| survivor | requirements | why |', '|---|---|---|');
    for (const o of survivors.slice(0, 200)) lines.push(`| ${o.id} | ${o.requirements.join(' ')} | ${(o.why ?? '').replace(/\|/g, '\\|')} |`);
  }
  return lines;
}

/** Requirement coverage: every catalogue requirement, its checks, the mutants naming it and its verdict. */
function coverageLines(report: RunReport): string[] {
  const coverage = requirementCoverage(report.results, catalogueFor(report));
  const judged = new Map((report.selfTest?.requirements ?? []).map((r) => [r.id, r]));
  const lines = [
    '',
    '## Requirement coverage',
    '',
    `${coverage.counts.covered} of ${coverage.counts.total} catalogue requirements covered.`,
    '',
    '| requirement | checks | mutants | verdict |',
    '|---|---|---|---|',
  ];
  for (const r of coverage.requirements) {
    const j = judged.get(r.id);
    const mutants = j ? `${j.killed}/${j.mutants}` : String([...MUTANTS, ...CLIENT_MUTANTS].filter((m) => m.requirements.includes(r.id)).length);
    lines.push(`| ${r.id} | ${r.checks.length} | ${mutants} | ${j ? j.verdict : r.status}${j?.note ? ` (${j.note.replace(/\|/g, '\\|')})` : ''} |`);
  }
  return lines;
}

/** Writes report.json, junit.xml, report.html and summary.md under `dir/<runId>/`, each file atomically. */
export function writeReports(dir: string, written: RunReport): string {
  const report = redactedReport(written);
  const runDir = join(dir, report.runId);
  makeFolder(runDir);
  atomicWrite(join(runDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  atomicWrite(join(runDir, 'junit.xml'), junitXml(report));
  atomicWrite(join(runDir, 'report.html'), reportHtml(report));
  atomicWrite(join(runDir, 'summary.md'), summaryMarkdown(report));
  return runDir;
}
