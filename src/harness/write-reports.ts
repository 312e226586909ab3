import { spendWords } from './spend-ledger.js';
import { renameSync, writeFileSync } from 'node:fs';
import { makeFolder } from './make-folder.js';
import { redactedReport } from './exchange.js';
import { junitXml } from './junit.js';
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
    ...(report.spend ? ['', `Spend: ${spendWords(report.spend)}`] : []),
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
  const row = (r: CheckResult) => {
    const why = (r.message ?? '').split('\n')[0]!.replace(/\|/g, '\\|').slice(0, 200);
    return `| ${r.verdict}${r.expected ? ' (expected)' : ''} | ${r.requirements.join(' ')} | ${r.name.replace(/\|/g, '\\|')} | ${why} |`;
  };
  // Verdicts on the target first; the checks that did not run apart, folded, since none of them is a verdict.
  const judged = report.results.filter((r) => r.verdict !== 'pass' && r.verdict !== 'not-run');
  if (judged.length) lines.push('', '| verdict | requirement | check | why |', '|---|---|---|---|', ...judged.slice(0, 200).map(row));
  const notRun = report.results.filter((r) => r.verdict === 'not-run');
  if (notRun.length) {
    lines.push('', `<details><summary>${notRun.length} checks not run, each with its reason</summary>`, '');
    lines.push('| verdict | requirement | check | why |', '|---|---|---|---|', ...notRun.slice(0, 200).map(row), '', '</details>');
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
