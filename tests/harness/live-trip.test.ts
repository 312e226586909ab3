import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { FailurePacer, THROTTLE_WAIT_MS } from '../../src/harness/failure-budget.js';
import { type FixtureHost, startFixtureHost } from '../../src/harness/fixture-host.js';
import type { ThrottleTrip } from '../../src/harness/target.js';
import { FleetTarget } from '../../src/harness/targets/fleet.js';
import { LiveTarget, type LiveTargetOptions, TRIP_WAITS_REASON } from '../../src/harness/targets/live.js';

/**
 * A live target from the run's one address holding it for a check that trips the throttle (Target.throttleTrip): its
 * signed requests are each sent once, a throttled one included (the check expects it throttled), and their failures
 * and throttle answers are told to the run's pacer; outside a trip a throttled request waits as the pacer says and goes
 * again. The pacer is the run's own, on a clock the test moves; the fixture host answers the target as the run's does.
 */

const THROTTLED = JSON.stringify({ error_code: 'too_many_failed_signatures' });
const INVALID = JSON.stringify({ error_code: 'signature_invalid' });

/** A deployment answering each signed request with the next answer of `script` (401 bodies), and counting requests. */
async function deployment(script: string[]): Promise<{ url: string; seen: () => number; server: Server }> {
  let seen = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = script[Math.min(seen++, script.length - 1)]!;
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: () => seen, server };
}

const servers: Server[] = [];
let host: FixtureHost | undefined;
const targets: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.close();
  await host?.close();
  host = undefined;
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/**
 * The run's pacer behind a fixture host; the messages it was sent and what it answered. `lift`: answers of these ops
 * are given to the target with a wait of 1 ms at most (the pacer's own answer is kept for the test), so nothing waits.
 */
async function runPacer(clock: { now: number }, lift: ReadonlySet<string> = new Set()) {
  const pacer = new FailurePacer(
    () => clock.now,
    () => {},
  );
  const talk: Array<{ message: { op: string } & Record<string, unknown>; answer: Record<string, unknown> }> = [];
  host = await startFixtureHost({
    pacer: (message) => {
      const answer = pacer.handle(message);
      talk.push({ message: message as never, answer });
      return lift.has((message as { op: string }).op) ? { ...answer, waitMs: Math.min(1, Number(answer.waitMs)) } : answer;
    },
  });
  return { pacer, talk, fixture: { url: host.url, adminUrl: host.adminUrl, token: host.adminToken } };
}

function liveTarget(baseUrl: string, fixture: LiveTargetOptions['fixture'], more: Partial<LiveTargetOptions> = {}): LiveTarget {
  const target = new LiveTarget({ baseUrl, fixture, runId: 'run-trip', allowWaits: true, ...more });
  targets.push(target);
  return target;
}

/** A signed request as the live target recognises one (it carries Signature-Input). */
function signed(url: string) {
  return { method: 'POST', url: `${url}/api/cli/token`, headers: [['signature-input', 'sig1=()'] as const], body: null };
}

describe('a live target holding the run’s one address to trip the throttle', () => {
  test('is not given it without --allow-waits, or when the run chooses client addresses', async () => {
    const { fixture } = await runPacer({ now: 0 });
    expect(await liveTarget('http://127.0.0.1:9', fixture, { allowWaits: false }).throttleTrip('c')).toEqual({ notRun: TRIP_WAITS_REASON });
    expect(TRIP_WAITS_REASON).toMatch(/^needs --allow-waits: .*--client-address-header NAME/);
    expect(await liveTarget('http://127.0.0.1:9', fixture, { clientAddressHeader: 'x-forwarded-for' }).throttleTrip('c')).toEqual({
      notRun: expect.stringMatching(/--client-address-header/),
    });
  });

  test('sends each request of the trip once, the throttled ones too, and tells the pacer its failures and the throttle', async () => {
    const clock = { now: 1_000_000 };
    const { pacer, talk, fixture } = await runPacer(clock, new Set(['trip-end', 'throttled']));
    const d = await deployment([INVALID, INVALID, THROTTLED, THROTTLED]);
    servers.push(d.server);
    const target = liveTarget(d.url, fixture);
    const trip = (await target.throttleTrip('signed.throttle-thirty-failures')) as ThrottleTrip;
    expect(trip.id).toEqual(expect.any(Number));
    // The case's room: none asked for, the trip's requests being the only failing ones.
    await target.ready(30);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await target.send(signed(d.url))).status);
    expect(answers).toEqual([401, 401, 401, 401]);
    expect(d.seen()).toBe(4);
    expect(talk.map((t) => t.message.op)).toEqual(['trip', 'settle', 'settle', 'settle', 'settle']);
    expect(talk.filter((t) => t.message.throttled === true)).toHaveLength(2);
    clock.now += 100;
    await trip.end();
    // The pacer holds the address a whole window from the trip's end, which the check waits out (lifted here).
    expect(talk.find((t) => t.message.op === 'trip-end')).toEqual({ message: { op: 'trip-end', id: trip.id }, answer: { waitMs: THROTTLE_WAIT_MS } });
    expect(talk.at(-1)!.message.line).toMatch(/^signed\.throttle-thirty-failures: waiting .* for the deployment's throttle window to pass/);
    expect(pacer.summary()).toMatchObject({ failing: 2, throttled: true });
    // Once ended, a throttled request is paced again: told to wait until the address is let go, then sent again.
    const after = await deployment([THROTTLED, INVALID]);
    servers.push(after.server);
    clock.now += 1000;
    await liveTarget(after.url, fixture).send(signed(after.url));
    expect(after.seen()).toBe(2);
    expect(talk.find((t) => t.message.op === 'throttled')!.answer).toEqual({ waitMs: THROTTLE_WAIT_MS - 1000, quiet: false });
  });

  test('a deployment that never throttles holds nothing after the trip: the check waits for nothing', async () => {
    const clock = { now: 5_000_000 };
    const { talk, fixture } = await runPacer(clock);
    const d = await deployment([INVALID]);
    servers.push(d.server);
    const target = liveTarget(d.url, fixture);
    const trip = (await target.throttleTrip('signed.throttle-thirty-failures')) as ThrottleTrip;
    for (let i = 0; i < 32; i++) await target.send(signed(d.url));
    await trip.end();
    expect(d.seen()).toBe(32);
    expect(talk.filter((t) => t.message.op === 'trip-end').map((t) => t.answer)).toEqual([{ waitMs: 0 }]);
    expect(talk.some((t) => t.message.op === 'notice')).toBe(false);
  });

  test('over a fleet both instances are in the trip: requests to either are sent once and counted with it', async () => {
    const clock = { now: 9_000_000 };
    const { talk, fixture } = await runPacer(clock, new Set(['trip-end']));
    const a = await deployment([INVALID, THROTTLED]);
    const b = await deployment([INVALID, THROTTLED]);
    servers.push(a.server, b.server);
    const fleet = new FleetTarget([liveTarget(a.url, fixture), liveTarget(a.url, fixture, { instanceUrl: b.url })]);
    // Its instances are closed with the other targets.
    const trip = (await fleet.throttleTrip('fleet.throttle-counts-every-instance')) as ThrottleTrip;
    for (let i = 0; i < 4; i++) await fleet.send(signed(a.url));
    expect([a.seen(), b.seen()]).toEqual([2, 2]);
    const settled = talk.filter((t) => t.message.op === 'settle');
    expect(settled.map((t) => t.message.id)).toEqual([trip.id, trip.id, trip.id, trip.id]);
    expect(settled.filter((t) => t.message.throttled === true)).toHaveLength(2);
    await trip.end();
    const ends = talk.filter((t) => t.message.op === 'trip-end');
    expect(ends.map((t) => t.answer)).toEqual([{ waitMs: THROTTLE_WAIT_MS }]);
  });
});
