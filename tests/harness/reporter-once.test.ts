import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import { ConformanceReporter } from '../../src/harness/reporter.js';

/** Just what the reporter reads of a vitest case. */
const fakeCase = (id: string, state: 'passed' | 'skipped', note?: string) =>
  ({
    id,
    name: id,
    fullName: id,
    module: { moduleId: '/root/suites/x.test.ts' },
    meta: () => ({ check: { id, requirements: [], level: 'MUST' } }),
    result: () => ({ state, ...(note ? { note } : {}) }),
    diagnostic: () => ({ duration: 1 }),
  }) as unknown as TestCase;

describe('the conformance reporter', () => {
  it('counts a check once when vitest reports its case again (a cancelled run), keeping the last result', () => {
    const reporter = new ConformanceReporter('/root');
    reporter.onTestCaseResult(fakeCase('a', 'passed'));
    reporter.onTestCaseResult(fakeCase('b', 'passed'));
    reporter.onTestCaseResult(fakeCase('b', 'skipped', 'cancelled'));
    expect(reporter.results.map((r) => [r.id, r.verdict])).toEqual([
      ['a', 'pass'],
      ['b', 'not-run'],
    ]);
  });
});
