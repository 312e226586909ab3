import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { exchangeText } from './exchange.js';
import type { CheckResult, RunReport } from './results.js';

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

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The verdict of one check as its JUnit child element, or nothing for a pass. */
function verdictElement(testcase: XMLBuilder, r: CheckResult): void {
  const requirement = `${r.level} ${r.requirements.join(' ') || '(no requirement id)'}`;
  // A CI view often shows only the attribute: it carries the reason too (the message's first line, clipped).
  const reason = firstLine(r.message);
  const headline = reason ? `${requirement}: ${reason}` : requirement;
  if (r.expected) testcase.ele('skipped', { message: `expected failure (${r.expected.id}): ${r.expected.reason}` });
  else if (r.verdict === 'fail') testcase.ele('failure', { message: headline }).txt(`${requirement}\n${r.message ?? ''}${exchanges(r)}`);
  else if (r.verdict === 'error') testcase.ele('error', { message: headline }).txt(r.message ?? '');
  else if (r.verdict === 'not-run') testcase.ele('skipped', { message: r.message ?? '' });
  else if (r.verdict === 'warn') testcase.ele('system-out').txt(`warning: ${requirement}\n${r.message ?? ''}`);
}

/**
 * JUnit XML: one testsuite per suite file; every testcase named by its check id (stable, so CI history follows a
 * check across versions) with its title and requirements as properties; failures carry the requirement and, in
 * their message attribute, the reason's first line. xmlbuilder2 escapes every name and message and drops the
 * characters XML 1.0 cannot hold (control characters a terminal colour code brings, U+FFFE, U+FFFF).
 */
export function junitXml(report: RunReport): string {
  const bySuite = new Map<string, CheckResult[]>();
  for (const r of report.results) bySuite.set(r.suite, [...(bySuite.get(r.suite) ?? []), r]);
  const baseline = report.expectedFailures;
  const stale = baseline?.entries.filter((e) => e.outcome === 'stale').length ?? 0;
  const document = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  const root = document.ele('testsuites', {
    name: 'agent-platform-conformance',
    tests: String(report.results.length + (baseline?.entries.length ?? 0)),
    failures: String(report.results.filter((r) => r.verdict === 'fail' && !r.expected).length + stale),
    errors: String(report.results.filter((r) => r.verdict === 'error' && !r.expected).length),
    skipped: String(report.results.filter((r) => r.verdict === 'not-run' || r.expected).length),
  });
  for (const [suite, results] of bySuite) {
    const suiteElement = root.ele('testsuite', {
      name: suite,
      tests: String(results.length),
      failures: String(results.filter((r) => r.verdict === 'fail' && !r.expected).length),
      errors: String(results.filter((r) => r.verdict === 'error' && !r.expected).length),
      skipped: String(results.filter((r) => r.verdict === 'not-run' || r.expected).length),
      time: seconds(results.reduce((t, r) => t + r.durationMs, 0)),
    });
    for (const r of results) {
      const testcase = suiteElement.ele('testcase', { name: r.id, classname: suite, time: seconds(r.durationMs) });
      const properties = testcase.ele('properties');
      properties.ele('property', { name: 'title', value: r.name });
      properties.ele('property', { name: 'requirements', value: r.requirements.join(' ') });
      properties.ele('property', { name: 'level', value: r.level });
      verdictElement(testcase, r);
    }
  }
  // The expected-failures file as a suite of its own: each entry a testcase, a stale one (its checks now pass) a failure.
  if (baseline) {
    const name = `expected failures ${baseline.file}`;
    const suiteElement = root.ele('testsuite', {
      name,
      tests: String(baseline.entries.length),
      failures: String(stale),
      errors: '0',
      skipped: '0',
      time: '0.000',
    });
    for (const e of baseline.entries) {
      const testcase = suiteElement.ele('testcase', { name: e.id, classname: name, time: '0.000' });
      if (e.outcome === 'stale')
        testcase
          .ele('failure', { message: `listed as expected to ${e.verdict}, now passes` })
          .txt(`${e.checks.join(' ')} now pass; remove ${e.id} from ${baseline.file} (reason given: ${e.reason})`);
      else testcase.ele('system-out').txt(`${e.outcome}: ${e.reason}`);
    }
  }
  return `${document.end({ prettyPrint: true, indent: '  ' })}\n`;
}
