import { describe, expect, it } from 'vitest';
import { junitXml } from '../../src/harness/junit.js';
import { check, failingReport, incompleteReport, report } from './sample-reports.js';
import { elements, xmlProblems } from './xml-well-formed.js';

describe('the XML well-formedness check used here', () => {
  it('accepts well-formed XML and rejects each kind of malformed XML', () => {
    expect(xmlProblems('<?xml version="1.0" encoding="UTF-8"?>\n<a x="1" y=\'&amp;\'><b/><!-- c --><c>&lt;&#60;&#x3c;</c></a>\n')).toEqual([]);
    const bad: Array<[string, RegExp]> = [
      ['<a><b></a></b>', /<\/a> closes <b>/],
      ['<a>', /unclosed: <a>/],
      ['<a/><b/>', /second root element <b>/],
      ['<a>x & y</a>', /stray & in text/],
      ['<a x="<">', /raw < in attribute x/],
      ['<a x=1/>', /malformed tag/],
      ['<a x="1" x="2"/>', /duplicate attribute x/],
      ['<a>\u0001</a>', /U\+0001 is not allowed/],
      ['<a>\uffff</a>', /U\+ffff is not allowed/],
      ['text<a/>', /text outside the root element/],
      ['<a/>text', /text after the root element/],
      ['', /no root element/],
    ];
    for (const [xml, problem] of bad) expect(xmlProblems(xml).join('\n'), xml).toMatch(problem);
  });
});

describe('junit.xml', () => {
  it('is well formed for a report with a failure, a warning, a skip and a pass, and names every testcase', () => {
    const r = failingReport();
    const xml = junitXml(r);
    expect(xmlProblems(xml)).toEqual([]);
    const cases = elements(xml, 'testcase');
    expect(cases).toHaveLength(r.counts.total);
    for (const c of cases) {
      expect(c.name).toMatch(/\S/);
      expect(c.classname).toBe('suites/7.3-signed-requests.test.ts');
      expect(c.time).toMatch(/^\d+\.\d{3}$/);
    }
    // Named by the check's stable id; the title and requirements ride as properties.
    expect(cases.map((c) => c.name)).toEqual(r.results.map((x) => x.id));
    const properties = elements(xml, 'property');
    expect(properties.filter((p) => p.name === 'title').map((p) => p.value)).toEqual(r.results.map((x) => x.name));
    expect(properties.filter((p) => p.name === 'requirements').map((p) => p.value)).toEqual(r.results.map((x) => x.requirements.join(' ')));
    const [root] = elements(xml, 'testsuites');
    expect(root).toMatchObject({
      tests: String(r.counts.total),
      failures: String(r.counts.fail),
      errors: String(r.counts.error),
      skipped: String(r.counts['not-run']),
    });
    // The attribute carries the reason, not only the requirement: a CI view often shows nothing else.
    expect(elements(xml, 'failure')).toEqual([
      { message: 'MUST AUTH-SIGNATURE-REPLAYED: step 2 of 2: status 200, expected 401; error_code null, expected signature_replayed' },
    ]);
    expect(elements(xml, 'skipped')).toEqual([{ message: 'the target lacks clock-control' }]);
  });

  it('puts only the first line of a long reason in the attribute, the whole of it in the body', () => {
    const message = `expected 404 to be 200 at https://platform.example/api/x\n${'detail '.repeat(10)}`;
    const xml = junitXml(
      report([check('a', ['AUTH-SIGNATURE-VALID'], 'fail', { message }), check('b', [], 'error', { message: 'harness: socket closed\nmore' })]),
    );
    expect(elements(xml, 'failure')).toEqual([{ message: 'MUST AUTH-SIGNATURE-VALID: expected 404 to be 200 at https://platform.example/api/x' }]);
    expect(elements(xml, 'error')).toEqual([{ message: 'MUST (no requirement id): harness: socket closed' }]);
    expect(xml).toContain('detail detail');
  });

  it('stays well formed whatever the names and messages hold', () => {
    const nasty = `<tag attr="x"> & ' ]]> <![CDATA[ \u0001\u001b[31m red \u001b[39m`;
    const r = report([
      check(`fails ${nasty}`, ['AUTH-SIGNATURE-INVALID'], 'fail', { message: nasty, suite: `suites/${nasty}.test.ts` }),
      check(`errs ${nasty}`, [], 'error', { message: nasty }),
      check(`skips ${nasty}`, ['LIMIT-CLOCK-SKEW'], 'not-run', { message: nasty }),
      check(`warns ${nasty}`, ['AUTH-SIGNATURE-EXPIRED'], 'warn', { message: nasty }),
    ]);
    const xml = junitXml(r);
    expect(xmlProblems(xml)).toEqual([]);
    const cases = elements(xml, 'testcase');
    expect(cases).toHaveLength(4);
    for (const p of elements(xml, 'property').filter((p) => p.name === 'title')) expect(p.value).toContain('<tag attr="x"> & \' ]]>');
    expect(elements(xml, 'error')).toHaveLength(1);
    expect(elements(xml, 'testsuite').map((s) => s.name)).toEqual([
      `suites/<tag attr="x"> & ' ]]> <![CDATA[ [31m red [39m.test.ts`,
      'suites/7.3-signed-requests.test.ts',
    ]);
  });

  it('is well formed for an incomplete run and for a run with no check', () => {
    expect(xmlProblems(junitXml(incompleteReport()))).toEqual([]);
    const empty = junitXml(report([]));
    expect(xmlProblems(empty)).toEqual([]);
    expect(elements(empty, 'testcase')).toEqual([]);
  });
});

describe('a JUnit failure carries the exchange', () => {
  it('shows the request and the response of the failed step', async () => {
    const { junitXml } = await import('../../src/harness/junit.js');
    const { failingReport } = await import('./sample-reports.js');
    const report = failingReport();
    const failed = report.results.find((r) => r.verdict === 'fail')!;
    const last = failed.exchanges!.at(-1)!;
    const failure = /<failure message="[^"]*">([\s\S]*?)<\/failure>/.exec(junitXml(report))![1]!;
    expect(failure).toContain(`--- request\n${last.request.method} ${last.request.url}`);
    expect(failure).toContain(last.response ? `--- response\nHTTP ${last.response.status}` : `--- response\nno response: ${last.note}`);
  });
});

describe('junit.xml escaping (xmlbuilder2)', () => {
  const decode = (v: string) => v.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);
  const failureText = (xml: string) => decode(/<failure message="[^"]*">([\s\S]*?)<\/failure>/.exec(xml)![1]!);

  it('carries <, &, both quotes and ]]> through the attribute and the body unchanged, and drops control characters', () => {
    const message = `a < b && c > d, "double" and 'single' quotes, ]]> and <![CDATA[, bell\u0007 escape\u001b[31m NUL\u0000 ufffe\ufffe done`;
    const kept = `a < b && c > d, "double" and 'single' quotes, ]]> and <![CDATA[, bell escape[31m NUL ufffe done`;
    const xml = junitXml(report([check('quoted', ['AUTH-SIGNATURE-INVALID'], 'fail', { message })]));
    expect(xmlProblems(xml)).toEqual([]);
    expect(elements(xml, 'failure')).toEqual([{ message: `MUST AUTH-SIGNATURE-INVALID: ${kept}` }]);
    expect(failureText(xml)).toBe(`MUST AUTH-SIGNATURE-INVALID\n${kept}`);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  });

  it('keeps a long message whole in the body and clips only the attribute to 300 characters', () => {
    const line = `${'x<&'.repeat(200)}`;
    const message = `${line}\n${'second line '.repeat(5000)}`;
    const xml = junitXml(report([check('long', ['AUTH-SIGNATURE-INVALID'], 'fail', { message })]));
    expect(xmlProblems(xml)).toEqual([]);
    expect(elements(xml, 'failure')).toEqual([{ message: `MUST AUTH-SIGNATURE-INVALID: ${line.slice(0, 300)}…` }]);
    expect(failureText(xml)).toBe(`MUST AUTH-SIGNATURE-INVALID\n${message}`);
  });

  it('escapes the suite name, the check id and the skip reason in attributes', () => {
    const xml = junitXml(report([check('s', [], 'not-run', { message: `needs "a" & <b>`, suite: `suites/"x" & <y>.test.ts` })]));
    expect(xmlProblems(xml)).toEqual([]);
    expect(elements(xml, 'skipped')).toEqual([{ message: `needs "a" & <b>` }]);
    expect(elements(xml, 'testsuite').map((s) => s.name)).toEqual([`suites/"x" & <y>.test.ts`]);
    expect(elements(xml, 'testcase').map((c) => c.classname)).toEqual([`suites/"x" & <y>.test.ts`]);
  });
});
