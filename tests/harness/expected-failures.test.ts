import { describe, expect, it } from 'vitest';
import { applyExpectedFailures, ExpectedFailuresError, parseExpectedFailures } from '../../src/harness/expected-failures.js';
import type { CheckResult, Verdict } from '../../src/harness/results.js';

const KNOWN = { checks: new Set(['key-directory.entries', 'purchases.expiry']), requirements: new Set(['AUTH-SIGNATURE-REPLAYED']) };

const result = (id: string, verdict: Verdict, requirements: string[] = []): CheckResult => ({
  id,
  name: id,
  suite: 'suites/x.test.ts',
  requirements,
  level: 'MUST',
  verdict,
  durationMs: 1,
});

describe('reading an expected-failures file', () => {
  it('reads YAML with comments, the verdict defaulting to fail', () => {
    const text = `# Known deviations of acme.example
expected_failures:
  - id: key-directory.entries
    reason: "PLAT-311: the directory lists only the platform key"
  - id: AUTH-SIGNATURE-REPLAYED
    verdict: warn
    reason: replays answer signature_invalid until PLAT-400
`;
    expect(parseExpectedFailures(text, 'xf.yaml', KNOWN).entries).toEqual([
      { id: 'key-directory.entries', verdict: 'fail', reason: 'PLAT-311: the directory lists only the platform key' },
      { id: 'AUTH-SIGNATURE-REPLAYED', verdict: 'warn', reason: 'replays answer signature_invalid until PLAT-400' },
    ]);
  });

  it('reads JSON', () => {
    const text = JSON.stringify({ expected_failures: [{ id: 'purchases.expiry', verdict: 'fail', reason: 'r' }] });
    expect(parseExpectedFailures(text, 'xf.json', KNOWN).entries).toEqual([{ id: 'purchases.expiry', verdict: 'fail', reason: 'r' }]);
  });

  it('refuses JSON with a trailing comma as bad JSON, naming where, whatever the file is called', () => {
    const text = '{\n  "expected_failures": [\n    { "id": "purchases.expiry", "reason": "r" },\n  ]\n}\n';
    for (const file of ['xf.json', 'xf.yaml']) {
      expect(() => parseExpectedFailures(text, file, KNOWN)).toThrow(ExpectedFailuresError);
      expect(() => parseExpectedFailures(text, file, KNOWN)).toThrow(
        new RegExp(`^expected failures "${file.replace('.', '\\.')}" is not valid JSON: line 4, column 3: `),
      );
    }
    // A YAML flow mapping with bare keys is still YAML.
    expect(parseExpectedFailures('{expected_failures: [{id: purchases.expiry, reason: r}]}', 'xf.yaml', KNOWN).entries).toHaveLength(1);
  });

  it.each([
    ['not YAML', 'expected_failures: [', /is not valid YAML at line \d/],
    ['no list', 'ids: []', /must have.*expected_failures|expected_failures/],
    ['an entry without a reason', 'expected_failures:\n  - id: purchases.expiry\n', /reason/],
    ['a verdict that is no verdict', 'expected_failures:\n  - { id: purchases.expiry, verdict: broken, reason: r }\n', /verdict/],
    ['an id the suite does not have', 'expected_failures:\n  - { id: purchases.expiri, reason: r }\n', /entry 1: "purchases.expiri" is neither a check id/],
    [
      'an id listed twice',
      'expected_failures:\n  - { id: purchases.expiry, reason: r }\n  - { id: purchases.expiry, reason: s }\n',
      /entry 2: .* listed twice/,
    ],
  ])('refuses %s, naming the file and what is wrong', (_what, text, message) => {
    expect(() => parseExpectedFailures(text, 'xf.yaml', KNOWN)).toThrow(ExpectedFailuresError);
    expect(() => parseExpectedFailures(text, 'xf.yaml', KNOWN)).toThrow(/"xf\.yaml"/);
    expect(() => parseExpectedFailures(text, 'xf.yaml', KNOWN)).toThrow(message);
  });
});

describe('applying expected failures to a run', () => {
  const expected = {
    file: 'xf.yaml',
    entries: [
      { id: 'key-directory.entries', verdict: 'fail' as const, reason: 'PLAT-311' },
      { id: 'AUTH-SIGNATURE-REPLAYED', verdict: 'fail' as const, reason: 'PLAT-400' },
    ],
  };

  it('marks a listed failure as expected and leaves the others as they are', () => {
    const { results, outcomes } = applyExpectedFailures(
      [
        result('key-directory.entries', 'fail'),
        result('other', 'fail'),
        result('replay.a', 'pass', ['AUTH-SIGNATURE-REPLAYED']),
        result('replay.b', 'fail', ['AUTH-SIGNATURE-REPLAYED']),
      ],
      expected,
    );
    expect(results.map((r) => r.expected?.id)).toEqual(['key-directory.entries', undefined, undefined, 'AUTH-SIGNATURE-REPLAYED']);
    expect(outcomes.map((o) => [o.id, o.outcome, o.checks])).toEqual([
      ['key-directory.entries', 'failed-as-expected', ['key-directory.entries']],
      ['AUTH-SIGNATURE-REPLAYED', 'failed-as-expected', ['replay.a', 'replay.b']],
    ]);
  });

  it('calls an entry stale when every check it names that ran now passes', () => {
    const { results, outcomes } = applyExpectedFailures(
      [result('key-directory.entries', 'pass'), result('replay.a', 'not-run', ['AUTH-SIGNATURE-REPLAYED'])],
      expected,
    );
    expect(results.every((r) => r.expected === undefined)).toBe(true);
    expect(outcomes.map((o) => o.outcome)).toEqual(['stale', 'not-run']);
  });

  it('says an entry differs when its check has another verdict, and does not excuse it', () => {
    const { results, outcomes } = applyExpectedFailures([result('key-directory.entries', 'error')], expected);
    expect(results[0]!.expected).toBeUndefined();
    expect(outcomes[0]!.outcome).toBe('differs');
  });

  it('prefers the entry naming the check itself over one naming its requirement', () => {
    const both = { file: 'xf.yaml', entries: [...expected.entries, { id: 'replay.b', verdict: 'fail' as const, reason: 'own' }] };
    const { results } = applyExpectedFailures([result('replay.b', 'fail', ['AUTH-SIGNATURE-REPLAYED'])], both);
    expect(results[0]!.expected).toEqual({ id: 'replay.b', reason: 'own' });
  });
});
