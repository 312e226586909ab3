import { describe, expect, test } from 'vitest';
import { checkTimeoutMs, CHECK_TIMEOUT_ENV } from '../../src/harness/target-config.js';

describe('run --timeout reaches the checks that pick their own timeout', () => {
  test('checkTimeoutMs takes the configured value, else the fallback', () => {
    expect(checkTimeoutMs(30_000, {})).toBe(30_000);
    expect(checkTimeoutMs(30_000, { [CHECK_TIMEOUT_ENV]: '5000' })).toBe(5000);
    expect(checkTimeoutMs(30_000, { [CHECK_TIMEOUT_ENV]: 'nonsense' })).toBe(30_000);
  });
});
