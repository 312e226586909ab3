import { describe, expect, test } from 'vitest';
import {
  FailurePacer,
  fromOneAddress,
  PACED_FAILURES_PER_WINDOW,
  THROTTLE_WAIT_MS,
  TRIP_LIMIT_MS,
  TRIP_POLL_MS,
  TRIPPING_CASES,
  paceSummaryLine,
  pacedFloorMinutes,
  pacingRecord,
} from '../../src/harness/failure-budget.js';
import { readCheckIndex } from '../../src/harness/check-index.js';
import { plannedWaitSeconds } from '../../src/harness/live-waits.js';
import { PROJECT_ROOT } from '../paths.js';

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

describe("a check trips the throttle on purpose from the run's one address (a trip of the pacer)", () => {
  /** The trip's requests as a live target in a trip sends them: failures, then throttle answers, told to the pacer. */
  function tripRequests(p: FailurePacer, clock: { now: number }, id: number, failures: number, throttled: number) {
    for (let i = 0; i < failures; i++, clock.now += 10) p.settle(id, 0, 1);
    for (let i = 0; i < throttled; i++, clock.now += 10) p.settle(id, 0, 0, true);
  }

  test('waits until the window holds none of the run’s failures, holding other failing requests back meanwhile', () => {
    const { p, clock, lines, fail } = pacer();
    for (let i = 0; i < 3; i++) fail();
    // The last failure settled at 20 ms: the window (60 s) and the margin of a throttle wait (2 s) after it.
    const asked = p.askTrip('signed.throttle-thirty-failures');
    expect(asked).toEqual({ id: expect.any(Number), granted: false, waitMs: 20 + THROTTLE_WAIT_MS - 30 });
    expect(lines.at(-1)).toMatch(/^signed\.throttle-thirty-failures: holding back the run's failing signed requests .* about 62 s/);
    // Another check's failing requests get no room while the trip waits: they ask again in a moment.
    expect(p.reserve(4)).toEqual({ id: 0, waitMs: TRIP_POLL_MS, again: true });
    // Another trip waits for this one, holding nothing.
    expect(p.askTrip('fleet.throttle-counts-every-instance')).toEqual({ granted: false, waitMs: TRIP_POLL_MS });
    clock.now += asked.waitMs - 1;
    expect(p.askTrip('signed.throttle-thirty-failures', asked.id)).toMatchObject({ granted: false, waitMs: 1 });
    clock.now += 1;
    expect(p.askTrip('signed.throttle-thirty-failures', asked.id)).toEqual({ id: asked.id, granted: true, waitMs: 0 });
    // Under way, still no room for others.
    expect(p.reserve(1)).toMatchObject({ again: true });
  });

  test('waits for room a case still holds (its failures are yet to come), then for them to leave the window', () => {
    const { p, clock } = pacer();
    const held = p.reserve(2);
    const { id, ...asked } = p.askTrip('t');
    expect(asked).toEqual({ granted: false, waitMs: TRIP_POLL_MS });
    expect(p.askTrip('t', id)).toEqual({ id, granted: false, waitMs: TRIP_POLL_MS });
    clock.now += 500;
    p.settle(held.id, 1, 1);
    p.release(held.id);
    // The case failed once at 500 ms: the trip waits for it to leave the window.
    expect(p.askTrip('t', id)).toMatchObject({ granted: false, waitMs: THROTTLE_WAIT_MS });
    clock.now += THROTTLE_WAIT_MS;
    expect(p.askTrip('t', id)).toMatchObject({ granted: true });
  });

  test('a trip the deployment throttled holds the address a whole window: its check waits it out, and so does every other failing or refused request', () => {
    const { p, clock, lines } = pacer();
    const trip = p.askTrip('fleet.throttle-counts-every-instance');
    expect(trip).toMatchObject({ granted: true, waitMs: 0 });
    tripRequests(p, clock, trip.id!, 30, 2);
    // Another check's signed request, expected to succeed, is throttled while the trip is under way: a whole window from now.
    expect(p.throttled('none')).toEqual({ waitMs: THROTTLE_WAIT_MS, quiet: false });
    const ended = clock.now;
    expect(p.endTrip(trip.id!)).toEqual({ waitMs: THROTTLE_WAIT_MS });
    expect(lines.at(-1)).toMatch(/^fleet\.throttle-counts-every-instance tripped the deployment's throttle .* wait 62 s for its window to pass/);
    clock.now += 1000;
    // A failing request waits until the address is let go; a throttled one too, and it is no step towards "unruly".
    const waiting = p.reserve(1);
    expect(waiting.waitMs).toBe(ended + THROTTLE_WAIT_MS - clock.now);
    p.release(waiting.id);
    expect(p.throttled('none')).toEqual({ waitMs: ended + THROTTLE_WAIT_MS - clock.now, quiet: false });
    expect(p.throttled('paced')).toEqual({ waitMs: ended + THROTTLE_WAIT_MS - clock.now, quiet: false });
    expect(p.summary()).toMatchObject({ failing: 30, throttled: true, unruly: false });
    // Once let go, the run paces as against any deployment seen to throttle: at most 29 failures in any window.
    clock.now = ended + THROTTLE_WAIT_MS;
    expect(p.reserve(PACED_FAILURES_PER_WINDOW).waitMs).toBe(0);
    expect(p.reserve(1).waitMs).toBeGreaterThan(50_000);
  });

  test('a trip the deployment never throttled (it does not throttle, or counts per instance) holds nothing afterwards', () => {
    const { p, clock } = pacer();
    const trip = p.askTrip('fleet.throttle-counts-every-instance');
    tripRequests(p, clock, trip.id!, 30, 0);
    expect(p.endTrip(trip.id!)).toEqual({ waitMs: 0 });
    expect(p.reserve(5).waitMs).toBe(0);
    expect(p.summary()).toMatchObject({ failing: 30, throttled: false });
  });

  test('a trip its check stopped asking about is dropped; one under way whose check never ended it is taken to have throttled', () => {
    const { p, clock } = pacer();
    const { fail } = { fail: () => p.settle(p.reserve(1).id, 1, 1) };
    fail();
    const abandoned = p.askTrip('a');
    expect(abandoned.granted).toBe(false);
    clock.now += abandoned.waitMs + 30_001;
    // Its check ended: another trip may have the address, no longer waiting for the first.
    const next = p.askTrip('b');
    expect(next).toMatchObject({ granted: true });
    expect(next.id).not.toBe(abandoned.id);
    clock.now += TRIP_LIMIT_MS + 1;
    // Under way too long: the address is held a window from now, as if it had throttled.
    expect(p.reserve(1).waitMs).toBe(THROTTLE_WAIT_MS);
  });

  test('the pacer answers the trip messages of live targets', () => {
    const { p, clock } = pacer();
    const asked = p.handle({ op: 'trip', who: 'signed.throttle-thirty-failures' }) as { id: number; granted: boolean };
    expect(asked.granted).toBe(true);
    p.handle({ op: 'settle', id: asked.id, used: 0, failed: 1 });
    p.handle({ op: 'settle', id: asked.id, used: 0, failed: 0, throttled: true });
    clock.now += 5;
    expect(p.handle({ op: 'trip-end', id: asked.id })).toEqual({ waitMs: THROTTLE_WAIT_MS });
    // Ending a trip that is no longer held tells how long the address is still held, and changes nothing.
    expect(p.handle({ op: 'trip-end', id: asked.id })).toEqual({ waitMs: THROTTLE_WAIT_MS });
  });
});

describe('a case run from the run’s one address', () => {
  const step = (client_address?: string) => ({
    request: { method: 'GET', url: 'https://p.example/', headers: [] },
    ...(client_address ? { client_address } : {}),
  });
  const of = (steps: object[]) => ({ id: 'c', description: '', now: 0, platform: { authority: 'p.example' }, documents: {}, steps }) as never;

  test('drops the one address its steps name', () => {
    const c = fromOneAddress(of([step('192.0.2.1'), step('192.0.2.1'), step()]));
    expect(c.steps.every((s) => !('client_address' in s))).toBe(true);
    expect(c.steps).toHaveLength(3);
  });

  test('refuses a case naming two addresses, which one address cannot stand for', () => {
    expect(() => fromOneAddress(of([step('192.0.2.1'), step('192.0.2.2')]))).toThrow(/names 2 client addresses/);
  });

  test('is what the throttle-thirty-failures case becomes under --allow-waits', () => {
    expect(TRIPPING_CASES.has('throttle-thirty-failures')).toBe(true);
  });
});

describe("a run's deadline under --allow-waits", () => {
  test('grows by two windows for each check that may trip the throttle: one for the run’s failures to leave, one for the throttle to pass', () => {
    const index = readCheckIndex(PROJECT_ROOT);
    const files = ['suites/5.2-fleet.test.ts', 'suites/7.3-signed-requests.test.ts'];
    const waits = (id: string) => plannedWaitSeconds(PROJECT_ROOT, index, files, [id]);
    expect(waits('fleet.throttle-counts-every-instance')).toBe(2 * Math.ceil(THROTTLE_WAIT_MS / 1000));
    expect(waits('signed.throttle-thirty-failures')).toBe(2 * Math.ceil(THROTTLE_WAIT_MS / 1000));
    expect(waits('fleet.replay-across-instances')).toBe(0);
  });
});
