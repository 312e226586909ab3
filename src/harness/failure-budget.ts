import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignedRequestCase, SignedRequestVectors } from '../cases/types.js';
import { selectedBy } from '../contract/check.js';
import { LIMITS } from '../spec/limits.js';
import type { CheckIndex } from './check-index.js';
import type { PacingRecord } from './results.js';
import { planLive, stageLive, type LiveStagingOptions } from './live-staging.js';
import { missingCapabilities, type Capability } from './target.js';

/**
 * A live run from one address (no --client-address-header) sends many signed requests that must fail, and a conforming
 * platform throttles an address after 30 failures in 60 s (7.3 too_many_failed_signatures). The pacer is the run's one
 * account of them, in the run's own process (every suite file asks it through the fixture host, src/harness/fixture-client.ts):
 *
 * - it paces only once the deployment is seen to throttle. Until then failing requests go out as fast as the checks
 *   send them: a platform that never throttles where it should has failed that check, and waiting buys nothing;
 * - once it throttles, the request it refused (refused before reading, so nothing of it was spent) waits until the
 *   failures the pacer saw leave the deployment's window ("in the last 60 seconds", 7.3) and goes again, and from then on
 *   at most 29 failing requests leave in any 60 s;
 * - refused again after that wait, it waits a whole quiet window; a deployment that still throttles after a whole quiet
 *   window is not throttling by the rule: pacing stops there (its answers are judged as they come), so no target can
 *   stretch a run with throttle answers;
 * - a check may trip the throttle on purpose from the run's one address (`trip`, under --allow-waits): the pacer gives
 *   it the address alone once the window holds none of the run's failures and no reservation is still open (holding
 *   every other failing request back meanwhile), and when it ends (`trip-end`) knows the address throttled for a whole
 *   window, which every other failing or refused request of the run waits out, and the check itself too, so the run
 *   never ends leaving the deployment throttling its address.
 *
 * Time is injected; the pacer never sleeps itself, it tells each request how long to wait.
 */
export interface PaceSummary {
  /** Failing signed requests sent (answered 401 other than too_many_failed_signatures). */
  readonly failing: number;
  /** Whether the deployment was seen to throttle. */
  readonly throttled: boolean;
  /** Whether it kept throttling after a quiet window, so pacing stopped. */
  readonly unruly: boolean;
  /** The longest any request was told to wait, and all waits told, in milliseconds. */
  readonly waitedMs: number;
}

/** What a live target asks the pacer (POST to the fixture host's `pace`). */
export type PaceMessage =
  | { readonly op: 'reserve'; readonly count: number }
  /** `throttled`: the request (of a trip) was answered too_many_failed_signatures. */
  | { readonly op: 'settle'; readonly id: number; readonly used: number; readonly failed: number; readonly throttled?: boolean }
  | { readonly op: 'release'; readonly id: number }
  /** `id`: the refused request's reservation, if it had one; `before`: the wait it was already given (ThrottleWait). */
  | { readonly op: 'throttled'; readonly before: PreviousWait; readonly id?: number }
  | { readonly op: 'notice'; readonly line: string }
  /** A check asks for the address alone, to trip the throttle (`id`: the trip it was given when it asked before). */
  | { readonly op: 'trip'; readonly who: string; readonly id?: number }
  | { readonly op: 'trip-end'; readonly id: number };

/** Failing requests a paced run lets leave in any window: one fewer than the throttle's threshold. */
/** The wait a refused request was given before this refusal: none yet, one until the failures seen left the window, a quiet window. */
export type PreviousWait = 'none' | 'paced' | 'quiet';

export const PACED_FAILURES_PER_WINDOW = LIMITS.failedSignatures.value - 1;
const WINDOW_MS = LIMITS.failedSignaturesWindow.value * 1000;
/** After a throttle answer the request waits this long: the whole window and a margin for the two clocks. */
export const THROTTLE_WAIT_MS = WINDOW_MS + 2000;
const MARGIN_MS = 250;
/** While a trip is asked for or under way, other failing requests ask again this often. */
export const TRIP_POLL_MS = 1000;
/** A trip asked for and not asked about again this long after the wait it was told is dropped (its check ended). */
const TRIP_STALE_MS = 30_000;
/** A trip under way longer than this is ended as if it throttled (its check ended without saying so). */
export const TRIP_LIMIT_MS = 180_000;

/** A check tripping the throttle on purpose: waiting for the address (`granted` false) or holding it. */
interface Trip {
  readonly id: number;
  readonly who: string;
  granted: boolean;
  /** Whether the deployment answered one of its requests too_many_failed_signatures. */
  seen: boolean;
  /** When it is taken to have ended without saying so. */
  expires: number;
  announced: boolean;
}

interface Slot {
  at: number;
  readonly id: number;
  failed: boolean;
}

export class FailurePacer {
  private slots: Slot[] = [];
  private nextId = 1;
  private pacing = false;
  private unruly = false;
  private throttledOnce = false;
  private failing = 0;
  private waitedMs = 0;
  private announcedTotal = false;
  private trip: Trip | undefined;
  /** Until when a trip that ended holds the address throttled: no failing request of the run leaves before. */
  private heldUntil = 0;
  /** When the last failure the pacer heard of was settled (kept past the window, which a trip waits out with a margin). */
  private lastFailureAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly nowMs: () => number,
    private readonly notice: (line: string) => void,
    /** Failing requests the run is expected to send in all (an estimate, for the expected total wait). */
    private readonly planned = 0,
  ) {}

  /** Answers one message of a live target. */
  handle(message: unknown): Record<string, unknown> {
    const m = message as PaceMessage;
    switch (m?.op) {
      case 'reserve':
        return this.reserve(Math.max(1, Math.floor(Number(m.count) || 1)));
      case 'settle':
        this.settle(Number(m.id), Math.max(0, Math.floor(Number(m.used) || 0)), Math.max(0, Math.floor(Number(m.failed) || 0)), m.throttled === true);
        return {};
      case 'trip':
        return this.askTrip(String(m.who ?? 'a check'), m.id === undefined ? undefined : Number(m.id));
      case 'trip-end':
        return this.endTrip(Number(m.id));
      case 'release':
        this.release(Number(m.id));
        return {};
      case 'throttled':
        return this.throttled(m.before === 'paced' || m.before === 'quiet' ? m.before : 'none', m.id === undefined ? undefined : Number(m.id));
      case 'notice':
        this.notice(String(m.line));
        return {};
      default:
        throw new Error(`the pacer does not know ${JSON.stringify(message)}`);
    }
  }

  /**
   * Room for `count` failing requests: how long to wait before sending them, and the id to settle them by. Not pacing,
   * nothing waits (the slots still count, should the deployment start throttling).
   */
  reserve(count: number): { id: number; waitMs: number; again?: true } {
    const now = this.nowMs();
    this.forget(now);
    this.expireTrip(now);
    // A check is tripping the throttle, or waiting to: no other failing request leaves; ask again in a moment (no room, id 0).
    if (this.trip) return { id: 0, waitMs: TRIP_POLL_MS, again: true };
    const id = this.nextId++;
    const room = Math.min(count, PACED_FAILURES_PER_WINDOW);
    let at = Math.max(now, this.heldUntil);
    if (this.pacing) {
      // After every slot already granted, and once the window before it holds room for these.
      at = Math.max(at, ...this.slots.map((s) => s.at));
      for (;;) {
        const inWindow = this.slots.filter((s) => s.at > at - WINDOW_MS);
        if (inWindow.length + room <= PACED_FAILURES_PER_WINDOW) break;
        at = inWindow[inWindow.length + room - PACED_FAILURES_PER_WINDOW - 1]!.at + WINDOW_MS + MARGIN_MS;
      }
    }
    for (let i = 0; i < room; i++) this.slots.push({ at, id, failed: false });
    this.slots.sort((a, b) => a.at - b.at);
    const waitMs = Math.max(0, Math.ceil(at - now));
    if (waitMs > 0) this.announce(waitMs, count);
    return { id, waitMs };
  }

  /**
   * `used` requests of a reservation were sent and `failed` of them failed: those count from the time they failed, the
   * other used slots are released, and the rest stay held for the reservation's next requests.
   */
  settle(id: number, used: number, failed: number, throttled = false): void {
    const now = this.nowMs();
    if (throttled && this.trip?.id === id) this.trip.seen = true;
    let free = Math.max(0, used - failed);
    let fail = failed;
    this.failing += failed;
    if (failed > 0) this.lastFailureAt = Math.max(this.lastFailureAt, now);
    this.slots = this.slots.filter((s) => {
      if (s.id !== id || s.failed) return true;
      if (fail > 0) {
        fail--;
        s.failed = true;
        s.at = Math.max(s.at, now);
        return true;
      }
      if (free > 0) {
        free--;
        return false;
      }
      return true;
    });
    // A reservation may have been too small (a case failed more often than it expected): those count too.
    for (; fail > 0; fail--) this.slots.push({ at: now, id, failed: true });
    this.slots.sort((a, b) => a.at - b.at);
  }

  /** The slots of a reservation still held (a case that failed less than it expected) are given back. */
  release(id: number): void {
    this.slots = this.slots.filter((s) => s.id !== id || s.failed);
  }

  /**
   * The deployment answered too_many_failed_signatures: pacing starts, and the refused request waits until the failures
   * the pacer saw in the last 60 s leave room for it (the deployment counted each of them before the pacer heard of it,
   * so its window clears no later). Where the pacer saw too few failures to explain the throttle, or the request was
   * refused again after such a wait (`before`), it waits a whole quiet window (`quiet`). Refused even after a quiet
   * window, the deployment throttles a quiet address; pacing stops. `id`: the refused request's reservation, whose slot
   * moves to the time it goes again.
   */
  throttled(before: PreviousWait, id?: number): { waitMs: number; quiet: boolean } {
    const now = this.nowMs();
    this.expireTrip(now);
    // The run's own trip throttles the address: the request waits until it has passed. Under way, that is a whole window
    // from now (the trip's failures all came before this answer); ended, until the time the pacer holds the address.
    if (this.trip?.granted || now < this.heldUntil) {
      const waitMs = Math.max(1, Math.ceil((this.trip?.granted ? now + THROTTLE_WAIT_MS : this.heldUntil) - now));
      for (const s of this.slots) if (s.id === id && !s.failed) s.at = Math.max(s.at, now + waitMs);
      this.slots.sort((a, b) => a.at - b.at);
      this.waitedMs += waitMs;
      return { waitMs, quiet: false };
    }
    if (this.unruly) return { waitMs: 0, quiet: false };
    if (before === 'quiet') {
      this.unruly = true;
      this.pacing = false;
      this.notice(
        'the deployment still answers too_many_failed_signatures after a quiet window of 60 s: it does not throttle by the rule, so the run stops pacing and judges its answers as they come',
      );
      return { waitMs: 0, quiet: false };
    }
    this.forget(now);
    const failed = this.slots.filter((s) => s.failed);
    // Room for the refused request, which may fail too: at most 28 seen failures left in the window when it goes.
    const leaving = failed.length - (PACED_FAILURES_PER_WINDOW - 1);
    const seen = failed.length >= LIMITS.failedSignatures.value;
    const quiet = !seen || before === 'paced';
    const waitMs = quiet ? THROTTLE_WAIT_MS : Math.max(0, Math.ceil(failed[leaving - 1]!.at + WINDOW_MS + MARGIN_MS - now));
    for (const s of this.slots) if (s.id === id && !s.failed) s.at = Math.max(s.at, now + waitMs);
    this.slots.sort((a, b) => a.at - b.at);
    if (!this.pacing) {
      this.notice(
        `the deployment throttles this address (too_many_failed_signatures after ${this.failing} failing signed requests): from now on at most ${PACED_FAILURES_PER_WINDOW} failing requests leave in any 60 s; the throttled request waits ${(waitMs / 1000).toFixed(1)} s${quiet ? ' (a whole quiet window)' : ', until the failures seen leave the window'} and is sent again`,
      );
    }
    this.pacing = true;
    this.throttledOnce = true;
    this.waitedMs += waitMs;
    if (waitMs > 0) this.announceTotal();
    return { waitMs, quiet };
  }

  /**
   * A check asks for the address alone, to trip the throttle on purpose (`id`: the trip it was told to wait for before).
   * Granted once no reservation holds room still unused, no failure of the run is left in the window (with the margin
   * of a throttle wait for the two clocks) and no earlier trip holds the address; until then it is told how long to
   * wait before asking again, and every other check's failing requests wait too (`reserve` says `again`). Another trip
   * asked for first is waited for.
   */
  askTrip(who: string, id?: number): { id?: number; granted: boolean; waitMs: number } {
    const now = this.nowMs();
    this.forget(now);
    this.expireTrip(now);
    if (this.trip && this.trip.id !== id) return { granted: false, waitMs: TRIP_POLL_MS };
    const trip = (this.trip ??= { id: this.nextId++, who, granted: false, seen: false, expires: 0, announced: false });
    if (trip.granted) return { id: trip.id, granted: true, waitMs: 0 };
    const open = this.slots.filter((s) => !s.failed);
    const waitMs = Math.max(
      0,
      Math.ceil(this.heldUntil - now),
      Math.ceil(this.lastFailureAt + THROTTLE_WAIT_MS - now),
      // Room still held by a case under way: its failures are yet to come (ask again once it settled).
      open.length ? TRIP_POLL_MS : 0,
    );
    if (waitMs > 0) {
      trip.expires = now + waitMs + TRIP_STALE_MS;
      if (!trip.announced) {
        trip.announced = true;
        this.waitedMs += waitMs;
        this.notice(
          `${who}: holding back the run's failing signed requests until the deployment's window (${WINDOW_MS / 1000} s) holds none of them, about ${Math.ceil(waitMs / 1000)} s, to trip its throttle from the run's one address (--allow-waits)`,
        );
      }
      return { id: trip.id, granted: false, waitMs };
    }
    trip.granted = true;
    trip.expires = now + TRIP_LIMIT_MS;
    return { id: trip.id, granted: true, waitMs: 0 };
  }

  /**
   * The check that tripped the throttle is done with the address. If the deployment throttled, it does so for up to a
   * window from now (the last of the trip's failures, or of its refused requests should the deployment count those):
   * the address is held that long, and pacing starts (the deployment is seen to throttle). `waitMs`: how long the
   * check waits before it ends, so that no run ends leaving the deployment throttling its address.
   */
  endTrip(id: number): { waitMs: number } {
    const now = this.nowMs();
    if (this.trip?.id === id) {
      const { seen, who } = this.trip;
      this.trip = undefined;
      if (seen) this.hold(now, who);
    }
    const waitMs = Math.max(0, Math.ceil(this.heldUntil - now));
    this.waitedMs += waitMs;
    return { waitMs };
  }

  summary(): PaceSummary {
    return { failing: this.failing, throttled: this.throttledOnce, unruly: this.unruly, waitedMs: this.waitedMs };
  }

  private announce(waitMs: number, count: number): void {
    this.waitedMs += waitMs;
    this.announceTotal();
    this.notice(
      `pacing: waiting ${(waitMs / 1000).toFixed(1)} s before ${count} failing signed request${count === 1 ? '' : 's'} (${this.failing} sent so far)`,
    );
  }

  /** Before the first wait, once: the failing requests still expected and about how long they take at the paced rate. */
  private announceTotal(): void {
    if (this.announcedTotal) return;
    this.announcedTotal = true;
    const more = Math.max(0, this.planned - this.failing);
    if (this.planned > 0)
      this.notice(
        `pacing: about ${more} more failing signed requests are expected; at ${PACED_FAILURES_PER_WINDOW} a minute that is about ${Math.ceil(more / PACED_FAILURES_PER_WINDOW)} min of waiting in all (--client-address-header NAME against a deployment that honours it needs none)`,
      );
  }

  /** The deployment throttles the address for a window from `now` because of a trip: every failing request waits for it. */
  private hold(now: number, who: string): void {
    this.heldUntil = Math.max(this.heldUntil, now + THROTTLE_WAIT_MS);
    this.pacing = true;
    this.throttledOnce = true;
    this.notice(
      `${who} tripped the deployment's throttle from the run's one address on purpose: the run's signed requests wait ${(THROTTLE_WAIT_MS / 1000).toFixed(0)} s for its window to pass, then at most ${PACED_FAILURES_PER_WINDOW} failing requests leave in any 60 s`,
    );
  }

  /** A trip whose check stopped asking (it ended early) gives the address back; one under way too long is taken to have throttled. */
  private expireTrip(now: number): void {
    const trip = this.trip;
    if (!trip || now <= trip.expires) return;
    this.trip = undefined;
    if (trip.granted) this.hold(now, trip.who);
  }

  /** Slots that left the window no longer count; released ones are gone already. */
  private forget(now: number): void {
    this.slots = this.slots.filter((s) => s.at > now - WINDOW_MS);
  }
}

/** The floor of a paced run's time for `failing` failing requests, in minutes: 29 may leave per minute. */
export function pacedFloorMinutes(failing: number): number {
  return failing / PACED_FAILURES_PER_WINDOW;
}

/** What a report records of a run from one address (RunReport.pacing): failing requests, wall time, floor, waits. */
export function pacingRecord(summary: PaceSummary, wallMs: number): PacingRecord {
  return {
    failingRequests: summary.failing,
    wallTimeMs: Math.round(wallMs),
    floorMs: Math.round(pacedFloorMinutes(summary.failing) * 60_000),
    throttled: summary.throttled,
    waitedMs: Math.round(summary.waitedMs),
  };
}

/** One line for the end of a run from one address: failing requests sent, the run's wall time, and the floor for them. */
export function paceSummaryLine(summary: PaceSummary, wallMs: number): string {
  const floor = pacedFloorMinutes(summary.failing);
  const seen = summary.unruly
    ? 'the deployment answered too_many_failed_signatures even after a quiet window, so the run stopped pacing'
    : summary.throttled
      ? `the deployment throttled, so the run paced (told requests to wait ${Math.round(summary.waitedMs / 1000)} s in all, some side by side)`
      : 'the deployment never throttled, so the run did not pace';
  return `from one address: ${summary.failing} failing signed requests sent in ${(wallMs / 60_000).toFixed(1)} min (the throttle's floor for them: ${summary.failing}/${PACED_FAILURES_PER_WINDOW} = ${floor.toFixed(1)} min); ${seen}`;
}

/**
 * About how many failing signed requests the selected checks send from one address, by suite file (for the expected
 * total wait, and to start the files that send them first): the refused steps of the signed-request cases a live run
 * can stage (src/harness/live-staging.ts) with these options, and the tampered requests of the property check. Other
 * checks send a few.
 */
export function plannedFailingByFile(
  packageRoot: string,
  index: CheckIndex | undefined,
  files: readonly string[],
  selection: readonly string[],
  options: LiveStagingOptions,
): Map<string, number> {
  const fileOf = new Map(index?.checks.filter((c) => files.includes(c.file) && selectedBy(selection, c)).map((c) => [c.id, c.file]) ?? []);
  const byFile = new Map<string, number>();
  const add = (id: string, count: number) => {
    const file = fileOf.get(id);
    if (file !== undefined && count > 0) byFile.set(file, (byFile.get(file) ?? 0) + count);
  };
  add(TAMPERED_PROPERTY_CHECK, LIVE_PROPERTY_RUNS);
  const vectors = JSON.parse(readFileSync(join(packageRoot, 'vectors', 'signed-requests.json'), 'utf8')) as SignedRequestVectors;
  // What a live run from one address can do: waits if allowed; never choose client addresses.
  const live = { capabilities: new Set<Capability>(options.allowWaits ? ['clock-control'] : []) };
  for (const c of vectors.testGroups.flatMap((g) => g.cases)) {
    if (!fileOf.has(`signed.${c.id}`)) continue;
    const plan = planLive(c, options);
    if ('notRun' in plan) continue;
    const built = stageLive(c, c.now, { ...options, nonce: () => '', ...(plan.platformToken ? { platformToken: 'issued' } : {}) });
    // Under --allow-waits a case that trips the throttle does so from the run's own address.
    const staged = options.allowWaits && TRIPPING_CASES.has(c.id) ? fromOneAddress(built) : built;
    if (missingCapabilities(live, staged).length === 0) add(`signed.${c.id}`, staged.steps.filter((s) => s.expect?.ok === false).length);
  }
  return byFile;
}

/**
 * The signed-request cases a live run from one address (no --client-address-header) runs by tripping the throttle on
 * purpose (a trip of the pacer, under --allow-waits): their steps come from one chosen address, which the run's own
 * stands for.
 */
export const TRIPPING_CASES: ReadonlySet<string> = new Set(['throttle-thirty-failures']);

/** A case whose steps come from one chosen address (or none), sent from the run's own address instead. */
export function fromOneAddress(c: SignedRequestCase): SignedRequestCase {
  const named = new Set(c.steps.map((s) => s.client_address).filter((a) => a !== undefined));
  if (named.size > 1) throw new Error(`${c.id} names ${named.size} client addresses: the run's one address cannot stand for them`);
  return { ...c, steps: c.steps.map(({ client_address: _address, ...step }) => step) };
}

/** The property check whose drawn requests all fail live, and how many it draws there (suites/7.3-signed-properties.test.ts). */
const TAMPERED_PROPERTY_CHECK = 'signed.property-tampered-requests-refused';
const LIVE_PROPERTY_RUNS = 8;
