import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Exchange, RecordedRequest, RecordedResponse } from '../../src/harness/exchange.js';
import { recordRequest, recordResponse } from '../../src/harness/exchange.js';
import { runVerdict } from '../../src/harness/results.js';
import { reportSchema, reportValidator, validateReport } from '../../src/harness/report-schema.js';
import type { CheckResult, RunReport } from '../../src/harness/results.js';
import { runConformance, type RunOutcome } from '../../src/harness/run.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PROJECT_ROOT } from '../paths.js';
import { check, failingReport, incompleteReport, notRunReport, report } from './sample-reports.js';
import { elements, xmlProblems } from './xml-well-formed.js';

// Every member of the TypeScript types, so that adding one fails to compile here until the schema has it too.
const RUN_REPORT_MEMBERS = {
  tool: 1,
  runId: 1,
  startedAt: 1,
  finishedAt: 1,
  target: 1,
  selection: 1,
  seed: 1,
  complete: 1,
  counts: 1,
  results: 1,
  harnessErrors: 1,
  selfTest: 1,
  expectedFailures: 1,
  rerun: 1,
  pacing: 1,
  spend: 1,
} satisfies Record<keyof RunReport, 1>;
const CHECK_RESULT_MEMBERS = {
  id: 1,
  name: 1,
  suite: 1,
  requirements: 1,
  level: 1,
  verdict: 1,
  durationMs: 1,
  message: 1,
  needs: 1,
  exchanges: 1,
  expected: 1,
} satisfies Record<keyof CheckResult, 1>;
const EXCHANGE_MEMBERS = { request: 1, response: 1, note: 1 } satisfies Record<keyof Exchange, 1>;
const REQUEST_MEMBERS = { method: 1, url: 1, headers: 1, body: 1, bodyEncoding: 1, bodyLength: 1 } satisfies Record<keyof RecordedRequest, 1>;
const RESPONSE_MEMBERS = { status: 1, headers: 1, body: 1, bodyEncoding: 1, bodyLength: 1 } satisfies Record<keyof RecordedResponse, 1>;
const TOOL_MEMBERS = { name: 1, version: 1 } satisfies Record<keyof RunReport['tool'], 1>;
const TARGET_MEMBERS = { kind: 1, description: 1, naming: 1, platformUrl: 1, agentUrl: 1, fixtureUrl: 1, serviceName: 1, clientCommand: 1 } satisfies Record<
  keyof RunReport['target'],
  1
>;
const NAMING_MEMBERS = { serviceName: 1, headers: 1, realm: 1, problemsUrl: 1, paymentProblemsUrl: 1, termsUrl: 1 } satisfies Record<
  keyof NonNullable<RunReport['target']['naming']>,
  1
>;
const COUNT_MEMBERS = { pass: 1, fail: 1, warn: 1, 'not-run': 1, error: 1, total: 1 } satisfies Record<keyof RunReport['counts'], 1>;

const keys = (o: object) => Object.keys(o).sort();
const clone = <T>(v: T): T => structuredClone(v) as T;
type Mutable = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function expectValid(value: unknown): void {
  const result = validateReport(value);
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

function expectInvalid(value: unknown, pattern: RegExp): void {
  const result = validateReport(value);
  expect(result.valid).toBe(false);
  expect(result.errors.join('\n')).toMatch(pattern);
}

describe('vectors/schema/report.schema.json', () => {
  it('is JSON Schema 2020-12, compiles in strict mode, and is the file the package ships', () => {
    expect(reportSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof reportValidator()).toBe('function');
    expect(reportSchema).toEqual(JSON.parse(readFileSync(join(PROJECT_ROOT, 'vectors/schema/report.schema.json'), 'utf8')));
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('vectors');
  });

  it('names exactly the members of RunReport, CheckResult, Exchange and the recorded request and response', () => {
    const d = reportSchema.$defs;
    expect(keys(reportSchema.properties)).toEqual(keys(RUN_REPORT_MEMBERS));
    // selfTest is present only in `run --self-test` reports, pacing only in live runs from one address, spend only with --allow-spend; rerun is newer than the first reports.
    const optional = ['selfTest', 'expectedFailures', 'rerun', 'pacing', 'spend'];
    expect([...reportSchema.required].sort()).toEqual(keys(RUN_REPORT_MEMBERS).filter((k) => !optional.includes(k)));
    expect(keys(reportSchema.properties.counts.properties)).toEqual(keys(COUNT_MEMBERS));
    expect(keys(reportSchema.properties.tool.properties)).toEqual(keys(TOOL_MEMBERS));
    expect(keys(reportSchema.properties.target.properties)).toEqual(keys(TARGET_MEMBERS));
    expect(keys(reportSchema.properties.target.properties.naming.properties)).toEqual(keys(NAMING_MEMBERS));
    expect(keys(d.checkResult.properties)).toEqual(keys(CHECK_RESULT_MEMBERS));
    expect([...d.checkResult.required].sort()).toEqual(
      keys(CHECK_RESULT_MEMBERS).filter((k) => k !== 'message' && k !== 'needs' && k !== 'exchanges' && k !== 'expected'),
    );
    expect(keys(d.exchange.properties)).toEqual(keys(EXCHANGE_MEMBERS));
    expect(keys(d.recordedRequest.properties)).toEqual(keys(REQUEST_MEMBERS));
    expect(keys(d.recordedResponse.properties)).toEqual(keys(RESPONSE_MEMBERS));
  });

  describe('a real run', () => {
    let outcome: RunOutcome;
    let runDir: string;
    beforeAll(async () => {
      // runConformance starts vitest itself; nested in this worker it runs its own pool and reporter.
      const out = mkdtempSync(join(tmpdir(), 'apc-schema-'));
      outcome = await runConformance({ only: ['AUTH-SIGNATURE-REPLAYED'], out, seed: 1 });
      runDir = join(out, readdirSync(out)[0]!);
    }, 120_000);

    it('writes a report.json that validates against the schema', () => {
      // The verdicts are the suite's business; whatever they are, the report must validate.
      expect(outcome.report, outcome.problem).not.toBeNull();
      expect([0, 1]).toContain(outcome.exitCode);
      const written: unknown = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
      expectValid(written);
      expect(written).toEqual(JSON.parse(JSON.stringify(outcome.report)));
      const r = written as RunReport;
      expect(r.seed).toBe(1);
      expect(r.selection).toEqual(['AUTH-SIGNATURE-REPLAYED']);
      expect(r.complete).toBe(true);
      expect(r.counts.total).toBeGreaterThanOrEqual(2);
      for (const c of r.results) expect(c.requirements).toContain('AUTH-SIGNATURE-REPLAYED');
    });

    it('writes report.html and a well-formed junit.xml beside it', () => {
      expect(readdirSync(runDir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
      const junit = readFileSync(join(runDir, 'junit.xml'), 'utf8');
      expect(xmlProblems(junit)).toEqual([]);
      const cases = elements(junit, 'testcase');
      expect(cases.length).toBe(outcome.report!.counts.total);
      for (const c of cases) expect(c.name).toMatch(/\S/);
      const html = readFileSync(join(runDir, 'report.html'), 'utf8');
      expect(html).toContain(`data-total="${outcome.report!.counts.total}"`);
      expect(html).toContain(`<header id="summary" class="run-${runVerdict(outcome.report!)}" data-verdict="${runVerdict(outcome.report!)}"`);
    });
  });

  describe('hand-made reports', () => {
    it('accepts a failure carrying exchanges, a warning with a binary body and a skip', () => {
      expectValid(failingReport());
    });

    it('accepts a run whose only check did not run, and an incomplete run with harness errors', () => {
      expectValid(notRunReport());
      expectValid(incompleteReport());
      expectValid(report([]));
    });

    it('accepts what exchange.ts records for every credential header', () => {
      const secret = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJhIn0.c2ln';
      const headers: Array<[string, string]> = [
        [HEADERS.authorization, `Bearer ${secret}`],
        ['Authorization', secret],
        [HEADERS.paymentAuthorization, `Payment ${secret}`],
        [HEADERS.ownerKey, secret],
        ['cookie', 'session=abc'],
        ['proxy-authorization', `Basic ${secret}`],
      ];
      const exchange: Exchange = {
        request: recordRequest({ method: 'POST', url: 'https://platform.example/x', headers, body: new TextEncoder().encode('{}') }),
        response: recordResponse({
          status: 401,
          headers: { 'set-cookie': 'id=1', 'www-authenticate': 'Bearer error="invalid_token"' },
          body: new Uint8Array([0, 1, 2, 255]),
        }),
      };
      expect(JSON.stringify(exchange)).not.toContain(secret);
      expectValid(report([check('credentials', ['AUTH-CREDENTIAL-REFUSED'], 'fail', { message: 'x', exchanges: [exchange] })]));
    });

    it('rejects reports that break the layout', () => {
      const base = failingReport();
      const cases: Array<[string, (r: Mutable) => void, RegExp]> = [
        ['a missing member', (r) => delete r.counts, /must have required property 'counts'/],
        ['an unknown member', (r) => (r.extra = 1), /must NOT have additional properties \(extra\)/],
        ['an unknown verdict', (r) => (r.results[1].verdict = 'skipped'), /\/results\/1\/verdict must be equal to one of the allowed values/],
        ['an unknown level', (r) => (r.results[1].level = 'MAY'), /\/results\/1\/level/],
        ['a bad requirement id', (r) => (r.results[1].requirements = ['auth-signature-expired']), /\/results\/1\/requirements\/0 must match pattern/],
        ['a bad date', (r) => (r.startedAt = 'yesterday'), /\/startedAt must match format "date-time"/],
        ['a fractional seed', (r) => (r.seed = 1.5), /\/seed must be integer/],
        ['a negative count', (r) => (r.counts.pass = -1), /\/counts\/pass must be >= 0/],
        ['an unknown target kind', (r) => (r.target.kind = 'remote'), /\/target\/kind/],
        ['a run id that is not a directory name', (r) => (r.runId = '../up'), /\/runId must match pattern/],
        [
          'an exchange header that is not a pair',
          (r) => (r.results[0].exchanges[0].request.headers[0] = ['a', 'b', 'c']),
          /\/results\/0\/exchanges\/0\/request\/headers\/0 must NOT have more than 2 items/,
        ],
        ['a response without a status', (r) => delete r.results[0].exchanges[0].response.status, /must have required property 'status'/],
        ['a status that is not HTTP', (r) => (r.results[0].exchanges[0].response.status = 0), /\/response\/status must be >= 100/],
        ['a body encoding that is not known', (r) => (r.results[0].exchanges[0].request.bodyEncoding = 'hex'), /bodyEncoding/],
        [
          'a base64 body that is not base64',
          (r) => (r.results[2].exchanges[0].request.body = 'not base64!'),
          /\/results\/2\/exchanges\/0\/request\/body must match pattern/,
        ],
        ['an empty check name', (r) => (r.results[1].name = ''), /\/results\/1\/name must NOT have fewer than 1 characters/],
      ];
      for (const [what, mutate, pattern] of cases) {
        const r = clone(base) as Mutable;
        mutate(r);
        const result = validateReport(r);
        expect(result.valid, what).toBe(false);
        expect(result.errors.join('\n'), what).toMatch(pattern);
      }
    });

    it('rejects verdicts that contradict their meaning', () => {
      const skipped = clone(notRunReport()) as Mutable;
      delete skipped.results[0].message;
      expectInvalid(skipped, /\/results\/0 must have required property 'message'/);
      const shouldFail = clone(failingReport()) as Mutable;
      shouldFail.results[0].level = 'SHOULD';
      expectInvalid(shouldFail, /\/results\/0\/level must be equal to constant/);
      const mustWarn = clone(failingReport()) as Mutable;
      mustWarn.results[2].level = 'MUST';
      expectInvalid(mustWarn, /\/results\/2\/level must be equal to constant/);
      const completeWithErrors = clone(incompleteReport()) as Mutable;
      completeWithErrors.complete = true;
      expectInvalid(completeWithErrors, /\/complete must be equal to constant/);
    });

    it('rejects a credential that was not redacted, in a request or a response', () => {
      const leaks: Array<[string, (e: Mutable) => void]> = [
        ['a bearer token', (e) => (e.request.headers[1] = ['Authorization', 'Bearer eyJhbGciOi.eyJzdWIi.c2ln'])],
        ['a token with no scheme', (e) => (e.request.headers[1] = ['authorization', 'eyJhbGciOi.eyJzdWIi.c2ln [redacted]'])],
        ['an owner key', (e) => e.request.headers.push(['x-service-owner-key', 'k_live_123'])],
        ['a cookie whose first pair leaked', (e) => e.request.headers.push(['Cookie', 'session=abc; [redacted]'])],
        ['a payment credential in a response', (e) => (e.response.headers['Payment-Authorization'] = 'Payment eyJ0eXAi')],
        ['a set-cookie in a response', (e) => (e.response.headers['set-cookie'] = 'id=1; Path=/')],
        ['an issued token in a response body', (e) => (e.response.body = '{"access_token":"eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl"}')],
        ['a JWT in a request body', (e) => (e.request.body = 'assertion=eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl')],
      ];
      for (const [what, mutate] of leaks) {
        const r = clone(failingReport()) as Mutable;
        mutate(r.results[0].exchanges[0]);
        expect(validateReport(r).valid, what).toBe(false);
      }
      const fine = clone(failingReport()) as Mutable;
      fine.results[0].exchanges[0].response.headers['www-authenticate'] = 'Bearer error="invalid_token"';
      fine.results[0].exchanges[0].response.body = '{"access_token":"eyJhbGci…[redacted]"}';
      expectValid(fine);
    });

    it('rejects counts that disagree with the results, which no schema can see', () => {
      const r = clone(failingReport()) as Mutable;
      r.counts.fail = 0;
      r.counts.pass = 2;
      expectInvalid(r, /\/counts\/pass is 2 but 1 results have that verdict\n\/counts\/fail is 0 but 1 results/);
      const total = clone(failingReport()) as Mutable;
      total.counts.total = 9;
      expectInvalid(total, /\/counts\/total is 9 but there are 4 results/);
      const backwards = clone(failingReport()) as Mutable;
      backwards.finishedAt = '2026-11-22T03:00:00.000Z';
      expectInvalid(backwards, /\/finishedAt is before \/startedAt/);
    });
  });
});
