import { LIVE_CLOCK_MARGIN_S } from '../../spec/readings.js';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import type { SignedRequestCase } from '../../cases/types.js';
import type { DeploymentNames } from '../../contract/run-context.js';
import type { ControlRequest } from '../../contract/test-control.js';
import { randomNonce } from '../../httpsig/index.js';
import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { serviceNaming } from '../../spec/naming.js';
import { checkSignal } from '../check-scope.js';
import { type PreviousWait, THROTTLE_WAIT_MS } from '../failure-budget.js';
import { LIMITS } from '../../spec/limits.js';
import { askPacer, askSpendLedger, originOnFixtureHost, publishOnFixtureHost } from '../fixture-client.js';
import type { SpendAnswer } from '../spend-ledger.js';
import { closeDispatcher, DEFAULT_MAX_BODY_BYTES, exchangeName, liveRequest, targetFaultOf } from '../live-http.js';
import { openWebSocket, SOCKET_READ_TIMEOUT_MS } from '../socket-client.js';
import type { Capability, DeploymentAddresses, PricedResources, SocketOpening, Target, TargetRequest, TargetResponse, ThrottleTrip } from '../target.js';
import { REFERENCE_OTHER_PRICED_PATH, REFERENCE_PRICED_PATH } from '../../reference/purchases.js';

export interface LiveTargetOptions {
  /** The deployment's base URL, e.g. https://platform.example or http://127.0.0.1:8787. */
  readonly baseUrl: string;
  /** Where the deployment reaches the fixture host, and how the run publishes documents there. */
  readonly fixture: { readonly url: string; readonly adminUrl: string; readonly token: string };
  /** A header the deployment takes the client address from (only where it honours one, e.g. behind a proxy). */
  readonly clientAddressHeader?: string;
  readonly runId: string;
  /** Per-request timeout: for the answer's status and headers, then again for its whole body. */
  readonly timeoutMs?: number;
  /** `run --max-body`: an answer whose body passes this many bytes fails its check (DEFAULT_MAX_BODY_BYTES). */
  readonly maxBodyBytes?: number;
  /** Purchase checks may pay, at most this much (minor units) in all; absent: they never present a credential. */
  readonly spend?: { readonly capMinorUnits: number };
  /** The deployment's own names (`run --service-name`, `--problems-url`, `--payment-problems-url`, `--terms-url`). */
  readonly deployment?: DeploymentNames;
  /** `--allow-waits`: steps at later times happen in real time (clock-control by waiting), each wait announced. */
  readonly allowWaits?: boolean;
  /** `--owner-key`: the operator's platform key the deployment accepts (5.2), for the case that presents it. */
  readonly ownerKey?: string;
  /**
   * Another instance of the deployment at `baseUrl` (`run --also-base-url`): requests go there, still naming
   * `baseUrl`'s host, as a load balancer in front of both would send them.
   */
  readonly instanceUrl?: string;
  /** `--control-url`: the deployment's test control (docs/contracts.md section 5). */
  readonly controlUrl?: string;
}

const RETRYABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']);
const ATTEMPTS = 3;
const DEFAULT_TIMEOUT_MS = 10_000;
/** A test control answers 204 or a short JSON reason: more is not read. */
const CONTROL_ANSWER_BYTES = 64 * 1024;

/** A wait of the running check (pacing, a retry): it ends early, rejecting, when the check ends. */
function checkSleep(ms: number): Promise<void> {
  const signal = checkSignal();
  return signal ? sleep(ms, undefined, { signal }) : sleep(ms);
}

/** How often a long wait says how much of it is left. */
const PROGRESS_EVERY_MS = 30_000;

/** Why a check that trips the throttle from the run's one address is not run without --allow-waits. */
export const TRIP_WAITS_REASON = `needs --allow-waits: from the run's one address (no --client-address-header) the check trips the deployment's throttle on purpose (${LIMITS.failedSignatures.value} failed signatures in ${LIMITS.failedSignaturesWindow.value} s, 7.3), which refuses every signed request of the run until its window has passed, so the run waits about ${Math.ceil(THROTTLE_WAIT_MS / 1000)} s for it (and up to as long before, for the window to hold none of the run's other failures); or run with --client-address-header NAME against a deployment that honours it, and the check sends from addresses of its own`;

/**
 * The address a request of a case comes from, in 198.18.0.0/15 (benchmarking range): one per run, case and address the
 * case names (a case may name several), so one case's failures never count against another's, nor against the same
 * case of another run (a retry, or a second pipeline against one deployment) within the 60 s window of 7.3.
 */
export function caseAddress(runId: string, caseId: string, named = ''): string {
  const h = createHash('sha256').update(`${runId}\0${caseId}\0${named}`).digest();
  return `198.${18 + (h[0]! & 1)}.${h[1]}.${h[2]! || 1}`;
}

export class LiveTarget implements Target {
  readonly kind = 'live' as const;
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly environment: Target['environment'];
  readonly addresses: DeploymentAddresses | undefined;
  /** The reference's priced paths: the spec names none, so a live deployment is checked there too (READING-PAID-SUCCESS). */
  readonly pricedResources: PricedResources = { path: REFERENCE_PRICED_PATH, otherPath: REFERENCE_OTHER_PRICED_PATH };
  readonly ownerKey: string | undefined;
  private readonly dispatcher = new Agent({ connectTimeout: 5000, keepAliveTimeout: 2000 });
  private readonly origin: string;
  private currentCase = '';
  /** The throttle trip this target's signed requests belong to (throttleTrip): each is sent once, its failure counted with the pacer. */
  private trip: { readonly id: number } | undefined;
  /** Room the pacer gave the current case before it was built (`ready`), consumed by its signed requests. */
  private reservation: { readonly id: number; left: number } | undefined;
  /** Origins of their own the fixture host opened for this target's cases (`isolatedOrigin`). */
  private readonly ownOrigins: string[] = [];

  constructor(private readonly options: LiveTargetOptions) {
    const base = new URL(options.baseUrl);
    this.origin = new URL(options.instanceUrl ?? options.baseUrl).origin;
    this.description = options.instanceUrl ?? options.baseUrl;
    this.ownerKey = options.ownerKey;
    this.capabilities = new Set<Capability>([
      ...(options.clientAddressHeader ? ['client-address' as const] : []),
      ...(options.spend ? ['spend' as const] : []),
      // Under --allow-waits later times come by waiting for them.
      ...(options.allowWaits ? ['clock-control' as const] : []),
    ]);
    this.environment = {
      authority: base.host,
      platformOrigin: base.origin,
      agentOrigin: (caseId) => `${options.fixture.url}/r/${options.runId}/c/${caseId}`,
      now: () => Math.floor(Date.now() / 1000),
      nonce: () => randomNonce(),
      clockMargin: LIVE_CLOCK_MARGIN_S,
      ...(options.deployment?.serviceName === undefined ? {} : { naming: serviceNaming(options.deployment.serviceName) }),
    };
    this.addresses = deploymentAddresses(options.deployment);
  }

  async spend(amount: number): Promise<SpendAnswer> {
    if (!this.options.spend) return { granted: false, spentMinorUnits: 0, capMinorUnits: 0 };
    return askSpendLedger(this.options.fixture, amount, this.dispatcher);
  }

  /** From one address, room for the case's failing requests (the run's pacer decides, once the deployment throttles). */
  async ready(expectedFailures: number): Promise<void> {
    // A check holding the address for a trip needs no room: its requests are the only failing ones.
    if (!this.paced || this.trip) return;
    await this.releaseReservation();
    if (expectedFailures <= 0) return;
    for (;;) {
      const { id, waitMs, again } = (await askPacer(this.options.fixture, { op: 'reserve', count: expectedFailures }, this.dispatcher)) as {
        id: number;
        waitMs: number;
        again?: boolean;
      };
      // Another check is tripping the throttle (or waiting to): no room yet, ask again after the wait.
      if (again !== true) this.reservation = { id, left: expectedFailures };
      if (waitMs > 0) await checkSleep(waitMs);
      if (again !== true) return;
    }
  }

  /**
   * Holds the run's one address for a check tripping the throttle on purpose (Target.throttleTrip): asks the pacer
   * until it grants the address (it says how long to wait between), or joins the trip another instance of the fleet
   * holds. Until `end`, every signed request is sent once, its failure and any throttle answer told to the pacer.
   */
  async throttleTrip(who: string, shared?: ThrottleTrip): Promise<ThrottleTrip | { readonly notRun: string }> {
    if (!this.paced) return { notRun: "the run names --client-address-header: the check sends from addresses of its own, not the run's" };
    if (!this.options.allowWaits) return { notRun: TRIP_WAITS_REASON };
    await this.releaseReservation();
    if (shared) {
      this.trip = { id: shared.id };
      return { id: shared.id, end: async () => void (this.trip = undefined) };
    }
    let id: number | undefined;
    for (;;) {
      const answer = (await askPacer(this.options.fixture, { op: 'trip', who, ...(id === undefined ? {} : { id }) }, this.dispatcher)) as {
        id?: number;
        granted: boolean;
        waitMs: number;
      };
      id = answer.id;
      if (answer.granted && id !== undefined) break;
      await checkSleep(Math.max(1, answer.waitMs));
    }
    const trip = { id };
    this.trip = trip;
    return { id, end: () => this.endTrip(trip, who) };
  }

  /** Gives the address back; the pacer says how long the deployment may still throttle it, which this check waits out. */
  private async endTrip(trip: { readonly id: number }, who: string): Promise<void> {
    if (this.trip === trip) this.trip = undefined;
    const { waitMs } = (await askPacer(this.options.fixture, { op: 'trip-end', id: trip.id }, this.dispatcher)) as { waitMs: number };
    if (waitMs > 0)
      await this.waitAnnounced(
        waitMs,
        `${who}: waiting %s in real time (until %t UTC) for the deployment's throttle window to pass (the check tripped it on purpose; --allow-waits)`,
        who,
      );
  }

  /** Waits `waitMs`, announced (`line`: %s the wait, %t its end) and with progress every 30 s. */
  private async waitAnnounced(waitMs: number, line: string, who: string): Promise<void> {
    const until = new Date(Date.now() + waitMs).toISOString().slice(11, 19);
    await this.notice(line.replace('%s', `${Math.ceil(waitMs / 1000)} s`).replace('%t', until));
    for (let left = waitMs; left > 0; left -= PROGRESS_EVERY_MS) {
      await checkSleep(Math.min(left, PROGRESS_EVERY_MS));
      if (left > PROGRESS_EVERY_MS) await this.notice(`${who}: ${Math.ceil((left - PROGRESS_EVERY_MS) / 1000)} s left of its wait`);
    }
  }

  async prepare(c: SignedRequestCase): Promise<void> {
    this.currentCase = c.id;
    await this.publish(c.documents);
  }

  /** Publishes a step's documents; under --allow-waits a step at a later time waits for it (announced, with progress). */
  async step(at: number, documents: SignedRequestCase['documents'] | undefined, why?: string): Promise<void> {
    if (documents) await this.publish(documents);
    const waitMs = Math.ceil(at * 1000 - Date.now());
    if (waitMs <= 500 || !this.options.allowWaits) return;
    await this.waitAnnounced(
      waitMs,
      `${this.currentCase}: waiting %s in real time (until %t UTC)${why ? ` for ${why}` : ''} (--allow-waits)`,
      this.currentCase,
    );
  }

  /**
   * Puts the deployment in a named state through its test control (only when the run names one). A state it does not
   * offer, or no control at that address, leaves the check not run with the reason; any other answer fails it. A state
   * of a client address names the address the deployment sees for that address sent (`send`: the case's own).
   */
  async control(request: ControlRequest): Promise<{ readonly ok: true } | { readonly notRun: string }> {
    const url = this.options.controlUrl;
    if (url === undefined) return { notRun: 'the run names no --control-url' };
    const sent = 'address' in request ? { ...request, address: caseAddress(this.options.runId, this.currentCase, request.address) } : request;
    const answer = await liveRequest({
      url,
      method: 'POST',
      headers: [HEADERS.contentType, 'application/json'],
      body: Buffer.from(JSON.stringify(sent)),
      dispatcher: this.dispatcher,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBodyBytes: CONTROL_ANSWER_BYTES,
    });
    if (answer.status === 204 || answer.status === 200) return { ok: true };
    const said = Buffer.from(answer.body).toString('utf8').slice(0, 300);
    if (answer.status === 404 && /unknown_state/.test(said))
      return { notRun: `needs the test control state "${request.state}", which the deployment's test control at --control-url ${url} does not offer` };
    if (answer.status === 404)
      return {
        notRun: `needs a test control: --control-url ${url} answered 404 (a deployment offers one as docs/contracts.md section 5 says; serve --test-control)`,
      };
    throw new Error(`the test control at ${url} answered ${answer.status} to ${JSON.stringify(request)}: ${said}`);
  }

  /** An origin no other case shares (another port of the fixture host), or why there is none. */
  async isolatedOrigin(): Promise<{ readonly url: string } | { readonly reason: string }> {
    const answer = await originOnFixtureHost(this.options.fixture, this.dispatcher);
    if ('url' in answer) this.ownOrigins.push(answer.url);
    return answer;
  }

  async send(r: TargetRequest): Promise<TargetResponse> {
    // A request signed for another host (an alias) still goes to the target, naming that host in Host.
    const url = new URL(r.url);
    const headers: Array<[string, string]> = r.headers.map(([n, v]) => [n, v]);
    if (url.origin !== this.origin) headers.push([HEADERS.host, url.host]);
    const sendTo = `${this.origin}${url.pathname}${url.search}`;
    const addressHeader = this.options.clientAddressHeader;
    if (addressHeader) headers.push([addressHeader, caseAddress(this.options.runId, this.currentCase, r.clientAddress)]);
    const signed = r.headers.some(([n]) => n.toLowerCase() === HEADERS.signatureInput);
    if (!signed || !this.paced) return this.exchange({ ...r, url: sendTo }, headers);
    return this.paceAround(
      () => this.exchange({ ...r, url: sendTo }, headers),
      (response) => response,
    );
  }

  /** From one address (no --client-address-header) signed requests are accounted with the run's pacer (paceAround). */
  private get paced(): boolean {
    return !this.options.clientAddressHeader;
  }

  /**
   * Sends a signed request from the run's one address, accounted with the run's pacer: a request the case expects to fail
   * uses the room it reserved (`ready`); one expected to succeed goes at once (under 30 failures in the window a platform
   * refuses nothing) and counts only if it failed all the same. A request the deployment throttled was refused before
   * reading, so nothing of it was spent: it waits as the pacer says and goes again (refused again, once more after a
   * quiet window; then its answer stands).
   */
  private async paceAround<T>(send: () => Promise<T>, answerOf: (outcome: T) => TargetResponse | undefined): Promise<T> {
    const fixture = this.options.fixture;
    if (this.trip) return this.sendInTrip(this.trip, send, answerOf);
    const slot = this.reservation && this.reservation.left > 0 ? this.reservation : undefined;
    if (slot) slot.left--;
    let outcome = await send();
    for (let before: PreviousWait = 'none'; ; ) {
      const response = answerOf(outcome);
      if (response?.status !== 401 || errorCodeOf(response) !== AUTH_CODES.too_many_failed_signatures) break;
      const message = { op: 'throttled', before, ...(slot ? { id: slot.id } : {}) };
      const { waitMs, quiet } = (await askPacer(fixture, message, this.dispatcher)) as { waitMs: number; quiet: boolean };
      if (waitMs <= 0) break;
      before = quiet ? 'quiet' : 'paced';
      await checkSleep(waitMs);
      outcome = await send();
    }
    const final = answerOf(outcome);
    const failed = final?.status === 401 && errorCodeOf(final) !== AUTH_CODES.too_many_failed_signatures ? 1 : 0;
    if (slot || failed) await askPacer(fixture, { op: 'settle', id: slot?.id ?? 0, used: slot ? 1 : 0, failed }, this.dispatcher);
    return outcome;
  }

  /**
   * A request of a check tripping the throttle: sent once, whatever it is answered (a request the check expects
   * throttled must be seen throttled, and one throttled sooner than expected is the check's to judge: waiting the
   * window out and sending it again would also clear the trip's own failures). Its failure counts with the pacer, and
   * a throttle answer tells it the deployment throttled the address.
   */
  private async sendInTrip<T>(trip: { readonly id: number }, send: () => Promise<T>, answerOf: (outcome: T) => TargetResponse | undefined): Promise<T> {
    const outcome = await send();
    const response = answerOf(outcome);
    const throttled = response?.status === 401 && errorCodeOf(response) === AUTH_CODES.too_many_failed_signatures;
    const failed = response?.status === 401 && !throttled ? 1 : 0;
    if (failed || throttled)
      await askPacer(this.options.fixture, { op: 'settle', id: trip.id, used: 0, failed, ...(throttled ? { throttled: true } : {}) }, this.dispatcher);
    return outcome;
  }

  private async releaseReservation(): Promise<void> {
    const held = this.reservation;
    this.reservation = undefined;
    if (held && held.left > 0) await askPacer(this.options.fixture, { op: 'release', id: held.id }, this.dispatcher);
  }

  /** A line the run prints (through its pacer, which lives in the run's own process). */
  private async notice(line: string): Promise<void> {
    await askPacer(this.options.fixture, { op: 'notice', line }, this.dispatcher);
  }

  /** Upgrades at the deployment itself; a signed upgrade from one address is accounted with the pacer like any signed request. */
  async openSocket(url: string, headers: ReadonlyArray<readonly [string, string]>): Promise<SocketOpening> {
    const { pathname, search } = new URL(url);
    const sent: Array<[string, string]> = headers.map(([n, v]) => [n, v]);
    const addressHeader = this.options.clientAddressHeader;
    if (addressHeader) sent.push([addressHeader, caseAddress(this.options.runId, this.currentCase)]);
    const signed = headers.some(([n]) => n.toLowerCase() === HEADERS.signatureInput);
    const timeoutMs = this.options.timeoutMs ?? SOCKET_READ_TIMEOUT_MS;
    const open = async (): Promise<SocketOpening> => {
      try {
        return await openWebSocket(`${this.origin}${pathname}${search}`, sent, {
          readTimeoutMs: timeoutMs,
          connectTimeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        });
      } catch (error) {
        throw targetFaultOf(error, exchangeName('GET', url), timeoutMs, checkSignal());
      }
    };
    if (!signed || !this.paced) return open();
    return this.paceAround(open, (opening) => (opening.opened ? undefined : opening.response));
  }

  private async exchange(r: TargetRequest, headers: Array<[string, string]>): Promise<TargetResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await liveRequest({
          url: r.url,
          method: r.method,
          headers: headers.flat(),
          body: r.body?.length ? Buffer.from(r.body) : null,
          dispatcher: this.dispatcher,
          timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        });
      } catch (error) {
        // Only a connection that never carried the request is retried: a signed request sent twice is a replay.
        const code = (error as { code?: string }).code ?? '';
        if (attempt >= ATTEMPTS || !RETRYABLE.has(code) || code === 'ECONNRESET') throw error;
        await checkSleep(200 * attempt);
      }
    }
  }

  /** Documents outside the fixture host (another origin, the platform's own) cannot be published; the cases that name them never fetch them. */
  private async publish(all: SignedRequestCase['documents']): Promise<void> {
    const origins = [this.options.fixture.url, ...this.ownOrigins];
    const documents = Object.fromEntries(Object.entries(all).filter(([documentUrl]) => origins.some((o) => documentUrl.startsWith(`${o}/`))));
    await publishOnFixtureHost(this.options.fixture, documents, this.dispatcher);
  }

  /** In-flight exchanges (a target still sending) are not waited for: the dispatcher is destroyed after a moment. */
  async close(): Promise<void> {
    // Room the last case held and did not use is given back, so another suite's requests need not wait for it.
    await this.releaseReservation().catch(() => undefined);
    await closeDispatcher(this.dispatcher);
  }
}

/** What the run was told of the deployment's addresses ({problems_url}, {payment_problems_url}, {terms_url}); undefined when nothing. */
function deploymentAddresses(names: DeploymentNames | undefined): DeploymentAddresses | undefined {
  if (!names || (names.problemsUrl ?? names.paymentProblemsUrl ?? names.termsUrl) === undefined) return undefined;
  return {
    problemBases: {
      ...(names.problemsUrl === undefined ? {} : { problems: names.problemsUrl }),
      ...(names.paymentProblemsUrl === undefined ? {} : { 'payment-problems': names.paymentProblemsUrl }),
    },
    ...(names.termsUrl === undefined ? {} : { termsUrl: names.termsUrl }),
  };
}

function errorCodeOf(response: TargetResponse): unknown {
  try {
    return (JSON.parse(Buffer.from(response.body).toString('utf8')) as { error_code?: unknown }).error_code;
  } catch {
    return undefined;
  }
}
