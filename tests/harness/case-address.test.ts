import { describe, expect, test } from 'vitest';
import { caseAddress } from '../../src/harness/targets/live.js';

/** 198.18.0.0/15, the benchmarking range (RFC 2544), where every address a live run sends in a header lies. */
function inBenchmarkingRange(address: string): boolean {
  const [a, b, c, d] = address.split('.').map(Number);
  return a === 198 && (b === 18 || b === 19) && [c, d].every((n) => Number.isInteger(n) && n! >= 0 && n! <= 255);
}

describe('the client address a live run sends for a case (--client-address-header)', () => {
  test('is the same for every request of one case in one run', () => {
    expect(caseAddress('run-a', 'signed.throttle-thirty-failures')).toBe(caseAddress('run-a', 'signed.throttle-thirty-failures'));
  });

  test('differs between two runs, so a retry within 60 s does not count the first run’s failures', () => {
    const runs = Array.from({ length: 50 }, (_, i) => caseAddress(`run-${i}`, 'signed.throttle-thirty-failures'));
    expect(new Set(runs).size).toBeGreaterThanOrEqual(49);
  });

  test('differs between cases of one run, and between the addresses one case names', () => {
    expect(caseAddress('run-a', 'case-1')).not.toBe(caseAddress('run-a', 'case-2'));
    expect(caseAddress('run-a', 'case-1', '203.0.113.7')).not.toBe(caseAddress('run-a', 'case-1', '203.0.113.8'));
    expect(caseAddress('run-a', 'case-1', '203.0.113.7')).not.toBe(caseAddress('run-b', 'case-1', '203.0.113.7'));
  });

  test('lies in the benchmarking range, never a last octet of 0', () => {
    for (let i = 0; i < 500; i++) {
      const address = caseAddress(`run-${i}`, `case-${i % 7}`, i % 2 ? '192.0.2.1' : '');
      expect(inBenchmarkingRange(address), address).toBe(true);
      expect(address.endsWith('.0'), address).toBe(false);
    }
  });
});
