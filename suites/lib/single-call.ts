import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { Hash } from 'ox';
import type { Hex } from '../../src/purchase/machine/tempo/index.js';
import { recordRequest, recordResponse } from '../../src/harness/exchange.js';
import { readPaidAnswer, termsHeaderProblems } from '../../src/harness/judge-purchase.js';
import type { Capability, PricedResources, Target } from '../../src/harness/target.js';
import { decodeBase64urlJson, type ChallengeEcho } from '../../src/purchase/index.js';
import type { FakeChargeState } from '../../src/purchase/testing/index.js';
import { AGENT_SCOPE, PLATFORM_TOKEN_ISSUER, platformToken, platformTokenKeys } from '../../src/scenarios/platform-tokens.js';
import { defaultCovered } from '../../src/scenarios/request-builder.js';
import { HEADERS } from '../../src/spec/headers.js';
import { deployedHeader } from '../../src/spec/naming.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { TOKEN_STATES } from '../../src/contract/test-control.js';
import {
  arrange,
  Buyer,
  exchangeFacts,
  expectSucceeded,
  freshTestToken,
  needCapabilities,
  payOrNotRun,
  type PaidExchange,
  type PaidRequestOptions,
} from './buyer.js';
import type { CheckContext } from './check.js';
import { PREFER_TEMPO, tempoOffer, type TempoOffer } from './stablecoin.js';

/**
 * What the 7.4 files about single-call sales share (7.4-single-call, -stablecoin, -settling, -caps): the priced
 * resource the target names (the spec names none, READING-PAID-SUCCESS), the call's challenge and its payment, and
 * how a served call is judged.
 */

export const ids = (...records: ReadonlyArray<{ readonly id: string }>) => records.map((r) => r.id);
export const token = freshTestToken;
const NOT_FOUND = 404;

/**
 * A signed agent asking for a single call names it: Service-Purchase: exact, covered. What a signed agent naming
 * no kind is sold is the deployment's choice (READING-PURCHASE-KIND-DEFAULT).
 */
export const EXACT = { [HEADERS.purchase]: PURCHASE_KINDS.exact };

export interface Offered {
  readonly echo: ChallengeEcho;
  readonly version: string;
  readonly amount: number;
  readonly method: string;
}

export function offered(exchange: PaidExchange): Offered {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  return {
    echo: first.echo,
    version: exchange.termsVersion ?? '',
    amount: Number((first.challenge.request as { amount?: unknown }).amount ?? Number.NaN),
    method: first.challenge.method,
  };
}

/** A bought call: 2xx, no challenge, a Payment-Receipt, and the terms headers of a funded call. */
export function expectServed(exchange: PaidExchange): void {
  expectSucceeded(exchange, 'a bought call');
  expect(exchange.response.headers[HEADERS.paymentReceipt], 'a Payment-Receipt').toBeDefined();
  const terms = termsHeaderProblems(exchange.response, exchange.facts);
  if (terms.length) expect.fail(terms.join('\n'));
}

/** A call bought by stablecoin: served, with a Payment-Receipt of method tempo whose reference is the transaction hash. */
export function expectServedByTransfer(exchange: PaidExchange, serialized: Hex): void {
  expectServed(exchange);
  const receipt = decodeBase64urlJson(exchange.response.headers[HEADERS.paymentReceipt] ?? '');
  expect(receipt, 'the receipt').toMatchObject({ ok: true, value: { method: PAYMENT_METHODS.tempo, reference: Hash.keccak256(serialized) } });
}

/** The problem of a fresh challenge for a transaction that pays nothing: either of the Payment scheme's (READING-NON-MATCHING-TRANSACTION). */
export const freshProblem = (answer: PaidExchange) =>
  answer.refusal === PURCHASE_ERRORS['invalid-payload'].code ? PURCHASE_ERRORS['invalid-payload'] : PAYMENT_PROBLEMS.verificationFailed;

/**
 * A network address of the buyer's own in the IPv6 documentation prefix (2001:db8::/32), drawn from its agent URL: a
 * state put on it meets no other check, in this run or in another against the same deployment. No group is zero or
 * starts with one, so the address has one spelling.
 */
export function ownAddress(b: Buyer, n = 0): string {
  const hash = createHash('sha256').update(`${b.agentUrl}#${n}`).digest();
  const groups = Array.from({ length: 6 }, (_, i) => (hash.readUInt16BE(2 * i) | 0x8000).toString(16));
  return `2001:db8:${groups.join(':')}`;
}

/** The helpers of one single-call suite file, over its target. */
export function saleSuite(target: Target, file: string) {
  let serial = 0;

  const need = (c: CheckContext, ...capabilities: Capability[]) => needCapabilities(target, c, ...capabilities);

  const buyer = async (c: CheckContext, name: string): Promise<Buyer> => new Buyer(target, `${file}-${name}-${serial++}`, c.record).register();

  /** Where the target sells calls, or the check not run. */
  const priced = (c: CheckContext): PricedResources => target.pricedResources ?? c.notRun('the target names no priced single-call resource');

  /** A request to a priced resource (the target's first by default); not-run when the target serves nothing there. */
  const call = async (c: CheckContext, b: Buyer, options: PaidRequestOptions = {}): Promise<PaidExchange> => {
    const path = options.path ?? priced(c).path;
    const answer = await b.post({ ...options, path });
    if (answer.status === NOT_FOUND) c.notRun(`the target serves no priced single-call resource at ${path}`);
    return answer;
  };

  /** Leave to pay `amount` (a live run takes it from its spending allowance). */
  const mayPay = async (c: CheckContext, amount: number): Promise<void> => {
    await payOrNotRun(target, c, amount);
  };

  /** A call challenge (a signed agent asks for exact, covered) and leave to pay it. */
  const payable = async (c: CheckContext, b: Buyer, options: PaidRequestOptions = {}): Promise<Offered> => {
    const headers = options.signed === false ? options.headers : { ...EXACT, ...options.headers };
    const offer = offered(await call(c, b, { ...options, ...(headers === undefined ? {} : { headers }) }));
    await mayPay(c, offer.amount);
    return offer;
  };

  /** The card processor finishes the charge `paying` paid (in process, or through the test control). */
  const processorFinishes = async (
    c: CheckContext,
    paying: string,
    outcome: Extract<FakeChargeState, 'settled' | 'declined' | 'cancelled-unsettled'>,
  ): Promise<void> => {
    await arrange(target, c, { state: TOKEN_STATES.chargeFinishes, token: paying, outcome });
  };

  /** An unsigned request to a priced resource from the network address `address` (client-address control). */
  const callFrom = async (c: CheckContext, b: Buyer, address: string, headers: Readonly<Record<string, string>> = {}): Promise<PaidExchange> => {
    need(c, 'client-address');
    const path = priced(c).path;
    const url = b.kit.url(path);
    const naming = target.environment.naming;
    const request = {
      method: 'POST',
      url,
      headers: Object.entries(headers).map(([n, v]) => [naming ? deployedHeader(n, naming) : n, v] as const),
      body: null,
      clientAddress: address,
    };
    const response = await target.send(request);
    c.record({ request: recordRequest(request), response: recordResponse(response) });
    if (response.status === NOT_FOUND) c.notRun(`the target serves no priced single-call resource at ${path}`);
    return { ...readPaidAnswer(response, naming), response, facts: exchangeFacts(target, b.sync(), url) };
  };

  /** A buyer whose case publishes a second agent beside it (the kit's bob, signing with key B). */
  const buyerWithPeer = async (c: CheckContext, name: string): Promise<Buyer> => {
    const b = new Buyer(target, `${file}-${name}-${serial++}`, c.record);
    await target.prepare({
      id: b.caseId,
      description: b.caseId,
      now: b.now,
      platform: { authority: target.environment.authority },
      documents: { ...b.kit.docs(), ...b.kit.docs(b.kit.bob, [b.kit.B]) },
      steps: [],
    });
    return b;
  };

  /** A request to the priced resource signed as the kit's second agent (bob), covering every header it sends. */
  const callAsPeer = async (c: CheckContext, b: Buyer, headers: Readonly<Record<string, string>>): Promise<PaidExchange> => {
    b.sync();
    const path = priced(c).path;
    const entries = Object.entries(headers);
    const signed = b.kit.request({
      url: b.kit.url(path),
      body: new Uint8Array(0),
      headers: entries,
      keySetUrl: b.kit.bob.keySetUrl,
      labels: [{ label: 'sig1', key: b.kit.B, covered: [...defaultCovered('sig1', false), ...entries.map(([n]) => `"${n.toLowerCase()}"`)] }],
    });
    const request = { method: signed.method, url: signed.url, headers: signed.headers, body: null };
    const response = await target.send(request);
    c.record({ request: recordRequest(request), response: recordResponse(response) });
    if (response.status === NOT_FOUND) c.notRun(`the target serves no priced single-call resource at ${path}`);
    return { ...readPaidAnswer(response, target.environment.naming), response, facts: exchangeFacts(target, b.now, signed.url) };
  };

  /**
   * A buyer on a platform that also takes its own bearer tokens (platform-config): `bearer(subject)` is the
   * Authorization header of a platform token naming that agent (5.3), a credential with no signing identity.
   */
  const bearerBuyer = async (c: CheckContext, name: string): Promise<{ b: Buyer; bearer: (subject: string) => Promise<Record<string, string>> }> => {
    need(c, 'platform-config');
    const b = new Buyer(target, `${file}-${name}-${serial++}`, c.record);
    await target.prepare({
      id: b.caseId,
      description: b.caseId,
      now: b.now,
      platform: { authority: target.environment.authority, token_keys: platformTokenKeys(), token_issuer: PLATFORM_TOKEN_ISSUER, agent_scope: AGENT_SCOPE },
      documents: b.kit.docs(),
      steps: [],
    });
    const bearer = async (subject: string) => ({
      [HEADERS.authorization]: `Bearer ${await platformToken({ iss: PLATFORM_TOKEN_ISSUER, sub: subject, iat: b.now - 10, exp: b.now + 600, jti: `${subject}-${serial++}`, scope: AGENT_SCOPE })}`,
    });
    return { b, bearer };
  };

  /** A stablecoin call challenge for a signed agent preferring tempo (Service-Purchase: exact). */
  const tempoCall = async (c: CheckContext, b: Buyer): Promise<TempoOffer> => tempoOffer(await call(c, b, { headers: { ...EXACT, ...PREFER_TEMPO } }));

  return {
    need,
    buyer,
    priced,
    call,
    mayPay,
    payable,
    processorFinishes,
    callFrom,
    buyerWithPeer,
    callAsPeer,
    bearerBuyer,
    tempoCall,
  };
}
