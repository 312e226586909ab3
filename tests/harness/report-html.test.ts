import { describe, expect, it } from 'vitest';
import { CATALOGUE, requirementCoverage } from '../../src/harness/coverage.js';
import { escapeHtml, reportHtml } from '../../src/harness/report-html.js';
import { runVerdict, type RunReport, type Verdict } from '../../src/harness/results.js';
import { attribute, decode, elementsWith, htmlProblems } from './html-tags.js';
import { check, failingReport, incompleteReport, notRunReport, report, sampleExchange } from './sample-reports.js';

const XSS = '<script>alert(1)</script>';
const ESCAPED_XSS = '&lt;script&gt;alert(1)&lt;/script&gt;';
const BREAKOUT = '"><img src=x onerror=alert(1)>';

function hostileReport(): RunReport {
  const exchange = sampleExchange();
  return report(
    [
      check(`name ${XSS}`, ['AUTH-SIGNATURE-INVALID'], 'fail', {
        id: `suites/x.test.ts > ${BREAKOUT}`,
        message: `\u001b[31mexpected\u001b[39m ${XSS} & 'quotes' \u0007`,
        exchanges: [
          {
            request: {
              ...exchange.request,
              url: `https://platform.example/?q=${BREAKOUT}`,
              headers: [
                ['x-evil', XSS],
                [`x-${BREAKOUT}`, 'v\u0000'],
              ],
              body: `{"a":"${XSS}"}`,
            },
            response: { ...exchange.response!, headers: { 'x-evil': XSS }, body: `</pre>${XSS}` },
            note: XSS,
          },
        ],
      }),
    ],
    { target: { kind: 'live', description: `deployment ${XSS}` }, selection: [XSS], complete: false, harnessErrors: [`harness ${XSS}`] },
  );
}

describe('report.html', () => {
  describe('escaping', () => {
    it('escapes every markup character and shows control characters visibly', () => {
      expect(escapeHtml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
      expect(escapeHtml('a\u0000b\u0007c\td\ne')).toBe('a\\u0000b\\u0007c\td\ne');
    });

    it('shows a header value like <script>alert(1)</script> as text, never as markup', () => {
      const html = reportHtml(hostileReport());
      expect(html.match(/<script\b/gi)).toHaveLength(1); // the page's own, static script
      expect(html.slice(html.lastIndexOf('<script>'))).not.toContain('alert');
      expect(html).not.toContain(XSS);
      expect(html).not.toMatch(/<img\b/i);
      expect(html).toContain(`x-evil: ${ESCAPED_XSS}`);
      const [article] = elementsWith(html, 'article', 'data-verdict', 'fail');
      expect(attribute(article!, 'data-check-id')).toBe(`suites/x.test.ts > ${BREAKOUT}`);
      const request = elementsWith(article!, 'pre', 'data-part', 'request')[0]!;
      const response = elementsWith(article!, 'pre', 'data-part', 'response')[0]!;
      expect(decode(request)).toContain(`x-evil: ${XSS}`);
      expect(decode(request)).toContain(`{"a":"${XSS}"}`);
      expect(decode(response)).toContain(`x-evil: ${XSS}\n\n</pre>${XSS}`);
      expect(htmlProblems(html)).toEqual([]);
    });

    it('strips terminal colour codes from messages and keeps other control characters visible', () => {
      const html = reportHtml(hostileReport());
      expect(html).not.toContain('\u001b');
      expect(html).not.toContain('\u0000');
      expect(html).toContain(`expected ${ESCAPED_XSS} &amp; &#39;quotes&#39; \\u0007`);
      expect(html).toContain('v\\u0000');
    });
  });

  describe('the headline', () => {
    it('gives NOT CONFORMANT, INCOMPLETE or CONFORMANT with the reason', () => {
      expect(runVerdict(failingReport())).toBe('not-conformant');
      expect(runVerdict(incompleteReport())).toBe('incomplete');
      expect(runVerdict(notRunReport())).toBe('incomplete');
      expect(runVerdict(report([]))).toBe('incomplete');
      expect(runVerdict(report([check('a', ['AUTH-SIGNATURE-INVALID'], 'error', { message: 'boom' })]))).toBe('not-conformant');
      const passing = report([
        check('a', ['AUTH-SIGNATURE-INVALID'], 'pass'),
        check('b', ['AUTH-SIGNATURE-EXPIRED'], 'warn'),
        check('c', ['LIMIT-CLOCK-SKEW'], 'not-run'),
      ]);
      expect(runVerdict(passing)).toBe('conformant');
      const cases: Array<[RunReport, string, RegExp]> = [
        [failingReport(), 'NOT CONFORMANT', /1 MUST check failed\./],
        [incompleteReport(), 'INCOMPLETE', /The harness failed \(1 error below\)/],
        [notRunReport(), 'INCOMPLETE', /No check ran: every selected check was skipped\./],
        [passing, 'CONFORMANT', /Every MUST check that ran passed; 1 SHOULD check warned; 1 did not run\./],
      ];
      for (const [r, label, reason] of cases) {
        const html = reportHtml(r);
        expect(html).toContain(`<span class="headline" id="verdict">${label}</span>`);
        expect(html).toMatch(reason);
        expect(html).toContain(`<title>${label} · `);
      }
    });

    it('shows the counts of the report, the target, seed, run id and times', () => {
      const r = failingReport();
      const html = reportHtml(r);
      const summary = elementsWith(html, 'header', 'id', 'summary')[0]!;
      for (const v of ['pass', 'fail', 'warn', 'not-run', 'error', 'total'] as const) {
        expect(attribute(summary, `data-${v}`), v).toBe(String(r.counts[v]));
        expect(summary).toContain(`data-count="${v}"><span class="n">${r.counts[v]}</span>`);
      }
      expect(attribute(summary, 'data-verdict')).toBe('not-conformant');
      expect(attribute(summary, 'data-seed')).toBe('1');
      expect(attribute(summary, 'data-run-id')).toBe(r.runId);
      expect(summary).toContain(r.target.description);
      expect(summary).toContain(`<time datetime="${r.startedAt}">`);
      expect(summary).toContain(`<time datetime="${r.finishedAt}">`);
      expect(summary).toContain('agent-platform-conformance run --seed 1');
      const rows = elementsWith(html, 'tr', 'class', 'row');
      expect(rows).toHaveLength(r.counts.total);
      for (const v of ['pass', 'fail', 'warn', 'not-run', 'error'] as Verdict[]) {
        expect(
          rows.filter((row) => attribute(row, 'data-verdict') === v),
          v,
        ).toHaveLength(r.counts[v]);
      }
    });
  });

  describe('checks that did not pass', () => {
    it('shows every one, worst first, with its requirements, level, message and every exchange', () => {
      const r = failingReport();
      const html = reportHtml(r);
      const articles = elementsWith(html, 'article', 'class', 'check');
      expect(articles.map((a) => attribute(a, 'data-verdict'))).toEqual(['fail', 'warn', 'not-run']);
      for (const result of r.results.filter((x) => x.verdict !== 'pass')) {
        const [article] = elementsWith(html, 'article', 'data-check-id', escapeHtml(result.id));
        expect(article, result.name).toBeDefined();
        expect(attribute(article!, 'data-verdict')).toBe(result.verdict);
        expect(attribute(article!, 'data-level')).toBe(result.level);
        expect(attribute(article!, 'data-requirements')).toBe(result.requirements.join(' '));
        for (const id of result.requirements) expect(article).toContain(`href="#req-${id}"`);
        expect(decode(article!)).toContain(result.message!);
        const exchanges = elementsWith(article!, 'details', 'class', 'exchange');
        expect(exchanges).toHaveLength(result.exchanges?.length ?? 0);
        (result.exchanges ?? []).forEach((e, i) => {
          const block = decode(exchanges[i]!);
          expect(block).toContain(`${e.request.method} ${e.request.url}\n`);
          for (const [n, v] of e.request.headers) expect(block).toContain(`${n}: ${v}`);
          if (e.request.bodyLength) expect(block).toContain(e.request.body);
          if (e.response) {
            expect(block).toContain(`data-part="response">${e.response.status}\n`);
            for (const [n, v] of Object.entries(e.response.headers)) expect(block).toContain(`${n}: ${v}`);
            expect(block).toContain(e.response.body);
          } else {
            expect(block).toContain('No response');
            expect(block).toContain(e.note!);
          }
        });
      }
      const [warned] = elementsWith(html, 'article', 'data-verdict', 'warn');
      expect(warned).toContain('body 9000 bytes, binary, shown as base64, first 4 shown');
      expect(elementsWith(html, 'details', 'class', 'exchange').filter((d) => / open>/.test(d.slice(0, d.indexOf('>') + 1)))).toHaveLength(2);
    });

    it('lists harness errors when there are any', () => {
      expect(reportHtml(failingReport())).not.toContain('id="harness-errors"');
      const html = reportHtml(incompleteReport());
      const [section] = elementsWith(html, 'section', 'id', 'harness-errors');
      expect(attribute(section!, 'data-count')).toBe('1');
      expect(section).toContain('Cannot find module ../src/cases/run-case.js');
      expect(html).toContain('href="#harness-errors"');
    });

    it('says so when every check passed', () => {
      const html = reportHtml(report([check('a', ['AUTH-SIGNATURE-INVALID'], 'pass')]));
      expect(elementsWith(html, 'section', 'id', 'problems')[0]).toContain('Every check passed.');
    });
  });

  describe('sections and coverage', () => {
    it('groups verdicts by spec section through the catalogue, and by suite file', () => {
      const html = reportHtml(failingReport());
      const section = (s: string) => elementsWith(html, 'tr', 'data-section', s)[0]!;
      expect(attribute(section('7.3'), 'data-verdict')).toBe('fail');
      expect(section('7.3')).toContain('data-count="pass">1<');
      expect(section('7.3')).toContain('data-count="not-run">1<');
      expect(attribute(section('8'), 'data-verdict')).toBe('not-run');
      expect(attribute(section('7.4'), 'data-verdict')).toBe('none');
      expect(section('7.4')).toContain('NO CHECK');
      const [suite] = elementsWith(html, 'tr', 'data-suite', 'suites/7.3-signed-requests.test.ts');
      expect(attribute(suite!, 'data-verdict')).toBe('fail');
      expect(suite).toContain('data-count="warn">1<');
    });

    it('shows a coverage row for every catalogue requirement with its computed status', () => {
      const r = failingReport();
      const html = reportHtml(r);
      const coverage = requirementCoverage(r.results);
      const rows = elementsWith(html, 'tr', 'class', 'req');
      expect(rows.map((row) => attribute(row, 'data-requirement'))).toEqual(CATALOGUE.map((c) => c.id));
      expect(rows.map((row) => attribute(row, 'data-coverage'))).toEqual(coverage.requirements.map((c) => c.status));
      const row = (id: string) => rows.find((x) => attribute(x, 'data-requirement') === id)!;
      expect(attribute(row('AUTH-SIGNATURE-REPLAYED'), 'data-coverage')).toBe('failing');
      expect(attribute(row('AUTH-SIGNATURE-EXPIRED'), 'data-coverage')).toBe('not-run');
      expect(attribute(row('AUTH-CONTENT-DIGEST-MISMATCH'), 'data-coverage')).toBe('failing');
      expect(attribute(row('PURCHASE-GRANT-FAILED'), 'data-coverage')).toBe('no-check');
      expect(row('PURCHASE-GRANT-FAILED')).toContain('no check yet');
      const [summary] = elementsWith(html, 'p', 'id', 'coverage-summary');
      for (const k of ['covered', 'failing', 'not-run', 'no-check', 'total'] as const)
        expect(attribute(summary!, `data-${k}`), k).toBe(String(coverage.counts[k]));
    });

    it('lists requirement ids that the catalogue does not hold', () => {
      const html = reportHtml(report([check('accepted', ['AUTH-NOT-IN-THE-CATALOGUE'], 'pass')]));
      const [row] = elementsWith(html, 'tr', 'data-uncatalogued', 'AUTH-NOT-IN-THE-CATALOGUE');
      expect(attribute(row!, 'data-coverage')).toBe('covered');
      expect(attribute(row!, 'id')).toBe('req-AUTH-NOT-IN-THE-CATALOGUE');
    });
  });

  describe('the page', () => {
    it('is self-contained: no external stylesheet, script, font or image, and every link stays on the page', () => {
      for (const r of [failingReport(), incompleteReport(), hostileReport()]) {
        const html = reportHtml(r);
        expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
        expect(html).toContain('<meta charset="utf-8">');
        const tags = html.match(/<[a-z][^>]*>/gi)!;
        for (const tag of tags)
          expect(tag.replace(/="[^"]*"/g, '=""')).not.toMatch(
            /^<(?:link|img|iframe|object|embed|audio|video|source|base)\b|\s(?:src|srcset|action|formaction|background)=/i,
          );
        const style = html.slice(html.indexOf('<style>'), html.indexOf('</style>'));
        expect(style).not.toMatch(/@import|url\(|@font-face/i);
        const hrefs = [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => decode(m[1]!));
        expect(hrefs.length).toBeGreaterThan(0);
        for (const href of hrefs) {
          expect(href.startsWith('#'), href).toBe(true);
          expect(html, href).toContain(`id="${escapeHtml(href.slice(1))}"`);
        }
        const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
        expect(new Set(ids).size).toBe(ids.length);
        expect(htmlProblems(html)).toEqual([]);
      }
    });

    it('filters with CSS alone and hides the JavaScript-only buttons until the script shows them', () => {
      const html = reportHtml(failingReport());
      expect(html).toContain('body:has(#show-pass:not(:checked)) tr.row[data-verdict="pass"]{display:none}');
      expect(html).toContain('<input type="checkbox" id="show-pass" checked>');
      expect(html).toContain('<p class="js-only" hidden>');
    });

    it('labels every verdict in words, not by colour alone', () => {
      const html = reportHtml(
        report([
          check('a', ['AUTH-SIGNATURE-INVALID'], 'pass'),
          check('b', ['AUTH-SIGNATURE-REPLAYED'], 'fail', { message: 'm' }),
          check('c', ['AUTH-SIGNATURE-EXPIRED'], 'warn', { message: 'm' }),
          check('d', ['LIMIT-CLOCK-SKEW'], 'not-run'),
          check('e', ['AUTH-CARD-UNREACHABLE'], 'error', { message: 'm' }),
        ]),
      );
      for (const label of ['PASS', 'FAIL', 'WARN', 'NOT RUN', 'ERROR']) expect(html, label).toContain(`</span> ${label}</span>`);
      for (const label of ['COVERED', 'FAILING', 'NOT RUN', 'NO CHECK'])
        expect(html, label).toMatch(new RegExp(`<span class="badge v-[a-z-]+" data-label="[a-z-]+">${label}</span>`));
    });
  });
});
