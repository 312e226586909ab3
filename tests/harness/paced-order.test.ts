import { describe, expect, test } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import { failingFirst } from '../../src/harness/paced-order.js';

/** Only the module id matters to the order. */
const spec = (file: string) => ({ moduleId: `/pkg/${file}` }) as TestSpecification;

describe('a run from one address starts the suite files that send failing signed requests first', () => {
  test('the most failing first; files that send none keep vitest’s order after them', () => {
    const files = [
      'suites/7.4-purchases.test.ts',
      'suites/4.4-widgets.test.ts',
      'suites/7.3-signed-properties.test.ts',
      'suites/7.3-signed-requests.test.ts',
      'suites/6-events.test.ts',
    ].map(spec);
    const failing = new Map([
      ['suites/7.3-signed-requests.test.ts', 120],
      ['suites/7.3-signed-properties.test.ts', 8],
    ]);
    expect(failingFirst(files, '/pkg', failing).map((s) => s.moduleId)).toEqual([
      '/pkg/suites/7.3-signed-requests.test.ts',
      '/pkg/suites/7.3-signed-properties.test.ts',
      '/pkg/suites/7.4-purchases.test.ts',
      '/pkg/suites/4.4-widgets.test.ts',
      '/pkg/suites/6-events.test.ts',
    ]);
  });

  test('with no failing requests planned, vitest’s order stands', () => {
    const files = ['suites/b.test.ts', 'suites/a.test.ts'].map(spec);
    expect(failingFirst(files, '/pkg', new Map()).map((s) => s.moduleId)).toEqual(['/pkg/suites/b.test.ts', '/pkg/suites/a.test.ts']);
  });
});
