import type { ExpectedOutcome } from './expected-failures.js';
import { runVerdict, RUN_VERDICT_LABELS, type RunVerdict } from './results.js';
import { judgedWords, notRunGroups } from './not-run-needs.js';
import { MUTANTS } from '../mutants/catalogue.js';
import { CLIENT_MUTANTS } from '../mutants/client.js';
import { FAILING_REQUIREMENT_VERDICTS, REQUIREMENT_VERDICTS, type MutantOutcome, type RequirementSelfTest, type VariantOutcome } from './self-test.js';
import {
  catalogueFor,
  requirementCoverage,
  sectionsOfCheck,
  type Coverage,
  type CoverageStatus,
  type CoveringCheck,
  type RequirementCoverage,
} from './coverage.js';
import { BODY_LIMIT, type Exchange, type RecordedRequest, type RecordedResponse } from './exchange.js';
import type { CheckResult, RunReport, Verdict } from './results.js';
import { namingWords } from './naming.js';
import { pacingWords, rerunCommand, targetHeading } from './report-heading.js';
import { spendWords } from './spend-ledger.js';

/*
 * report.html: one self-contained page rendered from report.json. Every piece of text from the report goes
 * through the `h` template, which escapes it; only the page's own markup is ever raw.
 */

// ---------------------------------------------------------------- escaping

/** Markup the page made itself; anything else interpolated into `h` is text and is escaped. */
class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** C0 controls (except tab, line feed, carriage return) and DEL, shown as visible escapes rather than dropped. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or a quoted attribute value: every markup character and control character escaped. */
export function escapeHtml(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function render(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false || part === true) return '';
  return escapeHtml(String(part));
}

function h(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (const [i, v] of values.entries()) out += render(v) + strings[i + 1]!;
  return new Html(out);
}

// ---------------------------------------------------------------- verdicts

const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warn', 'not-run', 'error'];
const VERDICT_LABELS: Readonly<Record<Verdict, string>> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', 'not-run': 'NOT RUN', error: 'ERROR' };
const VERDICT_MARKS: Readonly<Record<Verdict, string>> = { pass: '✓', fail: '✗', warn: '!', 'not-run': '–', error: '⚠' };
const COUNT_WORDS: Readonly<Record<Verdict, string>> = {
  pass: 'passed',
  fail: 'failed (MUST)',
  warn: 'warnings (SHOULD)',
  'not-run': 'not run',
  error: 'errors',
};
const COVERAGE_LABELS: Readonly<Record<CoverageStatus, string>> = { covered: 'COVERED', failing: 'FAILING', 'not-run': 'NOT RUN', 'no-check': 'NO CHECK' };
const COVERAGE_CLASS: Readonly<Record<CoverageStatus, string>> = { covered: 'pass', failing: 'fail', 'not-run': 'not-run', 'no-check': 'none' };
/** Worst first: the order non-passing checks are listed in. */
const SEVERITY: readonly Verdict[] = ['fail', 'error', 'warn', 'not-run', 'pass'];

/** Titles of the spec sections the catalogue covers; display only (ids come from the catalogue). */
const SECTION_TITLES: Readonly<Record<string, string>> = {
  '2.4': 'Key set, agent card and key directory',
  '5.2': 'Signed requests toward the platform',
  '7.1': 'Host bridge errors',
  '7.2': 'Agent endpoint errors',
  '7.3': 'Agent authentication (401)',
  '7.4': 'Machine purchases',
  '8': 'Limits',
};

const badge = (verdict: Verdict) =>
  h`<span class="badge v-${verdict}" data-label="${verdict}"><span aria-hidden="true">${VERDICT_MARKS[verdict]}</span> ${VERDICT_LABELS[verdict]}</span>`;
const coverageBadge = (status: CoverageStatus) => h`<span class="badge v-${COVERAGE_CLASS[status]}" data-label="${status}">${COVERAGE_LABELS[status]}</span>`;

/** The verdict of a group of checks: the worst verdict in it, or none when it has no check. */
function groupVerdict(results: readonly CheckResult[]): Verdict | 'none' {
  if (results.length === 0) return 'none';
  for (const v of ['fail', 'error', 'warn'] as const) if (results.some((r) => r.verdict === v)) return v;
  return results.some((r) => r.verdict === 'pass') ? 'pass' : 'not-run';
}

const groupBadge = (v: Verdict | 'none') => (v === 'none' ? h`<span class="badge v-none" data-label="none">NO CHECK</span>` : badge(v));

function tallyVerdicts(results: readonly CheckResult[]): Record<Verdict, number> {
  const t: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, 'not-run': 0, error: 0 };
  for (const r of results) t[r.verdict]++;
  return t;
}

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const clean = (text: string) => text.replace(ANSI, '');

function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a.localeCompare(b);
}

// ---------------------------------------------------------------- parts of the page

function why(report: RunReport, verdict: RunVerdict): string {
  const c = report.counts;
  if (verdict === 'not-conformant') {
    const parts = [c.fail ? `${plural(c.fail, 'MUST check')} failed` : '', c.error ? `${plural(c.error, 'check')} errored` : ''].filter(Boolean);
    return `${parts.join(' and ')}.${report.complete ? '' : ' The run is also incomplete.'}`;
  }
  if (verdict === 'baseline-stale') {
    const stale = report.expectedFailures!.entries.filter((e) => e.outcome === 'stale');
    return `${plural(stale.length, 'expected failure')} of ${report.expectedFailures!.file} now pass: remove ${stale.map((e) => e.id).join(', ')} from the file.`;
  }
  if (verdict === 'as-expected') {
    const listed = report.results.filter((r) => r.expected !== undefined).length;
    return `Every check that failed is listed in ${report.expectedFailures!.file} (${plural(listed, 'check')}); no other MUST check failed.`;
  }
  if (verdict === 'incomplete') {
    if (report.harnessErrors.length) return `The harness failed (${plural(report.harnessErrors.length, 'error')} below); not every check reported.`;
    if (!report.complete) return 'The run was interrupted before every check reported.';
    return c.total === 0 ? 'No check ran: the selection selects nothing.' : 'No check ran: every selected check was skipped.';
  }
  const extra = [c.warn ? `${plural(c.warn, 'SHOULD check')} warned` : '', c['not-run'] ? `${c['not-run']} did not run` : ''].filter(Boolean);
  return `Every MUST check that ran passed${extra.length ? `; ${extra.join('; ')}` : ''}.`;
}

/** What would run the checks that did not, grouped by need: apart from the failures, in the not-run colour. */
function enableNext(report: RunReport): Html {
  const groups = notRunGroups(report.results);
  if (groups.length === 0) return h``;
  return h`<section class="enable-next" id="enable-next"><h2>What to enable next</h2><ul>
${groups.map(
  (g) => h`<li data-need="${g.need.id}"><span class="n">${g.checks}</span> ${g.need.words}: ${g.need.enable}</li>
`,
)}</ul></section>
`;
}

function durationText(report: RunReport): string {
  const ms = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'unknown';
}

function summary(report: RunReport, verdict: RunVerdict, coverage: Coverage): Html {
  const c = report.counts;
  return h`<header id="summary" class="run-${verdict}" data-verdict="${verdict}" data-complete="${String(report.complete)}" data-pass="${c.pass}" data-fail="${c.fail}" data-warn="${c.warn}" data-not-run="${c['not-run']}" data-error="${c.error}" data-total="${c.total}" data-run-id="${report.runId}" data-seed="${report.seed}">
<p class="eyebrow">Agent Platform Interface conformance · ${report.tool.name} ${report.tool.version}</p>
<h1><span class="headline" id="verdict">${RUN_VERDICT_LABELS[verdict]}</span></h1>
<p class="why">${why(report, verdict)}</p>
<p class="judged" data-field="judged">${judgedWords(report)}</p>
${enableNext(report)}<ul class="counts">
${VERDICTS.map((v) => h`<li class="count v-${v}" data-count="${v}"><span class="n">${c[v]}</span> ${COUNT_WORDS[v]}</li>\n`)}<li class="count total" data-count="total"><span class="n">${c.total}</span> checks</li>
</ul>
<dl class="meta">
<dt>Target</dt><dd data-field="target">${report.target.description} <span class="muted">(${report.target.kind})</span></dd>
${targetHeading(report).map(
  ([field, label, value]) => h`<dt>${label}</dt><dd data-field="${field}"><code>${value}</code></dd>
`,
)}${
  report.pacing
    ? h`<dt>Pacing</dt><dd data-field="pacing">${pacingWords(report.pacing)}</dd>
`
    : ''
}${
  report.spend
    ? h`<dt>Spend</dt><dd data-field="spend">${spendWords(report.spend)}</dd>
`
    : ''
}${report.target.naming ? h`<dt>Names</dt><dd data-field="naming">${namingWords(report.target.naming).join('; ')}</dd>\n` : ''}<dt>Run id</dt><dd data-field="run-id"><code>${report.runId}</code></dd>
<dt>Seed</dt><dd data-field="seed"><code>${report.seed}</code></dd>
<dt>Started</dt><dd data-field="started"><time datetime="${report.startedAt}">${report.startedAt}</time></dd>
<dt>Finished</dt><dd data-field="finished"><time datetime="${report.finishedAt}">${report.finishedAt}</time> <span class="muted">(${durationText(report)})</span></dd>
<dt>Selection</dt><dd data-field="selection">${report.selection.length ? report.selection.map((s) => h`<code>${s}</code> `) : 'every section (full run)'}</dd>
<dt>Coverage</dt><dd data-field="coverage">${coverage.counts.covered} of ${coverage.counts.total} catalogue requirements covered</dd>
<dt>Repeat</dt><dd data-field="rerun"><code>${rerunCommand(report)}</code></dd>
</dl>
</header>`;
}

function harnessErrors(report: RunReport): Html | '' {
  if (report.harnessErrors.length === 0) return '';
  return h`<section id="harness-errors" data-count="${report.harnessErrors.length}">
<h2>Harness errors</h2>
<p>The harness itself failed; these are not verdicts on the target, and they make the run incomplete.</p>
<ol>${report.harnessErrors.map((e) => h`<li class="harness-error"><pre>${clean(e)}</pre></li>`)}</ol>
</section>`;
}

const countCells = (t: Record<Verdict, number>) => VERDICTS.map((v) => h`<td class="num${t[v] ? ` has-${v}` : ''}" data-count="${v}">${t[v]}</td>`);
const countHeads = h`<th class="num">pass</th><th class="num">fail</th><th class="num">warn</th><th class="num">not run</th><th class="num">error</th>`;

function bySection(report: RunReport, coverage: Coverage): Html {
  const sections = new Map<string, CheckResult[]>();
  for (const s of coverage.sections) sections.set(s.section, []);
  const unplaced: CheckResult[] = [];
  for (const r of report.results) {
    const of = sectionsOfCheck(r, catalogueFor(report));
    if (of.length === 0) unplaced.push(r);
    for (const s of of) (sections.get(s) ?? sections.set(s, []).get(s)!).push(r);
  }
  const rows = [...sections]
    .sort(([a], [b]) => compareSections(a, b))
    .map(([section, results]) => {
      const sc = coverage.sections.find((s) => s.section === section);
      const verdict = groupVerdict(results);
      return h`<tr data-section="${section}" data-verdict="${verdict}"><th scope="row">${section}</th><td>${SECTION_TITLES[section] ?? ''}</td><td>${groupBadge(verdict)}</td>${countCells(tallyVerdicts(results))}<td class="num" data-covered="${sc?.counts.covered ?? 0}" data-requirements="${sc?.counts.total ?? 0}">${sc ? `${sc.counts.covered} / ${sc.counts.total}` : '—'}</td></tr>\n`;
    });
  if (unplaced.length) {
    const verdict = groupVerdict(unplaced);
    rows.push(
      h`<tr data-section="" data-verdict="${verdict}"><th scope="row">—</th><td>checks with no known section</td><td>${groupBadge(verdict)}</td>${countCells(tallyVerdicts(unplaced))}<td class="num">—</td></tr>\n`,
    );
  }
  return h`<section id="sections">
<h2>By spec section</h2>
<p class="muted">A check counts under the section of each catalogue requirement it names, or else under its suite file's section.</p>
<table class="grid"><thead><tr><th>Section</th><th>Title</th><th>Verdict</th>${countHeads}<th class="num">Requirements covered</th></tr></thead>
<tbody>
${rows}</tbody></table>
</section>`;
}

function bySuite(report: RunReport): Html {
  const suites = new Map<string, CheckResult[]>();
  for (const r of report.results) (suites.get(r.suite) ?? suites.set(r.suite, []).get(r.suite)!).push(r);
  const rows = [...suites].map(([suite, results]) => {
    const verdict = groupVerdict(results);
    const ms = results.reduce((t, r) => t + r.durationMs, 0);
    return h`<tr data-suite="${suite}" data-verdict="${verdict}"><th scope="row"><code>${suite}</code></th><td>${groupBadge(verdict)}</td>${countCells(tallyVerdicts(results))}<td class="num">${(ms / 1000).toFixed(2)} s</td></tr>\n`;
  });
  return h`<section id="suites">
<h2>By suite file</h2>
${
  rows.length
    ? h`<table class="grid"><thead><tr><th>Suite</th><th>Verdict</th>${countHeads}<th class="num">Time</th></tr></thead>
<tbody>
${rows}</tbody></table>`
    : h`<p>No check reported.</p>`
}
</section>`;
}

/** Where a check is shown in full: its article when it did not pass, else its row of the table of all checks. */
const checkHref = (index: number, verdict: Verdict) => (verdict === 'pass' ? `#row-${index}` : `#check-${index}`);
const checkLink = (c: CoveringCheck) => h`<li>${badge(c.verdict)} <a href="${checkHref(c.index, c.verdict)}">${c.name}</a></li>`;

function checkList(checks: readonly CoveringCheck[], verdicts: Record<Verdict, number>): Html | string {
  if (checks.length === 0) return '';
  const line = VERDICTS.filter((v) => verdicts[v])
    .map((v) => `${verdicts[v]} ${VERDICT_LABELS[v].toLowerCase()}`)
    .join(', ');
  return h`<details class="covering"><summary>${plural(checks.length, 'check')}: ${line}</summary><ul>${checks.map(checkLink)}</ul></details>`;
}

/** The mutants cell: how many catalogue mutants name the requirement (caught of tried, in a self-test). */
function mutantCell(id: string, selfTest: RequirementSelfTest | undefined): Html {
  if (selfTest)
    return h`<td class="num" data-mutants="${selfTest.mutants}" data-killed="${selfTest.killed}">${selfTest.mutants ? `${selfTest.killed} of ${selfTest.mutants} caught` : '0'}</td>`;
  const n = [...MUTANTS, ...CLIENT_MUTANTS].filter((m) => m.requirements.includes(id)).length;
  return h`<td class="num" data-mutants="${n}">${n}</td>`;
}

function selfTestCell(selfTest: RequirementSelfTest | undefined): Html {
  if (!selfTest) return h`<td class="muted">run --self-test</td>`;
  const failing = FAILING_REQUIREMENT_VERDICTS.has(selfTest.verdict);
  return h`<td data-self-test="${selfTest.verdict}"><span class="badge v-${failing ? 'fail' : selfTest.verdict === 'guarded' ? 'pass' : 'not-run'}">${selfTest.verdict}</span>${selfTest.note ? h` <span class="muted">${selfTest.note}</span>` : ''}</td>`;
}

function coverageSection(report: RunReport, coverage: Coverage): Html {
  const c = coverage.counts;
  const judged = new Map((report.selfTest?.requirements ?? []).map((r) => [r.id, r]));
  const rows = coverage.requirements.map(
    (r: RequirementCoverage) =>
      h`<tr id="req-${r.id}" class="req" data-requirement="${r.id}" data-coverage="${r.status}" data-section="${r.section}" data-checks="${r.checks.length}"><th scope="row"><code>${r.id}</code></th><td>${r.section}</td><td>${r.level}</td><td class="condition">${r.condition}</td><td>${coverageBadge(r.status)}</td><td>${r.checks.length ? checkList(r.checks, r.verdicts) : h`<span class="muted">no check yet</span>`}</td>${mutantCell(r.id, judged.get(r.id))}${selfTestCell(judged.get(r.id))}</tr>\n`,
  );
  const uncatalogued = coverage.uncatalogued.length
    ? h`<h3 id="uncatalogued">Requirement ids not in the catalogue</h3>
<p class="muted">Checks name these ids, but the catalogue (src/spec/) holds no such requirement: a typo, or a requirement the catalogue lacks.</p>
<table class="grid"><thead><tr><th>Id</th><th>Coverage</th><th>Checks</th></tr></thead><tbody>
${coverage.uncatalogued.map((u) => h`<tr id="req-${u.id}" class="uncatalogued" data-uncatalogued="${u.id}" data-coverage="${u.status}"><th scope="row"><code>${u.id}</code></th><td>${coverageBadge(u.status)}</td><td>${checkList(u.checks, u.verdicts)}</td></tr>\n`)}</tbody></table>`
    : '';
  const untagged = coverage.untagged.length
    ? h`<h3 id="untagged">Checks naming no requirement</h3><ul class="untagged">${coverage.untagged.map(checkLink)}</ul>`
    : '';
  return h`<section id="coverage">
<h2>Requirement coverage</h2>
<p id="coverage-summary" data-covered="${c.covered}" data-failing="${c.failing}" data-not-run="${c['not-run']}" data-no-check="${c['no-check']}" data-total="${c.total}">
<strong>${c.covered}</strong> of ${c.total} catalogue requirements covered (every check naming them passed) · <strong>${c.failing}</strong> failing · <strong>${c['not-run']}</strong> not run · <strong>${c['no-check']}</strong> with no check${report.selection.length ? ' in this selection' : ' yet'}.</p>
${report.selection.length ? h`<p class="note">This run selected only ${report.selection.join(', ')}; requirements outside the selection show no check.</p>` : ''}
<fieldset class="filters"><legend>Show</legend>
<label><input type="checkbox" id="show-cov-covered" checked> covered</label>
<label><input type="checkbox" id="show-cov-failing" checked> failing</label>
<label><input type="checkbox" id="show-cov-not-run" checked> not run</label>
<label><input type="checkbox" id="show-cov-no-check" checked> no check</label>
</fieldset>
<table class="grid coverage"><thead><tr><th>Requirement</th><th>Section</th><th>Level</th><th>Condition</th><th>Coverage</th><th>Checks</th><th>Mutants</th><th>Self-test</th></tr></thead>
<tbody>
${rows}</tbody></table>
${uncatalogued}
${untagged}
</section>`;
}

/** `run --self-test`: the mutation score, the survivors and what caught each mutant. */
function selfTestSection(report: RunReport): Html | '' {
  const s = report.selfTest;
  if (!s) return '';
  const m = s.mutants;
  const survivors = s.outcomes.filter((o) => o.verdict === 'survived');
  const killed = s.outcomes.filter((o) => o.verdict === 'killed');
  const row = (o: MutantOutcome) =>
    h`<tr class="mutant" data-mutant="${o.id}" data-verdict="${o.verdict}"><th scope="row"><code>${o.id}</code></th><td>${o.description}</td><td>${o.requirements.map((id) => h`<code>${id}</code> `)}</td><td>${o.verdict === 'killed' ? h`<code>${o.killedBy?.check ?? ''}</code>: ${o.killedBy?.message ?? ''}` : (o.why ?? '')}</td></tr>\n`;
  const table = (list: readonly MutantOutcome[]) =>
    h`<table class="grid mutants"><thead><tr><th>Mutant</th><th>Fault</th><th>Requirements</th><th>Caught by / why it survived</th></tr></thead><tbody>${list.map(row)}</tbody></table>`;
  const variantRow = (v: VariantOutcome) =>
    h`<tr class="variant" data-variant="${v.id}" data-verdict="${v.verdict}"><th scope="row"><code>${v.id}</code></th><td>${v.description}</td><td>${v.readings.map((r) => h`<code>${r}</code> `)}</td><td>${v.verdict}${v.failures.length ? h`: ${v.failures.map((f) => h`<code>${f.check}</code> ${f.message.split('\n')[0] ?? ''} `)}` : h` (${v.tried} checks)`}</td></tr>\n`;
  return h`<section id="self-test" data-passed="${String(s.passed)}" data-score="${m.score}" data-killed="${m.killed}" data-survived="${m.survived}" data-total="${m.total}" data-wall-time-ms="${s.wallTimeMs}">
<h2>Self-test: ${s.passed ? 'PASSED' : 'FAILED'}</h2>
<p>Mutation score <strong>${(m.score * 100).toFixed(1)}%</strong>: ${m.killed} of ${m.total} mutants of the reference caught by a check naming the requirement they break (${m.deep.killed} of ${m.deep.total} deep ones, which break the rule where it is decided), ${m.survived} survived, in ${(s.wallTimeMs / 1000).toFixed(1)} s. Requirements: ${REQUIREMENT_VERDICTS.map((v) => `${s.requirementCounts[v]} ${v}`).join(', ')} (of ${s.requirementCounts.total}).</p>
<p>Conformant variants: ${s.variants.conformant} of ${s.variants.total} passed every check tried with them${s.variants.falseFails ? h`; <strong>${plural(s.variants.falseFails, 'false fail')}</strong>` : ''}.</p>
<table class="grid variants"><thead><tr><th>Variant</th><th>Choice</th><th>Readings</th><th>Verdict</th></tr></thead><tbody>${s.variantOutcomes.map(variantRow)}</tbody></table>
${s.problems.length ? h`<details open><summary>${plural(s.problems.length, 'problem')}</summary><ul class="self-test-problems">${s.problems.map((p) => h`<li>${p}</li>`)}</ul></details>` : ''}
${survivors.length ? h`<h3 id="survivors">Survivors</h3>${table(survivors)}` : ''}
<details><summary>${plural(killed.length, 'caught mutant')}</summary>${table(killed)}</details>
</section>`;
}

function bodyText(part: RecordedRequest | RecordedResponse): string {
  if (part.bodyLength === 0) return '';
  return `\n\n${part.body}`;
}

function bodyNote(part: RecordedRequest | RecordedResponse): string {
  if (part.bodyLength === 0) return 'no body';
  const shown = part.bodyEncoding === 'base64' ? Buffer.from(part.body, 'base64').length : Buffer.byteLength(part.body, 'utf8');
  // A text body is cut only past BODY_LIMIT; shorter, it shows fewer bytes only because credentials were redacted.
  const cut = shown < part.bodyLength && (part.bodyEncoding === 'base64' || part.bodyLength > BODY_LIMIT) ? `, first ${shown} shown` : '';
  const redacted = part.bodyEncoding === 'utf8' && part.body.includes('[redacted]') ? ', credentials redacted' : '';
  return `body ${part.bodyLength} bytes${part.bodyEncoding === 'base64' ? ', binary, shown as base64' : ''}${cut}${redacted}`;
}

function requestText(r: RecordedRequest): string {
  return `${r.method} ${r.url}\n${r.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}${bodyText(r)}`;
}

function responseText(r: RecordedResponse): string {
  return `${r.status}\n${Object.entries(r.headers)
    .map(([n, v]) => `${n}: ${v}`)
    .join('\n')}${bodyText(r)}`;
}

function exchangeBlock(e: Exchange, i: number, count: number): Html {
  const last = i === count - 1;
  const status = e.response ? String(e.response.status) : 'no response';
  return h`<details class="exchange" data-exchange-index="${i}" data-status="${e.response ? e.response.status : 'none'}"${last ? new Html(' open') : ''}>
<summary>Exchange ${i + 1} of ${count}${last ? ' (the last, usually the one that failed)' : ''}: <code>${e.request.method} ${e.request.url}</code> → <code>${status}</code></summary>
${e.note ? h`<p class="note" data-part="note">${e.note}</p>` : ''}
<div class="pair">
<div class="half"><h4>Request <span class="muted">(${bodyNote(e.request)})</span></h4><pre class="http" data-part="request">${requestText(e.request)}</pre></div>
<div class="half"><h4>Response${e.response ? h` <span class="muted">(${bodyNote(e.response)})</span>` : ''}</h4>${e.response ? h`<pre class="http" data-part="response">${responseText(e.response)}</pre>` : h`<p class="muted" data-part="response">No response${e.note ? '' : ' came'}.</p>`}</div>
</div>
</details>`;
}

function problem(report: RunReport, r: CheckResult, index: number): Html {
  const exchanges = r.exchanges ?? [];
  return h`<article class="check" id="check-${index}" data-verdict="${r.verdict}" data-level="${r.level}" data-check-id="${r.id}"${r.expected ? ' data-expected="true"' : ''} data-requirements="${r.requirements.join(' ')}" data-exchanges="${exchanges.length}">
<h3>${badge(r.verdict)} ${r.name}</h3>
<dl class="facts">
${r.expected ? h`<dt>Expected</dt><dd data-part="expected">listed as <code>${r.expected.id}</code> in the expected failures: ${r.expected.reason}</dd>` : ''}
<dt>Requirements</dt><dd>${r.requirements.length ? r.requirements.map((id) => h`<a class="req-id" href="#req-${id}" data-requirement-ref="${id}"><code>${id}</code></a> `) : h`<span class="muted">none named</span>`}</dd>
<dt>Level</dt><dd>${r.level}</dd>
<dt>Suite</dt><dd><code>${r.suite}</code></dd>
<dt>Check id</dt><dd><code>${r.id}</code></dd>
<dt>Time</dt><dd>${r.durationMs} ms</dd>
${r.requirements.length ? h`<dt>Repeat</dt><dd><code>${rerunCommand(report, r.requirements)}</code></dd>` : ''}
</dl>
${r.message ? h`<pre class="message" data-part="message">${clean(r.message)}</pre>` : h`<p class="muted">No message.</p>`}
${exchanges.length ? h`<div class="exchanges">${exchanges.map((e, i) => exchangeBlock(e, i, exchanges.length))}</div>` : r.verdict === 'not-run' ? '' : h`<p class="muted">No exchange was recorded for this check.</p>`}
</article>`;
}

function problems(report: RunReport): Html {
  const notable = report.results.map((r, index) => ({ r, index })).filter(({ r }) => r.verdict !== 'pass');
  notable.sort((a, b) => SEVERITY.indexOf(a.r.verdict) - SEVERITY.indexOf(b.r.verdict) || a.index - b.index);
  return h`<section id="problems" data-count="${notable.length}">
<h2>Checks that did not pass</h2>
${
  notable.length
    ? h`<p class="muted">Failures first, then errors, warnings and checks that did not run. Each shows the exact requests and responses recorded (bodies cut to 4096 bytes, credentials redacted).</p>
<p class="js-only" hidden><button type="button" data-action="expand">Expand all exchanges</button> <button type="button" data-action="collapse">Collapse all</button></p>
${notable.map(({ r, index }) => problem(report, r, index))}`
    : h`<p>Every check passed.</p>`
}
</section>`;
}

const EXPECTED_OUTCOME_WORDS: Readonly<Record<ExpectedOutcome['outcome'], string>> = {
  'failed-as-expected': 'failed as listed',
  stale: 'STALE: now passes, remove it',
  'not-run': 'did not run',
  differs: 'another verdict: reported as it is',
};

function expectedFailuresSection(report: RunReport): Html | '' {
  const x = report.expectedFailures;
  if (x === undefined) return '';
  return h`<section id="expected-failures" data-count="${x.entries.length}">
<h2>Expected failures</h2>
<p>From <code>${x.file}</code>: a listed check that fails as listed fails nothing; a listed check that now passes fails the run until it leaves the file.</p>
<table><thead><tr><th>id</th><th>verdict</th><th>outcome</th><th>checks</th><th>reason</th></tr></thead><tbody>
${x.entries.map((e) => h`<tr data-outcome="${e.outcome}"><td><code>${e.id}</code></td><td>${e.verdict}</td><td>${EXPECTED_OUTCOME_WORDS[e.outcome]}</td><td>${e.checks.map((c) => h`<code>${c}</code> `)}</td><td>${e.reason}</td></tr>\n`)}
</tbody></table>
</section>`;
}

function allChecks(report: RunReport): Html {
  return h`<section id="checks">
<h2>All checks</h2>
<fieldset class="filters"><legend>Show</legend>
${VERDICTS.map((v) => h`<label><input type="checkbox" id="show-${v}" checked> ${VERDICT_LABELS[v].toLowerCase()} (${report.counts[v]})</label>\n`)}</fieldset>
<table class="grid checks"><thead><tr><th>Verdict</th><th>Check</th><th>Requirements</th><th>Level</th><th>Suite</th><th class="num">ms</th></tr></thead>
<tbody>
${report.results.map(
  (r, i) =>
    h`<tr id="row-${i}" class="row" data-verdict="${r.verdict}" data-check-id="${r.id}" data-requirements="${r.requirements.join(' ')}"><td>${badge(r.verdict)}</td><td>${r.verdict === 'pass' ? r.name : h`<a href="${checkHref(i, r.verdict)}">${r.name}</a>`}</td><td>${r.requirements.map((id) => h`<code>${id}</code> `)}</td><td>${r.level}</td><td><code>${r.suite}</code></td><td class="num">${r.durationMs}</td></tr>\n`,
)}</tbody></table>
</section>`;
}

// ---------------------------------------------------------------- the page

const CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;--skip:#59636e;--skip-bg:#eaeef2;--error:#8250df;--error-bg:#fbefff;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--soft:#151b23;--pass:#3fb950;--pass-bg:#12261e;--fail:#f85149;--fail-bg:#2d1214;--warn:#d29922;--warn-bg:#272115;--skip:#9198a1;--skip-bg:#212830;--error:#ab7df8;--error-bg:#231a33}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1200px;margin:0 auto;padding:24px}
h1{font-size:2rem;margin:.2em 0}h2{margin-top:2em;border-bottom:1px solid var(--line);padding-bottom:.3em}h3{margin:.2em 0 .5em}h4{margin:.5em 0 .3em;font-size:.95rem}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:10px;white-space:pre-wrap;overflow-wrap:anywhere;margin:0;max-height:32em;overflow:auto}
a{color:inherit}
.muted{color:var(--muted)}.note{border-left:3px solid var(--warn);padding-left:8px}
nav{display:flex;flex-wrap:wrap;gap:4px 16px;margin:12px 0;font-size:.9rem}
#summary{border:2px solid var(--line);border-radius:10px;padding:16px 20px;margin-top:8px}
#summary.run-conformant{border-color:var(--pass);background:var(--pass-bg)}#summary.run-not-conformant{border-color:var(--fail);background:var(--fail-bg)}#summary.run-incomplete,#summary.run-as-expected{border-color:var(--warn);background:var(--warn-bg)}#summary.run-baseline-stale{border-color:var(--fail);background:var(--fail-bg)}
.eyebrow{margin:0;color:var(--muted);font-size:.9rem}.why{font-size:1.05rem;margin:.2em 0 .8em}
.counts{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0;margin:0 0 12px}
.count{border:1px solid var(--line);border-radius:6px;padding:4px 10px;background:var(--bg)}.count .n{font-weight:700;font-size:1.15rem}
.meta,.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}.meta dt,.facts dt{color:var(--muted)}.meta dd,.facts dd{margin:0;overflow-wrap:anywhere}
table.grid{border-collapse:collapse;width:100%;font-size:.92rem}
.grid th,.grid td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
.grid thead th{background:var(--soft);position:sticky;top:0}
.grid tbody tr:hover{background:var(--soft)}
.num{text-align:right!important;font-variant-numeric:tabular-nums}
td.has-fail,td.has-error{color:var(--fail);font-weight:700}td.has-warn{color:var(--warn);font-weight:700}
.condition{max-width:34em}
.badge{display:inline-block;white-space:nowrap;border:1px solid currentColor;border-radius:999px;padding:0 8px;font-size:.78rem;font-weight:700;letter-spacing:.02em}
.v-pass{color:var(--pass);background:var(--pass-bg)}.v-fail{color:var(--fail);background:var(--fail-bg)}.v-warn{color:var(--warn);background:var(--warn-bg)}.v-not-run,.v-none{color:var(--skip);background:var(--skip-bg)}.v-error{color:var(--error);background:var(--error-bg)}
.count.v-pass,.count.v-fail,.count.v-warn,.count.v-not-run,.count.v-error{background:var(--bg)}
.judged{font-weight:600}.enable-next{color:var(--skip);background:var(--skip-bg);border-left:4px solid var(--skip);padding:.4rem .8rem;margin:.6rem 0}.enable-next h2{font-size:1rem;margin:.2rem 0}.enable-next ul{margin:.2rem 0;padding-left:1.2rem}
.check{border:1px solid var(--line);border-left:6px solid var(--skip);border-radius:6px;padding:12px 16px;margin:16px 0}
.check[data-verdict=fail]{border-left-color:var(--fail)}.check[data-verdict=error]{border-left-color:var(--error)}.check[data-verdict=warn]{border-left-color:var(--warn)}
.message{margin:10px 0;border-color:var(--fail)}
.exchange{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:6px 10px}.exchange>summary{cursor:pointer;overflow-wrap:anywhere}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:12px}@media (max-width:800px){.pair{grid-template-columns:1fr}}
.half{min-width:0}
.filters{border:1px solid var(--line);border-radius:6px;margin:8px 0;display:flex;flex-wrap:wrap;gap:4px 16px}
.covering summary{cursor:pointer}.covering ul{margin:4px 0;padding-left:18px}
${(['pass', 'fail', 'warn', 'not-run', 'error'] as const).map((v) => `body:has(#show-${v}:not(:checked)) tr.row[data-verdict="${v}"]{display:none}`).join('\n')}
${(['covered', 'failing', 'not-run', 'no-check'] as const).map((s) => `body:has(#show-cov-${s}:not(:checked)) tr.req[data-coverage="${s}"]{display:none}`).join('\n')}
footer{margin:40px 0 20px;color:var(--muted);font-size:.85rem}
@media print{.filters,.js-only,nav{display:none}pre{max-height:none}}
`;

/** Static: expand and collapse every exchange. The page reads fine without it. */
const SCRIPT = `
for (const p of document.querySelectorAll('.js-only')) p.hidden = false;
document.addEventListener('click', (event) => {
  const action = event.target instanceof Element ? event.target.getAttribute('data-action') : null;
  if (action) for (const d of document.querySelectorAll('details.exchange')) d.open = action === 'expand';
});
`;

/** report.html: one self-contained page (inline CSS, no external resource, readable without JavaScript). */
export function reportHtml(report: RunReport): string {
  const verdict = runVerdict(report);
  const coverage = requirementCoverage(report.results, catalogueFor(report));
  const page = h`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${report.tool.name} ${report.tool.version}">
<title>${RUN_VERDICT_LABELS[verdict]} · ${report.target.description} · ${report.runId}</title>
<style>${new Html(CSS)}</style>
</head>
<body>
<main>
${summary(report, verdict, coverage)}
<nav aria-label="Contents">${report.harnessErrors.length ? h`<a href="#harness-errors">Harness errors</a>` : ''}${report.counts['not-run'] ? h`<a href="#enable-next">What to enable next</a>` : ''}<a href="#sections">By section</a><a href="#suites">By suite</a><a href="#coverage">Coverage</a>${report.selfTest ? h`<a href="#self-test">Self-test</a>` : ''}${report.expectedFailures ? h`<a href="#expected-failures">Expected failures</a>` : ''}<a href="#problems">Checks that did not pass</a><a href="#checks">All checks</a></nav>
${harnessErrors(report)}
${bySection(report, coverage)}
${bySuite(report)}
${coverageSection(report, coverage)}
${selfTestSection(report)}
${expectedFailuresSection(report)}
${problems(report)}
${allChecks(report)}
<footer>Rendered from report.json, the canonical report (schema: <code>vectors/schema/report.schema.json</code> in the package); junit.xml and summary.md are rendered from it too.</footer>
</main>
<script>${new Html(SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}
