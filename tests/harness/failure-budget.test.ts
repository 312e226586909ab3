import { describe, expect, test } from 'vitest';
import { FailureBudget } from '../../src/harness/failure-budget.js';

describe('the live failure budget keeps a run under 30 failures per 60 s', () => {
  test('20 failures pass at once (a margin of 10 under the limit); the 21st waits until the oldest leaves the window', async () => {
    let now = 0;
    const waits: number[] = [];
    const budget = new FailureBudget(
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    for (let i = 0; i < 20; i++) {
      expect(await budget.reserve()).toBe(0);
      budget.record();
      now += 100;
    }
    const waited = await budget.reserve();
    expect(waited).toBe(60_000 + 250 - 2000);
    expect(waits).toEqual([waited]);
    budget.record();
    expect(await budget.reserve()).toBe(0);
  });
});

describe('reserving room for a whole case before it is built', () => {
  test('a case expecting 5 failures waits until 5 fit, in one go', async () => {
    let now = 0;
    const waits: number[] = [];
    const budget = new FailureBudget(
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    for (let i = 0; i < 18; i++) {
      budget.record();
      now += 1000;
    }
    expect(await budget.reserve(2)).toBe(0);
    const waited = await budget.reserve(5);
    expect(waited).toBe(2000 + 60_000 + 250 - 18_000);
    expect(waits).toEqual([waited]);
  });
});
