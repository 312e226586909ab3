import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { testToken, type TestTokenOutcome } from '../../src/contract/test-tokens.js';
import type { CaseRequest } from '../../src/cases/types.js';
import { recordRequest, recordResponse, type Exchange } from '../../src/harness/exchange.js';
import { ProblemTypeAddresses, purchaseAnswerProblems, readPaidAnswer, type PaidAnswer, type PaidExchangeFacts } from '../../src/harness/judge-purchase.js';
import { CAPABILITY_REASONS, type Capability, type Target, type TargetRequest, type TargetResponse } from '../../src/harness/target.js';
import type { ControlRequest } from '../../src/contract/test-control.js';
import type { CheckContext } from './check.js';
import { overCapReason } from '../../src/harness/spend-ledger.js';
import { serializeCredential, type ChallengeEcho } from '../../src/purchase/index.js';
import { Kit } from '../../src/scenarios/kit.js';
import { defaultCovered } from '../../src/scenarios/request-builder.js';
import { HEADERS } from '../../src/spec/headers.js';
import { deployedHeader } from '../../src/spec/naming.js';
import { LIMITS } from '../../src/spec/limits.js';
import { STRIPE_PAYLOAD_MEMBERS, type PaymentProblemRecord } from '../../src/spec/payments.js';
import type { PurchaseErrorRecord } from '../../src/spec/types.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

/**
 * Where each target's problem types live, kept for the target's life (one suite file): what the target says (the
 * embedded reference's own; a live deployment's as the run was told); the rest is learned from a live deployment's
 * first answers (READING-PROBLEM-TYPE-ADDRESS).
 */
const problemTypes = new WeakMap<Target, ProblemTypeAddresses>();

/**
 * The facts an exchange with `target` is judged by, at `now` by the run's clock for that target: in-process the
 * target's own clock (which checks move) and no skew; live the wall clock, with the skew 5.2 tolerates. Never both.
 */
export function exchangeFacts(target: Target, now: number, requestUrl?: string): PaidExchangeFacts {
  const inProcess = target.kind === 'in-process';
  let addresses = problemTypes.get(target);
  // What the target says (in-process the reference's; live what the run was told: --problems-url and the like) is known from the start.
  const told = target.addresses;
  if (addresses === undefined) problemTypes.set(target, (addresses = new ProblemTypeAddresses(told?.problemBases ?? {})));
  const termsUrl = told?.termsUrl;
  const naming = target.environment.naming;
  return {
    clock: { now, skewS: inProcess ? 0 : LIMITS.clockSkew.value },
    problemTypes: addresses,
    ...(requestUrl === undefined ? {} : { requestUrl }),
    ...(termsUrl === undefined ? {} : { termsUrl }),
    ...(naming ? { naming } : {}),
  };
}

/** Fails the check with every way the answer differs from what 7.4 says of `expected`. */
export function expectPaidAnswer(
  exchange: { readonly response: TargetResponse; readonly facts: PaidExchangeFacts },
  expected: PurchaseErrorRecord | PaymentProblemRecord,
): void {
  const problems = purchaseAnswerProblems(exchange.response, expected, exchange.facts);
  if (problems.length) expect.fail(problems.join('\n'));
}

/** As expectPaidAnswer, for one of several presentations a check makes: the failure names `what` was presented. */
export function expectPaidAnswerOf(
  what: string,
  exchange: { readonly response: TargetResponse; readonly facts: PaidExchangeFacts },
  expected: PurchaseErrorRecord | PaymentProblemRecord,
): void {
  const problems = purchaseAnswerProblems(exchange.response, expected, exchange.facts);
  if (problems.length) expect.fail(`${what}: ${problems.join('\n')}`);
}

/** A paid route's documented success: 2xx (the spec shows no body or status beyond that), with no challenge on it. */
export function expectSucceeded(exchange: PaidExchange, what: string): void {
  expect(exchange.status >= 200 && exchange.status < 300, `${what} succeeds (2xx), got ${exchange.status} ${exchange.refusal ?? ''}`).toBe(true);
  expect(exchange.challengeCount, `no challenge on ${what}`).toBe(0);
}

const LABEL = 'sig1';
const NO_BODY = new Uint8Array(0);

export interface PaidRequestOptions {
  /** Header fields sent; names from the catalogue (HEADERS). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Which of those fields the signature covers (default: all of them); ignored when unsigned. */
  readonly cover?: readonly string[];
  /** false: send without any signature (an unauthenticated caller). */
  readonly signed?: boolean;
  readonly path?: string;
  /** The client's network address, as the target is told it (client-address: the caller needs the capability). */
  readonly clientAddress?: string;
}

export interface PaidExchange extends PaidAnswer {
  readonly response: TargetResponse;
  /** What the answer is judged by: the run's clock when it was sent, the request's URL, the deployment's addresses. */
  readonly facts: PaidExchangeFacts;
}

/**
 * A buying agent on a target: its key set is published where the target reads agent documents, it signs
 * its requests the way the platform's SDK does (7.4: the paid retry covers Payment-Authorization and the
 * terms assent), and it records every exchange for the report.
 */
export class Buyer {
  private clock: number;
  readonly kit: Kit;

  constructor(
    readonly target: Target,
    readonly caseId: string,
    private readonly record: (exchange: Exchange) => void,
  ) {
    const env = target.environment;
    this.clock = env.now();
    const self = this;
    this.kit = new Kit(
      {
        get now() {
          return self.clock;
        },
        authority: env.authority,
        platformOrigin: env.platformOrigin,
        agentOrigin: env.agentOrigin(caseId),
        nonce: env.nonce,
        ...(env.naming ? { naming: env.naming } : {}),
      },
      caseId,
    );
  }

  get agentUrl(): string {
    return this.kit.alice.agentUrl;
  }

  /** The target's clock now (moved by `advance` in-process; the real time live, as of the last `sync`). */
  get now(): number {
    return this.clock;
  }

  /** Live, reads the wall clock again (before building a request whose times matter); in-process the target's clock stands. */
  sync(): number {
    if (this.target.kind === 'live') this.clock = this.target.environment.now();
    return this.clock;
  }

  /** Publishes the buyer's key set and card and starts the target's clock for this check. */
  async register(): Promise<this> {
    await this.target.prepare({
      id: this.caseId,
      description: this.caseId,
      now: this.clock,
      platform: { authority: this.target.environment.authority },
      documents: this.kit.docs(),
      steps: [],
    });
    return this;
  }

  /** Moves the target's clock (clock-control; live under --allow-waits, waits until then). */
  async advance(seconds: number): Promise<void> {
    this.clock += seconds;
    await this.target.step(this.clock, undefined, `${seconds} s to pass since the challenge`);
  }

  /** Sends a request built with the kit (signed as the scenario says), recording it; judged at the run's clock. */
  async send(built: CaseRequest): Promise<PaidExchange> {
    this.sync();
    const request: TargetRequest = {
      method: built.method,
      url: built.url,
      headers: built.headers,
      body: built.body_base64 !== undefined ? Buffer.from(built.body_base64, 'base64') : built.body !== undefined ? new TextEncoder().encode(built.body) : null,
    };
    const response = await this.target.send(request);
    this.record({ request: recordRequest(request), response: recordResponse(response) });
    return { ...readPaidAnswer(response, this.target.environment.naming), response, facts: exchangeFacts(this.target, this.clock, request.url) };
  }

  async post(options: PaidRequestOptions = {}): Promise<PaidExchange> {
    this.sync();
    const headers = Object.entries(options.headers ?? {}) as Array<[string, string]>;
    const url = this.kit.url(options.path ?? PLATFORM_ROUTES.mppCredits);
    let request: TargetRequest;
    if (options.signed === false) {
      // Signed, the kit sends the catalogue's names under the deployment's (`run --service-name`); unsigned, so does this.
      const naming = this.target.environment.naming;
      request = { method: 'POST', url, headers: naming ? headers.map(([n, v]) => [deployedHeader(n, naming), v] as const) : headers, body: null };
    } else {
      const cover = options.cover ?? headers.map(([name]) => name);
      const signed = this.kit.request({
        url,
        body: NO_BODY,
        headers,
        labels: [{ label: LABEL, key: this.kit.A, covered: [...defaultCovered(LABEL, false), ...cover.map((name) => `"${name.toLowerCase()}"`)] }],
      });
      request = { method: signed.method, url: signed.url, headers: signed.headers, body: null };
    }
    if (options.clientAddress !== undefined) request = { ...request, clientAddress: options.clientAddress };
    const response = await this.target.send(request);
    this.record({ request: recordRequest(request), response: recordResponse(response) });
    return { ...readPaidAnswer(response, this.target.environment.naming), response, facts: exchangeFacts(this.target, this.clock, url) };
  }
}

/** Keeps this run's test tokens apart from another run's against the same deployment (a token pays once, 7.4 foreign_token). */
const RUN_TAG = randomBytes(6).toString('hex');
let tokens = 0;

/** A test token (spt_test_<outcome>_...) no other run and no other check presents. */
export function freshTestToken(outcome: TestTokenOutcome): string {
  return testToken(outcome, `${RUN_TAG}-${tokens++}`);
}

/** The paid retry's headers: a card credential answering `echo` with `token`, and assent to `version` (null: none). */
export function cardPayment(echo: ChallengeEcho, token: string, version: string | null): Record<string, string> {
  return {
    [HEADERS.paymentAuthorization]: serializeCredential({ challenge: echo, payload: { [STRIPE_PAYLOAD_MEMBERS.spt]: token } }),
    ...(version === null ? {} : { [HEADERS.termsAccepted]: version }),
  };
}

/** Reports the check not-run unless `target` has these capabilities, with the reason of each it lacks. */
export function needCapabilities(target: Target, c: CheckContext, ...capabilities: Capability[]): void {
  const missing = capabilities.filter((m) => !target.capabilities.has(m));
  if (missing.length) c.notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
}

/**
 * Takes `amount` (minor units) from the run's spending allowance before the check pays; not run, saying which cap
 * would run it, when paying would pass --spend-cap. A target without an allowance (in-process) pays nothing real.
 */
export async function payOrNotRun(target: Pick<Target, 'spend'>, c: CheckContext, amount: number): Promise<void> {
  if (!target.spend) return;
  const answer = await target.spend(amount);
  if (!answer.granted) c.notRun(overCapReason(amount, answer));
}

/** Why a check that puts the deployment in a named state is not run live without a test control. */
function controlReason(state: string): string {
  return `needs the test control: the check puts the deployment in the state "${state}" first, which a live run asks of a test control: run with --control-url URL against a deployment offering the test control of docs/contracts.md section 5 (serve --test-control offers it)`;
}

/**
 * Puts the deployment in a named state for one agent or one test token before the check goes on, through the target's
 * test control (docs/contracts.md section 5: the embedded reference answers it in-process, a live deployment at `run
 * --control-url`); not run with the reason when the target offers no such state or the run names no control. The
 * check's verdict still comes from the deployment's answers only.
 */
export async function arrange(target: Target, c: CheckContext, request: ControlRequest): Promise<void> {
  if (!target.control) c.notRun(controlReason(request.state));
  const answer = await target.control(request);
  if ('notRun' in answer) c.notRun(answer.notRun);
}

/**
 * Puts the deployment in a named state when it offers it (in-process always, live through --control-url); the check
 * goes on either way, for a state that only makes a rare case likelier (a call that takes its time).
 */
export async function arrangeIfOffered(target: Target, request: ControlRequest): Promise<boolean> {
  if (!target.control) return false;
  return 'ok' in (await target.control(request));
}
