import { describe, expect, test } from 'vitest';
import {
  FailurePacer,
  PACED_FAILURES_PER_WINDOW,
  THROTTLE_WAIT_MS,
  paceSummaryLine,
  pacedFloorMinutes,
  pacingRecord,
} from '../../src/harness/failure-budget.js';

/** A pacer on a clock the test moves, and the lines it printed. */
function pacer(planned = 0) {
  const clock = { now: 0 };
  const lines: string[] = [];
  const p = new FailurePacer(
    () => clock.now,
    (line) => lines.push(line),
    planned,
  );
  /** Sends one failing request as a live target does: reserve, wait as told, settle as failed. */
  const fail = () => {
    const { id, waitMs } = p.reserve(1);
    clock.now += waitMs;
    p.settle(id, 1, 1);
    clock.now += 10;
    return waitMs;
  };
  return { p, clock, lines, fail };
}

describe('a run from one address paces its failing requests only while the deployment throttles', () => {
  test('a deployment never seen to throttle is never waited for, however many requests fail', () => {
    const { p, lines, fail } = pacer();
    const waits = Array.from({ length: 200 }, fail);
    expect(waits.every((w) => w === 0)).toBe(true);
    expect(lines).toEqual([]);
    expect(p.summary()).toMatchObject({ failing: 200, throttled: false, waitedMs: 0 });
  });

  test('once throttled, the refused request waits until the failures seen leave the window, and then at most 29 failing requests leave in any 60 s', () => {
    const { p, clock, lines, fail } = pacer(100);
    // 30 failures, one every 10 ms (0 .. 290 ms); the 31st is refused at 300 ms.
    for (let i = 0; i < 30; i++) fail();
    const refused = p.reserve(1);
    expect(refused.waitMs).toBe(0);
    // Room for it, should it fail too: the two oldest (0 and 10 ms) must leave the window (60 s) first, with the margin.
    expect(p.throttled('none', refused.id)).toEqual({ waitMs: 10 + 60_000 + 250 - 300, quiet: false });
    clock.now += 10 + 60_000 + 250 - 300;
    p.settle(refused.id, 1, 1);
    const sent: number[] = [...Array.from({ length: 30 }, (_, i) => i * 10), clock.now];
    clock.now += 10;
    for (let i = 0; i < 90; i++) {
      fail();
      sent.push(clock.now - 10);
    }
    // In every window of 60 s, never more than 29 after the throttle's window.
    for (const t of sent.filter((s) => s >= 60_000)) expect(sent.filter((s) => s > t - 60_000 && s <= t).length).toBeLessThanOrEqual(PACED_FAILURES_PER_WINDOW);
    // The floor: 91 failures after the throttle take at least three windows.
    expect(sent.at(-1)! - sent[30]!).toBeGreaterThanOrEqual(3 * 60_000);
    expect(lines[0]).toMatch(/throttles this address .* waits 60\.0 s, until the failures seen leave the window/);
    expect(lines[1]).toMatch(/about 70 more failing signed requests are expected; .* about 3 min of waiting in all/);
    expect(lines.filter((l) => l.startsWith('pacing: waiting')).length).toBeGreaterThan(0);
  });

  test('a request reserved before the throttle counts at the time it goes again, not the time it was reserved', () => {
    const { p, fail } = pacer();
    // Failures at 0 .. 290 ms; the 31st, reserved at 300 ms, is refused and told to go again at 60 260 ms.
    for (let i = 0; i < 30; i++) fail();
    const refused = p.reserve(1);
    expect(p.throttled('none', refused.id).waitMs).toBe(59_960);
    // A case asking meanwhile for 29 failures' room gets it only once the refused request's own failure (60 260 ms)
    // has left the window too, 60 250 ms after it, not at 60 550 ms, beside it.
    expect(p.reserve(PACED_FAILURES_PER_WINDOW).waitMs).toBe(60_260 + 60_250 - 300);
  });

  test('where the pacer saw too few failures to explain the throttle, the refused request waits a whole quiet window', () => {
    const { p, fail } = pacer();
    for (let i = 0; i < 5; i++) fail();
    expect(p.throttled('none')).toEqual({ waitMs: THROTTLE_WAIT_MS, quiet: true });
  });

  test('refused again after the wait the pacer computed, a request waits a whole quiet window; refused after that, pacing stops', () => {
    const { p, lines, fail } = pacer();
    for (let i = 0; i < 30; i++) fail();
    expect(p.throttled('none').quiet).toBe(false);
    expect(p.throttled('paced')).toEqual({ waitMs: THROTTLE_WAIT_MS, quiet: true });
    expect(p.throttled('quiet')).toEqual({ waitMs: 0, quiet: false });
    expect(lines.at(-1)).toMatch(/stops pacing/);
    expect(p.summary()).toMatchObject({ throttled: true, unruly: true });
  });

  test('requests that did not fail give their room back; a case reserves room for all its failures in one go', () => {
    const { p, clock } = pacer();
    p.throttled('none');
    clock.now += THROTTLE_WAIT_MS;
    for (let i = 0; i < 20; i++) {
      const { id } = p.reserve(1);
      p.settle(id, 1, 0);
    }
    const whole = p.reserve(5);
    expect(whole.waitMs).toBe(0);
    p.settle(whole.id, 2, 2);
    p.release(whole.id);
    // 2 failures count; 27 more fit now, the 28th waits.
    expect(p.reserve(27).waitMs).toBe(0);
    expect(p.reserve(1).waitMs).toBeGreaterThan(0);
  });

  test('a deployment that still throttles after a quiet window is not throttling by the rule: pacing stops', () => {
    const { p, lines, fail } = pacer();
    expect(p.throttled('none')).toEqual({ waitMs: THROTTLE_WAIT_MS, quiet: true });
    expect(p.throttled('quiet')).toEqual({ waitMs: 0, quiet: false });
    expect(lines.at(-1)).toMatch(/stops pacing/);
    expect(Array.from({ length: 100 }, fail).every((w) => w === 0)).toBe(true);
    expect(p.throttled('none')).toEqual({ waitMs: 0, quiet: false });
    expect(p.summary().unruly).toBe(true);
  });

  test('the summary names the failing requests, the wall time and the floor', () => {
    expect(pacedFloorMinutes(58)).toBe(2);
    expect(paceSummaryLine({ failing: 58, throttled: true, unruly: false, waitedMs: 120_000 }, 180_000)).toBe(
      "from one address: 58 failing signed requests sent in 3.0 min (the throttle's floor for them: 58/29 = 2.0 min); the deployment throttled, so the run paced (told requests to wait 120 s in all, some side by side)",
    );
  });

  test('the report records the failing requests, the wall time, the floor (failing / 29 minutes) and the waits', () => {
    expect(pacingRecord({ failing: 87, throttled: true, unruly: false, waitedMs: 61_500.4 }, 200_000.6)).toEqual({
      failingRequests: 87,
      wallTimeMs: 200_001,
      floorMs: 180_000,
      throttled: true,
      waitedMs: 61_500,
    });
    expect(pacingRecord({ failing: 0, throttled: false, unruly: false, waitedMs: 0 }, 1000)).toEqual({
      failingRequests: 0,
      wallTimeMs: 1000,
      floorMs: 0,
      throttled: false,
      waitedMs: 0,
    });
  });
});
