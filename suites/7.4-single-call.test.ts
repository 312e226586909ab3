import { afterAll, describe, expect } from 'vitest';
import { keccak256, type Hex } from 'viem';
import { dailyCapRetryAfterProblems, readPaidAnswer, termsHeaderProblems } from '../src/harness/judge-purchase.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { judgeRefusal } from '../src/harness/judge-refusal.js';
import { CAPABILITY_REASONS, type Capability } from '../src/harness/target.js';
import { decodeBase64urlJson, type ChallengeEcho, type FakeChargeState, type MemoryFunding, type SaleCaps } from '../src/purchase/index.js';
import { REFERENCE_OTHER_PRICED_PATH, REFERENCE_PRICED_PATH, type ReferencePurchases } from '../src/reference/purchases.js';
import { AUTH_CODES } from '../src/spec/auth-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { deployedHeader } from '../src/spec/naming.js';
import { defaultCovered } from '../src/scenarios/request-builder.js';
import { AGENT_SCOPE, PLATFORM_TOKEN_ISSUER, platformToken, platformTokenKeys } from '../src/scenarios/platform-tokens.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS, PURCHASE_KINDS } from '../src/spec/payments.js';
import { READINGS } from '../src/spec/readings.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import {
  arrange,
  Buyer,
  cardPayment,
  exchangeFacts,
  freshTestToken,
  expectPaidAnswer,
  expectPaidAnswerOf,
  expectSucceeded,
  needCapabilities,
  type PaidExchange,
  type PaidRequestOptions,
} from './lib/buyer.js';
import { AGENT_STATES, TOKEN_STATES } from '../src/contract/test-control.js';
import { check, type CheckContext } from './lib/check.js';
import { PREFER_TEMPO, signTransfer, stablecoinCredential, tempoOffer, type TempoOffer } from './lib/stablecoin.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 7.4 single-call sales (with section 3 rows 5 to 7) over HTTP at the reference's priced resource
 * (REFERENCE_PRICED_PATH; the spec names no priced path, so a live deployment is checked there too and the checks
 * are not run when it serves nothing there). A live run presents no payment credential without 'spend'.
 */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const ids = (...records: ReadonlyArray<{ readonly id: string }>) => records.map((r) => r.id);
let serial = 0;
const NOT_FOUND = 404;

const need = (c: CheckContext, ...capabilities: Capability[]) => needCapabilities(target, c, ...capabilities);

async function buyer(c: CheckContext, name: string): Promise<Buyer> {
  return new Buyer(target, `single-call-${name}-${serial++}`, c.record).register();
}

/** A request to a priced resource (the reference's by default); not-run when the target serves no priced resource there. */
async function call(c: CheckContext, b: Buyer, options: PaidRequestOptions = {}): Promise<PaidExchange> {
  const path = options.path ?? REFERENCE_PRICED_PATH;
  const answer = await b.post({ ...options, path });
  if (answer.status === NOT_FOUND) c.notRun(`the target serves no priced single-call resource at ${path}`);
  return answer;
}

/**
 * A signed agent asking for a single call names it: Service-Purchase: exact, covered. What a signed agent naming
 * no kind is sold is the deployment's choice (READING-PURCHASE-KIND-DEFAULT).
 */
const EXACT = { [HEADERS.purchase]: PURCHASE_KINDS.exact };

const token = freshTestToken;

interface Offered {
  readonly echo: ChallengeEcho;
  readonly version: string;
  readonly amount: number;
  readonly method: string;
}

function offered(exchange: PaidExchange): Offered {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  return {
    echo: first.echo,
    version: exchange.termsVersion ?? '',
    amount: Number((first.challenge.request as { amount?: unknown }).amount ?? Number.NaN),
    method: first.challenge.method,
  };
}

/** A call challenge (a signed agent asks for exact, covered) and leave to pay it. */
async function payable(c: CheckContext, b: Buyer, options: PaidRequestOptions = {}): Promise<Offered> {
  const headers = options.signed === false ? options.headers : { ...EXACT, ...options.headers };
  const offer = offered(await call(c, b, { ...options, ...(headers === undefined ? {} : { headers }) }));
  if (target.spend && !target.spend(offer.amount)) c.notRun(`paying ${offer.amount} would pass the run's --spend-cap`);
  return offer;
}

function purchases(c?: CheckContext): ReferencePurchases {
  return target.purchases ?? c?.notRun(CAPABILITY_REASONS['payment-faults']) ?? expect.fail('the target exposes no purchase machine');
}

function setSale(change: (sale: ReferencePurchases['saleOffer']) => Partial<ReferencePurchases['saleOffer']>): void {
  const p = purchases();
  p.saleOffer = { ...p.saleOffer, ...change(p.saleOffer) };
}

function setCaps(caps: Partial<SaleCaps>): void {
  setSale((sale) => ({ caps: { ...sale.caps, ...caps } }));
}

/** The card processor finishes the charge `paying` paid (in process, or through the test control). */
async function processorFinishes(
  c: CheckContext,
  paying: string,
  outcome: Extract<FakeChargeState, 'settled' | 'declined' | 'cancelled-unsettled'>,
): Promise<void> {
  await arrange(target, c, { state: TOKEN_STATES.chargeFinishes, token: paying, outcome }, (p) => p.processorFinishes(paying, outcome));
}

/** An unsigned request to a priced resource from the network address `address` (client-address control). */
async function callFrom(c: CheckContext, b: Buyer, address: string, headers: Readonly<Record<string, string>> = {}): Promise<PaidExchange> {
  need(c, 'client-address');
  const url = b.kit.url(REFERENCE_PRICED_PATH);
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
  if (response.status === NOT_FOUND) c.notRun(`the target serves no priced single-call resource at ${REFERENCE_PRICED_PATH}`);
  return { ...readPaidAnswer(response, naming), response, facts: exchangeFacts(target, b.sync(), url) };
}

/** A buyer whose case publishes a second agent beside it (the kit's bob, signing with key B). */
async function buyerWithPeer(c: CheckContext, name: string): Promise<Buyer> {
  const b = new Buyer(target, `single-call-${name}-${serial++}`, c.record);
  await target.prepare({
    id: b.caseId,
    description: b.caseId,
    now: b.now,
    platform: { authority: target.environment.authority },
    documents: { ...b.kit.docs(), ...b.kit.docs(b.kit.bob, [b.kit.B]) },
    steps: [],
  });
  return b;
}

/** A request to the priced resource signed as the kit's second agent (bob), covering every header it sends. */
async function callAsPeer(c: CheckContext, b: Buyer, headers: Readonly<Record<string, string>>): Promise<PaidExchange> {
  b.sync();
  const entries = Object.entries(headers);
  const signed = b.kit.request({
    url: b.kit.url(REFERENCE_PRICED_PATH),
    body: new Uint8Array(0),
    headers: entries,
    keySetUrl: b.kit.bob.keySetUrl,
    labels: [{ label: 'sig1', key: b.kit.B, covered: [...defaultCovered('sig1', false), ...entries.map(([n]) => `"${n.toLowerCase()}"`)] }],
  });
  const request = { method: signed.method, url: signed.url, headers: signed.headers, body: null };
  const response = await target.send(request);
  c.record({ request: recordRequest(request), response: recordResponse(response) });
  if (response.status === NOT_FOUND) c.notRun(`the target serves no priced single-call resource at ${REFERENCE_PRICED_PATH}`);
  return { ...readPaidAnswer(response, target.environment.naming), response, facts: exchangeFacts(target, b.now, signed.url) };
}

/**
 * A buyer on a platform that also takes its own bearer tokens (platform-config): `bearer(subject)` is the
 * Authorization header of a platform token naming that agent (5.3), a credential with no signing identity.
 */
async function bearerBuyer(c: CheckContext, name: string): Promise<{ b: Buyer; bearer: (subject: string) => Promise<Record<string, string>> }> {
  need(c, 'platform-config');
  const b = new Buyer(target, `single-call-${name}-${serial++}`, c.record);
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
}

const tempoPayment = stablecoinCredential;

/** A call bought by stablecoin: served, with a Payment-Receipt of method tempo whose reference is the transaction hash. */
function expectServedByTransfer(exchange: PaidExchange, serialized: Hex): void {
  expectServed(exchange);
  const receipt = decodeBase64urlJson(exchange.response.headers[HEADERS.paymentReceipt] ?? '');
  expect(receipt, 'the receipt').toMatchObject({ ok: true, value: { method: PAYMENT_METHODS.tempo, reference: keccak256(serialized) } });
}

/** Transfers the embedded reference's simulated network was given (in process only). */
const broadcasts = (): number => target.purchases?.stablecoin.network.broadcasts.length ?? 0;

/** Calls the resource ran (in process; live, what the answers say is all there is). */
const ran = (): number | undefined => target.purchases?.sale.server.ran.length;

function expectServed(exchange: PaidExchange): void {
  expectSucceeded(exchange, 'a bought call');
  expect(exchange.response.headers[HEADERS.paymentReceipt], 'a Payment-Receipt').toBeDefined();
  const terms = termsHeaderProblems(exchange.response, exchange.facts);
  if (terms.length) expect.fail(terms.join('\n'));
}

describe(`7.4 single-call sales at ${REFERENCE_PRICED_PATH} (${target.description})`, () => {
  describe('the 402 sized to the call', () => {
    check({
      id: 'single-call.unsigned-402',
      title: 'an unsigned caller gets a 402 (not a 401) with one challenge sized to the call',
      requirements: ids(M.unsignedSizedToCall, P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'unsigned');
        const answer = await call(c, b, { signed: false });
        expectPaidAnswer(answer, PAYMENT_PROBLEMS.paymentRequired);
        if (target.purchases) expect(offered(answer).amount, 'the challenge quotes the price of one call').toBe(Number(purchases().saleOffer.price.amount));
        // Service-Purchase is an agent's choice among its covered components: an unsigned caller asking for the pack is still sized to the call.
        const asksPack = await call(c, b, { signed: false, headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } });
        expectPaidAnswerOf('an unsigned caller sending Service-Purchase: pack', asksPack, PAYMENT_PROBLEMS.paymentRequired);
        expect(offered(asksPack).amount, 'an unsigned caller sending Service-Purchase: pack is quoted the call').toBe(offered(answer).amount);
      },
    });

    check({
      id: 'single-call.service-purchase',
      title: 'a signed agent sending Service-Purchase: exact (covered) is sized to the call; pack gets the pack',
      requirements: ids(M.unsignedSizedToCall, P.purchaseKindCovered),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'kinds');
        const exact = offered(await call(c, b, { headers: EXACT }));
        const pack = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } }));
        if (target.purchases) {
          expect(exact.amount).toBe(Number(purchases().saleOffer.price.amount));
          expect(pack.amount).toBe(Number(purchases().config.pack.price.amount));
          // Whatever the resource sells an agent naming no kind (READING-PURCHASE-KIND-DEFAULT), exact is the call.
          setSale(() => ({ defaultKind: PURCHASE_KINDS.pack }));
          expect(offered(await call(c, b, { headers: EXACT })).amount, 'Service-Purchase: exact where the resource defaults to the pack').toBe(
            Number(purchases().saleOffer.price.amount),
          );
          return;
        }
        // Live the prices are the deployment's: one call is what an unsigned caller is quoted there, the pack what
        // /api/mpp/credits quotes.
        const oneCall = offered(await call(c, b, { signed: false }));
        const packPrice = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
        if (oneCall.amount === packPrice.amount) c.notRun('the target prices a single call as it prices the pack, so the two offers cannot be told apart');
        expect(exact.amount, 'Service-Purchase: exact is quoted one call').toBe(oneCall.amount);
        expect(pack.amount, 'Service-Purchase: pack is quoted the pack').toBe(packPrice.amount);
      },
    });

    check({
      id: 'single-call.service-purchase-covered-only',
      title: 'a Service-Purchase the signature does not cover decides nothing: the agent is offered what it is offered without one',
      requirements: ids(P.purchaseKindCovered),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'kinds-uncovered');
        const without = offered(await call(c, b));
        const exact = offered(await call(c, b, { headers: EXACT }));
        const pack = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } }));
        if (exact.amount === pack.amount) c.notRun('the target prices a single call as it prices the pack, so the two offers cannot be told apart');
        for (const kind of [PURCHASE_KINDS.exact, PURCHASE_KINDS.pack]) {
          const uncovered = offered(await call(c, b, { headers: { [HEADERS.purchase]: kind }, cover: [] }));
          expect(uncovered.amount, `Service-Purchase: ${kind}, not covered, is offered what no Service-Purchase is offered`).toBe(without.amount);
        }
      },
    });

    check({
      id: 'single-call.metered-not-ready',
      title: 'single calls without an agent identity not sold: 503 metered_not_ready; a signed agent is still offered the call',
      requirements: ids(E.metered_not_ready, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'payment-faults');
        const b = await buyer(c, 'not-ready');
        const earlier = await payable(c, b, { signed: false });
        setSale(() => ({ anonymous: false }));
        expectPaidAnswer(await call(c, b, { signed: false }), E.metered_not_ready);
        // A challenge issued while such calls were sold buys none once they are not: nothing charged.
        const charged = purchases(c).processor.chargeCalls();
        expectPaidAnswerOf(
          'an unidentified call challenge presented once such calls are not sold',
          await call(c, b, { signed: false, headers: cardPayment(earlier.echo, token('settled'), earlier.version) }),
          E.metered_not_ready,
        );
        expect(purchases(c).processor.chargeCalls(), 'charges sent').toBe(charged);
        // "sign with an agent key": the same resource still sells the call to a signed agent.
        offered(await call(c, b, { headers: EXACT }));
      },
    });
    check({
      id: 'single-call.verifier-401',
      title: "a signed request to a priced resource that does not verify gets the verifier's 401, not a 402 sized to the call",
      requirements: ids(P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'bad-signature');
        // The resource must sell calls (not-run otherwise), or a 404 would prove nothing.
        await call(c, b, { signed: false });
        await target.ready?.(1);
        b.sync();
        const answer = await b.send(
          b.kit.request({
            url: b.kit.url(REFERENCE_PRICED_PATH),
            headers: [[HEADERS.purchase, PURCHASE_KINDS.exact]],
            labels: [{ label: 'sig1', key: b.kit.A, tamper: (s) => s.map((x, i) => (i === 0 ? x ^ 1 : x)) }],
          }),
        );
        const judged = judgeRefusal(answer.response, true, target.environment.naming);
        expect(answer.status, 'status').toBe(401);
        expect(judged.code, 'error_code').toBe(AUTH_CODES.signature_invalid);
        if (judged.problems.length) expect.fail(judged.problems.join('\n'));
        expect(answer.challengeCount, 'no Payment challenge on the 401').toBe(0);
      },
    });

    check({
      id: 'single-call.mpp-not-configured',
      title:
        'a signed agent whose Service-Payment-Methods names no method the resource sells calls by: 503 mpp_not_configured; asking for the pack, it is offered none but a method it names',
      requirements: ids(E.mpp_not_configured, M.methodsHint, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'no-method');
        const methods = (value: string) => ({ ...EXACT, [HEADERS.paymentMethods]: value });
        expectPaidAnswerOf('Service-Payment-Methods: no-such-method', await call(c, b, { headers: methods('no-such-method') }), E.mpp_not_configured);
        // The pack a priced resource offers an agent is judged like any offer: its method is one the agent names, or none is offered.
        const pack = await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack, [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo } });
        if (pack.status === 503) expectPaidAnswerOf('the pack asked for by stablecoin only', pack, E.mpp_not_configured);
        else expect(offered(pack).method, 'the method of the pack offered to an agent naming only tempo').toBe(PAYMENT_METHODS.tempo);
        if (!target.purchases) return;
        // In process: a deployment that sells by stablecoin, but prices no call in it (or sells no stablecoin at all), offers no call by it.
        const p = purchases(c);
        const stablecoin = p.config.stablecoin;
        setSale(() => ({ stablecoinAmount: undefined }));
        expectPaidAnswerOf('tempo only, no call priced in the stablecoin', await call(c, b, { headers: methods(PAYMENT_METHODS.tempo) }), E.mpp_not_configured);
        setSale(() => ({ stablecoinAmount: '250000' }));
        p.config = { ...p.config, stablecoin: undefined };
        try {
          expectPaidAnswerOf('tempo only, no stablecoin sold', await call(c, b, { headers: methods(PAYMENT_METHODS.tempo) }), E.mpp_not_configured);
        } finally {
          p.config = { ...p.config, stablecoin };
        }
      },
    });
  });

  describe('buying one call', () => {
    check({
      id: 'single-call.served-once',
      title:
        'an exact purchase is served once; the same credential again is 409 call_already_served, and its challenge paid with another card buys nothing (402 invalid-challenge or 409)',
      requirements: ids(E.call_already_served, P.termsOnFunded, P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'served');
        const offer = await payable(c, b, { signed: false });
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const served = await call(c, b, { signed: false, headers });
        expectServed(served);
        const server = target.purchases?.sale.server;
        // In process the resource is the test's own (it answers {"served": <calls run>}): what was served is its answer.
        if (server) expect(served.body, "the bought call is answered with the resource's own body").toEqual({ served: server.ran.length });
        expectPaidAnswer(await call(c, b, { signed: false, headers }), E.call_already_served);
        // Its challenge paid again with another card buys nothing more: the challenge is spent (a fresh one rides), or the call served.
        const charged = target.purchases?.processor.chargeCalls();
        const before = ran();
        const other = await call(c, b, { signed: false, headers: cardPayment(offer.echo, token('settled'), offer.version) });
        expectPaidAnswerOf(
          `the same challenge paid with another card (${READINGS.challengePaidAgain.id})`,
          other,
          other.status === 409 ? E.call_already_served : PAYMENT_PROBLEMS.invalidChallenge,
        );
        expect(ran(), 'calls run').toBe(before);
        if (target.purchases) expect(target.purchases.processor.chargeCalls(), 'charges sent').toBe(charged);
      },
    });

    check({
      id: 'single-call.declined-fresh-challenge',
      title:
        'a declined card for a call ends in a fresh challenge (402 verification-failed), presented again too; the fresh challenge buys the call, the decline counting on no daily limit',
      requirements: ids(P.declineFreshChallenge, E.metered_principal_cap),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'declined');
        // In process the agent may buy one call a day: a declined card bought nothing, so it takes none of it.
        if (target.purchases) setCaps({ principalPerDay: 1 });
        const offer = await payable(c, b);
        const declined = { ...EXACT, ...cardPayment(offer.echo, token('declined'), offer.version) };
        const refused = await call(c, b, { headers: declined });
        expectPaidAnswer(refused, PAYMENT_PROBLEMS.verificationFailed);
        // Section 3: the same credential resumes its charge, which still reports nothing captured: a fresh challenge again.
        const again = await call(c, b, { headers: declined });
        expectPaidAnswerOf('the declined credential presented again', again, PAYMENT_PROBLEMS.verificationFailed);
        const fresh = offered(refused);
        if (target.spend && !target.spend(fresh.amount)) c.notRun(`paying ${fresh.amount} would pass the run's --spend-cap`);
        expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(fresh.echo, token('settled'), fresh.version) } }));
      },
    });

    check({
      id: 'single-call.challenge-echo-and-buyer',
      title:
        'a call credential echoing an id never issued or a changed member: 402 invalid-challenge; one naming an agent, presented without its signature: 401 terms_acceptance_unauthenticated; nothing charged',
      requirements: ids(P.challengeShape, E.terms_acceptance_unauthenticated),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'echo-buyer');
        const charged = target.purchases?.processor.chargeCalls();
        const offer = await payable(c, b);
        const last = offer.echo.id.endsWith('A') ? 'B' : 'A';
        const forged: ReadonlyArray<readonly [string, ChallengeEcho]> = [
          ['an id never issued', { ...offer.echo, id: `${offer.echo.id.slice(0, -1)}${last}` }],
          ['the realm changed', { ...offer.echo, realm: `${offer.echo.realm}.example` }],
        ];
        for (const [what, echo] of forged)
          expectPaidAnswerOf(
            what,
            await call(c, b, { headers: { ...EXACT, ...cardPayment(echo, token('settled'), offer.version) } }),
            PAYMENT_PROBLEMS.invalidChallenge,
          );
        expectPaidAnswerOf(
          "the agent's call challenge presented unsigned",
          await call(c, b, { signed: false, headers: cardPayment(offer.echo, token('settled'), offer.version) }),
          E.terms_acceptance_unauthenticated,
        );
        if (target.purchases) expect(target.purchases.processor.chargeCalls(), 'charges sent').toBe(charged);
      },
    });

    check({
      id: 'single-call.terms-acceptance-required',
      title:
        'a call credential without Service-Terms-Accepted: 402 terms-acceptance-required, whose fresh challenge names a method the agent lists in Service-Payment-Methods and buys the call; nothing charged before',
      requirements: ids(E['terms-acceptance-required'], M.methodsHint, P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'terms');
        const byCard = { ...EXACT, [HEADERS.paymentMethods]: PAYMENT_METHODS.stripe };
        const charged = target.purchases?.processor.chargeCalls();
        const offer = await payable(c, b, { headers: byCard });
        const refused = await call(c, b, { headers: { ...byCard, ...cardPayment(offer.echo, token('settled'), null) } });
        expectPaidAnswer(refused, E['terms-acceptance-required']);
        const fresh = offered(refused);
        expect(fresh.method, 'the method of the fresh challenge, for an agent listing only card').toBe(PAYMENT_METHODS.stripe);
        if (target.purchases) expect(target.purchases.processor.chargeCalls(), 'charges sent').toBe(charged);
        // A stablecoin challenge's echo forged, presented by the agent now listing only card: the fresh challenge is a card one too.
        const tempoAnswer = await call(c, b, { headers: { ...EXACT, ...PREFER_TEMPO } });
        if (tempoAnswer.challenges[0]?.challenge.method === PAYMENT_METHODS.tempo) {
          const t = tempoOffer(tempoAnswer);
          const forged = { ...t, echo: { ...t.echo, id: `${t.echo.id.slice(0, -1)}${t.echo.id.endsWith('A') ? 'B' : 'A'}` } };
          const refusedForged = await call(c, b, { headers: { ...byCard, ...tempoPayment(forged, await signTransfer(t)) } });
          expectPaidAnswerOf('a forged stablecoin echo', refusedForged, PAYMENT_PROBLEMS.invalidChallenge);
          expect(offered(refusedForged).method, 'the method of the fresh challenge for a forged stablecoin echo, to an agent listing only card').toBe(
            PAYMENT_METHODS.stripe,
          );
        }
        if (target.spend && !target.spend(fresh.amount)) c.notRun(`paying ${fresh.amount} would pass the run's --spend-cap`);
        expectServed(await call(c, b, { headers: { ...byCard, ...cardPayment(fresh.echo, token('settled'), fresh.version) } }));
      },
    });

    check({
      id: 'single-call.pack-challenge-for-call',
      title: 'a pack challenge presented for a call: 403 challenge_kind_mismatch',
      requirements: ids(E.challenge_kind_mismatch),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'kind-pack');
        const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
        expectPaidAnswer(await call(c, b, { headers: cardPayment(pack.echo, token('settled'), pack.version) }), E.challenge_kind_mismatch);
      },
    });

    check({
      id: 'single-call.call-challenge-at-credits',
      title: 'a call challenge presented at /api/mpp/credits: 403 challenge_kind_mismatch',
      requirements: ids(E.challenge_kind_mismatch),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'kind-call');
        const offer = offered(await call(c, b, { headers: EXACT }));
        expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.challenge_kind_mismatch);
      },
    });

    check({
      id: 'single-call.challenge-origin-mismatch',
      title: 'a call challenge issued by another priced resource: 403 challenge_origin_mismatch',
      requirements: ids(E.challenge_origin_mismatch),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'origin');
        const elsewhere = offered(await call(c, b, { signed: false, path: REFERENCE_OTHER_PRICED_PATH }));
        // The resource it is presented at must itself sell calls (not-run otherwise), or a 404 would prove nothing.
        await call(c, b, { signed: false });
        expectPaidAnswer(
          await call(c, b, { signed: false, headers: cardPayment(elsewhere.echo, token('settled'), elsewhere.version) }),
          E.challenge_origin_mismatch,
        );
      },
    });

    check({
      id: 'single-call.pack-challenge-honoured-at-credits',
      title:
        'a pack challenge a priced resource issued is honoured at /api/mpp/credits; presented again at the resource, it buys no call (403 challenge_kind_mismatch or 409 purchase_already_granted)',
      requirements: ids(E.challenge_origin_mismatch, E.challenge_kind_mismatch, E.purchase_already_granted),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'pack-elsewhere');
        const pack = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } }));
        if (target.spend && !target.spend(pack.amount)) c.notRun(`paying ${pack.amount} would pass the run's --spend-cap`);
        const headers = cardPayment(pack.echo, token('settled'), pack.version);
        const paid = await b.post({ path: PLATFORM_ROUTES.mppCredits, headers });
        expectSucceeded(paid, `the pack bought at ${PLATFORM_ROUTES.mppCredits} with a challenge ${REFERENCE_PRICED_PATH} issued`);
        // The redeemed pack credential presented for a call at the resource that issued it buys no call: a pack challenge
        // for a call (403 challenge_kind_mismatch), or a pack credential presented again on a paid resource (409).
        const before = ran();
        const again = await call(c, b, { headers: { ...EXACT, ...headers } });
        expectPaidAnswerOf(
          `the redeemed pack credential presented at ${REFERENCE_PRICED_PATH}`,
          again,
          again.status === 409 ? E.purchase_already_granted : E.challenge_kind_mismatch,
        );
        expect(ran(), 'calls run').toBe(before);
      },
    });

    check({
      id: 'single-call.buyer-inactive',
      title: 'the challenge names an agent that is not active: 403 buyer_inactive',
      requirements: ids(E.buyer_inactive),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'inactive');
        const offer = await payable(c, b);
        await arrange(target, c, { state: AGENT_STATES.buyerInactive, agent: b.agentUrl }, (p) => p.sale.accounts.inactive.add(b.agentUrl));
        expectPaidAnswer(await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.buyer_inactive);
      },
    });

    check({
      id: 'single-call.metered-unavailable-for-card',
      title: 'per-call card terms changed after the challenge: 403 metered_unavailable_for_card, nothing charged',
      requirements: ids(E.metered_unavailable_for_card),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'card-closed');
        const offer = await payable(c, b);
        await arrange(target, c, { state: AGENT_STATES.callCardClosed, agent: b.agentUrl }, (p) => (p.saleOffer = { ...p.saleOffer, cardOpen: false }));
        expectPaidAnswer(await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.metered_unavailable_for_card);
        if (target.purchases) expect(target.purchases.processor.chargeCalls(), 'charges sent').toBe(0);
      },
    });

    check({
      id: 'single-call.metered-unavailable-card-country-or-price',
      title:
        'a card outside the per-call markets or of no known country, or a price, currency or cost on the balance changed after the challenge: 403 metered_unavailable_for_card (purchases_unavailable_region for the unknown country too); a card inside them is served',
      requirements: ids(E.metered_unavailable_for_card),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        // Registering the buyer may build the in-process reference anew: its purchase machine is read after.
        const b = await buyer(c, 'card-country');
        const p = purchases(c);
        const before = p.saleOffer;
        const charged = p.processor.chargeCalls();
        try {
          setSale(() => ({ cardCountries: ['DE', 'FR'] }));
          const [inside, outside, repriced] = [token('settled'), token('settled'), token('settled')];
          p.processor.countries.set(inside, 'FR').set(outside, 'GB').set(repriced, 'FR');
          const refused = await payable(c, b);
          expectPaidAnswerOf(
            'a card from GB',
            await call(c, b, { headers: cardPayment(refused.echo, outside, refused.version) }),
            E.metered_unavailable_for_card,
          );
          const served = await payable(c, b);
          expectServed(await call(c, b, { headers: cardPayment(served.echo, inside, served.version) }));

          const changes: ReadonlyArray<readonly [string, (sale: ReferencePurchases['saleOffer']) => Partial<ReferencePurchases['saleOffer']>]> = [
            ['the price', (sale) => ({ price: { ...sale.price, amount: String(Number(sale.price.amount) + 1) } })],
            ['the currency', (sale) => ({ price: { ...sale.price, currency: 'eur' } })],
            ["the call's cost on the balance", (sale) => ({ priceNano: String(BigInt(sale.priceNano) + 1n) })],
          ];
          for (const [what, change] of changes) {
            const quoted = await payable(c, b);
            const priced = p.saleOffer;
            setSale(change);
            try {
              expectPaidAnswerOf(
                `${what} changed after the challenge`,
                await call(c, b, { headers: cardPayment(quoted.echo, repriced, quoted.version) }),
                E.metered_unavailable_for_card,
              );
            } finally {
              p.saleOffer = priced;
            }
          }
          // "its country cannot be established": closed for the instrument's market (purchases_unavailable_region), or
          // the per-call card offer cannot be paid (metered_unavailable_for_card).
          const unplaced = token('settled');
          p.processor.countries.set(unplaced, undefined);
          const unknown = await payable(c, b);
          const refusedUnplaced = await call(c, b, { headers: cardPayment(unknown.echo, unplaced, unknown.version) });
          expectPaidAnswerOf(
            'a card whose country cannot be established',
            refusedUnplaced,
            refusedUnplaced.refusal === E.purchases_unavailable_region.code ? E.purchases_unavailable_region : E.metered_unavailable_for_card,
          );
          expect(p.processor.chargeCalls() - charged, 'charged once, for the card inside the markets').toBe(1);
        } finally {
          p.saleOffer = before;
        }
      },
    });
  });

  describe('buying one call by stablecoin', () => {
    /** A stablecoin call challenge for a signed agent preferring tempo (Service-Purchase: exact). */
    const tempoCall = async (c: CheckContext, b: Buyer): Promise<TempoOffer> => tempoOffer(await call(c, b, { headers: { ...EXACT, ...PREFER_TEMPO } }));
    /** The problem of a fresh challenge for a transaction that pays nothing: either of the Payment scheme's (READING-NON-MATCHING-TRANSACTION). */
    const freshProblem = (answer: PaidExchange) => (answer.refusal === E['invalid-payload'].code ? E['invalid-payload'] : PAYMENT_PROBLEMS.verificationFailed);

    check({
      id: 'single-call.stablecoin-fresh-challenge',
      title:
        "a stablecoin call challenge: the agent's, presented without its signature, is 401 terms_acceptance_unauthenticated; a transaction one base unit short gets a fresh stablecoin challenge, still the agent's, that buys the call; an unsigned buyer's too",
      requirements: ids(M.stablecoinNonMatching, E.terms_acceptance_unauthenticated, M.stablecoinTransaction),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'tempo-fresh');
        const o = await tempoCall(c, b);
        const unsigned = await call(c, b, { signed: false, headers: tempoPayment(o, await signTransfer(o)) });
        expectPaidAnswerOf("the agent's stablecoin call challenge presented unsigned", unsigned, E.terms_acceptance_unauthenticated);
        // The retry names no methods: the fresh challenge is a stablecoin one all the same (READING-NON-MATCHING-TRANSACTION).
        const short = await call(c, b, { headers: { ...EXACT, ...tempoPayment(o, await signTransfer(o, { amount: BigInt(o.quote.amount) - 1n })) } });
        expectPaidAnswerOf(`a transaction one base unit short (${READINGS.nonMatchingTransaction.id})`, short, freshProblem(short));
        const fresh = tempoOffer(short, 'the fresh challenge');
        expect(broadcasts(), 'broadcasts').toBe(0);
        expectPaidAnswerOf(
          'the fresh challenge presented unsigned',
          await call(c, b, { signed: false, headers: tempoPayment(fresh, await signTransfer(fresh)) }),
          E.terms_acceptance_unauthenticated,
        );
        const paid = await signTransfer(fresh);
        expectServedByTransfer(await call(c, b, { headers: { ...EXACT, ...tempoPayment(fresh, paid) } }), paid);
        // Its challenge paid again with another transaction buys nothing more: the challenge is spent (a fresh one rides), or the call served.
        const before = ran();
        const again = await call(c, b, { headers: { ...EXACT, ...tempoPayment(fresh, await signTransfer(fresh)) } });
        expectPaidAnswerOf(
          `the same challenge paid with another transaction (${READINGS.challengePaidAgain.id})`,
          again,
          again.status === 409 ? E.call_already_served : PAYMENT_PROBLEMS.invalidChallenge,
        );
        expect(ran(), 'calls run').toBe(before);
        expect(broadcasts(), 'broadcasts').toBe(1);

        const theirs = tempoOffer(await call(c, b, { signed: false, headers: PREFER_TEMPO }), "an unsigned buyer's challenge");
        const unpaid = await call(c, b, {
          signed: false,
          headers: tempoPayment(theirs, await signTransfer(theirs, { amount: BigInt(theirs.quote.amount) - 1n })),
        });
        expectPaidAnswerOf('an unsigned transaction one base unit short', unpaid, freshProblem(unpaid));
        tempoOffer(unpaid, "the unsigned buyer's fresh challenge");
        expect(broadcasts(), 'broadcasts').toBe(1);
      },
    });

    check({
      id: 'single-call.stablecoin-terms-changed',
      title:
        "per-call terms changed after a stablecoin call challenge (the token it is priced in, the call's cost on the balance): 403 metered_unavailable_for_stablecoin, nothing broadcast",
      requirements: ids(E.metered_unavailable_for_stablecoin, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'tempo-terms');
        const p = purchases(c);
        const [config, saleOffer] = [p.config, p.saleOffer];
        const changes: ReadonlyArray<readonly [string, () => void]> = [
          ['the token', () => (p.config = { ...config, stablecoin: { ...config.stablecoin!, token: '0x20c00000000000000000000000000000000000ff' } })],
          ["the call's cost on the balance", () => setSale((sale) => ({ priceNano: String(BigInt(sale.priceNano) + 1n) }))],
        ];
        for (const [what, change] of changes) {
          const o = await tempoCall(c, b);
          const payment = tempoPayment(o, await signTransfer(o));
          change();
          try {
            expectPaidAnswerOf(
              `${what} changed`,
              await call(c, b, { headers: { ...EXACT, ...PREFER_TEMPO, ...payment } }),
              E.metered_unavailable_for_stablecoin,
            );
          } finally {
            p.config = config;
            p.saleOffer = saleOffer;
          }
        }
        expect(broadcasts(), 'broadcasts').toBe(0);
      },
    });

    check({
      id: 'single-call.stablecoin-settles-later',
      title:
        'a stablecoin call whose transfer is pending (503 tempo_settlement_pending), or whose network is unreachable (503 tempo_unavailable), is served once by the same credential (on a request not signed by the agent, 401 terms_acceptance_unauthenticated); one the network reports failed gets a fresh challenge and takes no daily purchase',
      requirements: ids(
        E.tempo_settlement_pending,
        E.tempo_unavailable,
        P.resumeSameCredential,
        E.terms_acceptance_unauthenticated,
        M.stablecoinNonMatching,
        E.metered_principal_cap,
      ),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'tempo-later');
        const network = purchases(c).stablecoin.network;
        const faults: ReadonlyArray<readonly [string, () => void, PurchaseErrorRecord]> = [
          ['pending', () => (network.pendingReads = 1), E.tempo_settlement_pending],
          [
            'unreachable',
            () => {
              network.pendingReads = 0;
              network.unreachableBroadcasts = 1;
            },
            E.tempo_unavailable,
          ],
        ];
        for (const [what, fault, record] of faults) {
          const o = await tempoCall(c, b);
          const serialized = await signTransfer(o);
          const headers = { ...EXACT, ...tempoPayment(o, serialized) };
          fault();
          const before = ran();
          expectPaidAnswerOf(`the transfer ${what}`, await call(c, b, { headers }), record);
          expectPaidAnswerOf(
            `the transfer ${what}, the credential presented unsigned`,
            await call(c, b, { signed: false, headers: tempoPayment(o, serialized) }),
            E.terms_acceptance_unauthenticated,
          );
          expect(ran(), 'calls run').toBe(before);
          expectServedByTransfer(await call(c, b, { headers }), serialized);
          expect(ran(), 'calls run').toBe((before ?? 0) + 1);
          expectPaidAnswerOf(`the transfer ${what}, once served`, await call(c, b, { headers }), E.call_already_served);
        }
        // Two calls bought today; a third may be, and the failed transfer between bought nothing.
        setCaps({ principalPerDay: 3 });
        network.finalOutcome = 'failed';
        const o = await tempoCall(c, b);
        const failed = await call(c, b, { headers: { ...EXACT, ...tempoPayment(o, await signTransfer(o)) } });
        expectPaidAnswerOf('a transfer the network reports failed', failed, freshProblem(failed));
        const fresh = tempoOffer(failed, 'the fresh challenge');
        network.finalOutcome = 'settled';
        const paid = await signTransfer(fresh);
        expectServedByTransfer(await call(c, b, { headers: { ...EXACT, ...tempoPayment(fresh, paid) } }), paid);
      },
    });

    check({
      id: 'single-call.stablecoin-wallet-cap',
      title:
        "a stablecoin call over the wallet's daily limit: 429 wallet_daily_cap with Retry-After, nothing broadcast, and the refused purchase takes none of the agent's daily calls",
      requirements: ids(E.wallet_daily_cap, E.metered_principal_cap, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'tempo-wallet-cap');
        const p = purchases(c);
        setCaps({ principalPerDay: 2 });
        const amount = BigInt(p.saleOffer.stablecoinAmount ?? '0');
        p.config = { ...p.config, stablecoin: { ...p.config.stablecoin!, walletDailyCap: String(2n * amount - 1n) } };
        const first = await tempoCall(c, b);
        const serialized = await signTransfer(first);
        expectServedByTransfer(await call(c, b, { headers: { ...EXACT, ...tempoPayment(first, serialized) } }), serialized);
        const second = await tempoCall(c, b);
        const capped = await call(c, b, { headers: { ...EXACT, ...tempoPayment(second, await signTransfer(second)) } });
        expectPaidAnswer(capped, E.wallet_daily_cap);
        const retryAfter = dailyCapRetryAfterProblems(capped.response);
        if (retryAfter.length) expect.fail(retryAfter.join('\n'));
        expect(broadcasts(), 'only the first transfer was broadcast').toBe(1);
        const byCard = await payable(c, b);
        expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(byCard.echo, token('settled'), byCard.version) } }));
      },
    });
  });

  describe('a charge not yet settled', () => {
    check({
      id: 'single-call.charge-processing',
      title:
        "a call's card charge still processing: 503 charge_processing, again while it is; once settled, the same credential on a request not signed by the agent is 401 terms_acceptance_unauthenticated, and signed it serves the call once",
      requirements: ids(E.charge_processing, E.terms_acceptance_unauthenticated, P.resumeSameCredential, E.call_already_served),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'processing');
        const offer = await payable(c, b);
        const paying = token('processing');
        const headers = { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) };
        expectPaidAnswerOf('the first presentation', await call(c, b, { headers }), E.charge_processing);
        expectPaidAnswerOf('the same credential while the charge still processes', await call(c, b, { headers }), E.charge_processing);
        expect(ran(), 'calls run while the charge processes').toBe(target.purchases ? 0 : undefined);
        await processorFinishes(c, paying, 'settled');
        expectPaidAnswerOf(
          "the agent's settled credential presented unsigned",
          await call(c, b, { signed: false, headers: cardPayment(offer.echo, paying, offer.version) }),
          E.terms_acceptance_unauthenticated,
        );
        expect(ran(), 'calls run for the unsigned presentation').toBe(target.purchases ? 0 : undefined);
        expectServed(await call(c, b, { headers }));
        expect(ran(), 'calls run').toBe(target.purchases ? 1 : undefined);
        expectPaidAnswerOf('the same credential once served', await call(c, b, { headers }), E.call_already_served);
      },
    });

    check({
      id: 'single-call.resumed-not-asked-again',
      title:
        "a call's card charge processing, then per-call card terms, the price and the terms version changed: once settled, the same credential resumes it and serves the call (earlier checks are not asked again)",
      requirements: ids(P.resumeSameCredential, E.charge_processing),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'resumed-unchanged');
        const offer = await payable(c, b);
        const paying = token('processing');
        const headers = { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) };
        expectPaidAnswer(await call(c, b, { headers }), E.charge_processing);
        const p = purchases(c);
        setSale((sale) => ({ cardOpen: false, price: { ...sale.price, amount: String(Number(sale.price.amount) + 1) } }));
        p.config = { ...p.config, terms: { ...p.config.terms, version: `${offer.version}-next` } };
        await processorFinishes(c, paying, 'settled');
        expectServed(await call(c, b, { headers }));
        expect(p.sale.server.ran, 'the call ran once').toHaveLength(1);
      },
    });

    check({
      id: 'single-call.charge-outcome-unknown',
      title:
        "a call's card charge whose outcome the processor does not tell: 503 charge_outcome_unknown; once settled, the same credential serves the call once",
      requirements: ids(E.charge_outcome_unknown, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'outcome-unknown');
        const offer = await payable(c, b);
        const paying = token('unknown');
        const headers = { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) };
        expectPaidAnswer(await call(c, b, { headers }), E.charge_outcome_unknown);
        expect(ran(), 'calls run').toBe(target.purchases ? 0 : undefined);
        await processorFinishes(c, paying, 'settled');
        expectServed(await call(c, b, { headers }));
        expect(ran(), 'calls run').toBe(target.purchases ? 1 : undefined);
      },
    });

    check({
      id: 'single-call.resumed-elsewhere',
      title:
        'a call credential whose charge was sent at the resource that issued the challenge, presented at another priced resource once settled: 403 challenge_origin_mismatch; where issued it serves the call',
      requirements: ids(E.challenge_origin_mismatch, M.unsignedSizedToCall, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'resumed-elsewhere');
        const elsewhere = offered(await call(c, b, { signed: false, path: REFERENCE_OTHER_PRICED_PATH }));
        if (target.spend && !target.spend(elsewhere.amount)) c.notRun(`paying ${elsewhere.amount} would pass the run's --spend-cap`);
        const paying = token('processing');
        const headers = cardPayment(elsewhere.echo, paying, elsewhere.version);
        expectPaidAnswer(await call(c, b, { signed: false, path: REFERENCE_OTHER_PRICED_PATH, headers }), E.charge_processing);
        await processorFinishes(c, paying, 'settled');
        expectPaidAnswerOf(`presented at ${REFERENCE_PRICED_PATH}`, await call(c, b, { signed: false, headers }), E.challenge_origin_mismatch);
        expect(ran(), 'calls run').toBe(target.purchases ? 0 : undefined);
        expectServed(await call(c, b, { signed: false, path: REFERENCE_OTHER_PRICED_PATH, headers }));
      },
    });
  });

  describe('daily caps (429 with Retry-After)', () => {
    const caps: ReadonlyArray<{ record: PurchaseErrorRecord; describe: string; signed: boolean; caps: Partial<SaleCaps> }> = [
      { record: E.metered_ip_cap, describe: 'unidentified purchases from one address', signed: false, caps: { ipPerDay: 1 } },
      { record: E.metered_principal_cap, describe: "an agent's exact top-ups", signed: true, caps: { principalPerDay: 1 } },
      { record: E.metered_instrument_cap, describe: 'single-call purchases with one card', signed: true, caps: { instrumentPerDay: 1 } },
      { record: E.metered_platform_ceiling, describe: 'single-call purchases on the whole platform', signed: true, caps: { platformPerDay: 1 } },
    ];
    for (const cap of caps) {
      check({
        id: `single-call.${cap.record.code.replaceAll('_', '-')}`,
        title: `${cap.describe} over the daily limit: ${cap.record.status} ${cap.record.code}`,
        requirements: ids(cap.record, P.noChallengeOnCodes),
        level: 'MUST',
        run: async (c) => {
          need(c, 'spend', 'payment-faults');
          const b = await buyer(c, cap.record.code);
          setCaps(cap.caps);
          // One card behind both tokens, so the card's own cap counts both purchases.
          const [first, second] = [token('settled'), token('settled')];
          purchases().sale.cards.cards.set(first, 'card:suite').set(second, 'card:suite');
          const one = await payable(c, b, { signed: cap.signed });
          expectServed(await call(c, b, { signed: cap.signed, headers: cardPayment(one.echo, first, one.version) }));
          const two = await payable(c, b, { signed: cap.signed });
          const capped = await call(c, b, { signed: cap.signed, headers: cardPayment(two.echo, second, two.version) });
          expectPaidAnswer(capped, cap.record);
          const retryAfter = dailyCapRetryAfterProblems(capped.response);
          if (retryAfter.length) expect.fail(retryAfter.join('\n'));
        },
      });
    }

    check({
      id: 'single-call.principal-cap-bearer',
      title:
        "an agent buying with the platform's bearer token is held to its own daily exact top-ups (429 metered_principal_cap), and another agent so buying is not",
      requirements: ids(E.metered_principal_cap, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const { b, bearer } = await bearerBuyer(c, 'bearer-cap');
        setCaps({ principalPerDay: 1 });
        const buys = async (subject: string) => {
          // A bearer request's header fields are all the agent's own: it names the call it buys.
          const offer = await payable(c, b, { signed: false, headers: { ...EXACT, ...(await bearer(subject)) } });
          return call(c, b, { signed: false, headers: { ...EXACT, ...(await bearer(subject)), ...cardPayment(offer.echo, token('settled'), offer.version) } });
        };
        const [one, other] = [`${b.agentUrl}-one`, `${b.agentUrl}-other`];
        expectServed(await buys(one));
        const capped = await buys(one);
        expectPaidAnswerOf('the same agent, a second call the same day', capped, E.metered_principal_cap);
        const retryAfter = dailyCapRetryAfterProblems(capped.response);
        if (retryAfter.length) expect.fail(retryAfter.join('\n'));
        expectServed(await buys(other));
      },
    });

    check({
      id: 'single-call.caps-count-their-own',
      title:
        'each daily limit counts its own buyer: with one purchase a day per agent, card and address, another agent with another card, and another address, are still sold a call',
      requirements: ids(E.metered_principal_cap, E.metered_instrument_cap, E.metered_ip_cap),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults', 'client-address');
        const b = await buyerWithPeer(c, 'own-caps');
        setCaps({ principalPerDay: 1, instrumentPerDay: 1, ipPerDay: 1 });
        const one = await payable(c, b);
        expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(one.echo, token('settled'), one.version) } }));
        const other = offered(await callAsPeer(c, b, EXACT));
        expectSucceeded(
          await callAsPeer(c, b, { ...EXACT, ...cardPayment(other.echo, token('settled'), other.version) }),
          'the call bought by another agent, with another card',
        );
        for (const address of ['198.51.100.7', '198.51.100.8']) {
          const offer = offered(await callFrom(c, b, address));
          expectSucceeded(
            await callFrom(c, b, address, cardPayment(offer.echo, token('settled'), offer.version)),
            `the unidentified call bought from ${address}`,
          );
        }
      },
    });
  });

  describe('what is served', () => {
    check({
      id: 'single-call.the-call-bought',
      title:
        "the call bought, or paid from a balance, is the request the buyer sent (its body reaches the resource); a balance spent by the call covers no further one (402, not 503 funding_unavailable); a resource's 300 is answered without Payment-Receipt",
      requirements: ids(M.unsignedSizedToCall, E.funding_unavailable, P.receiptOnSuccessOnly, P.termsOnFunded),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'the-call');
        const p = purchases(c);
        const server = p.sale.server;
        const sent = (q: number) => new TextEncoder().encode(JSON.stringify({ q }));
        /** The call signed as the agent with a body (covered by Content-Digest). */
        const withBody = async (body: Uint8Array, headers: Record<string, string>) => {
          b.sync();
          const entries = Object.entries(headers);
          const built = b.kit.request({
            url: b.kit.url(REFERENCE_PRICED_PATH),
            body,
            headers: entries,
            labels: [{ label: 'sig1', key: b.kit.A, covered: [...defaultCovered('sig1', true), ...entries.map(([n]) => `"${n.toLowerCase()}"`)] }],
          });
          return b.send(built);
        };
        const offer = await payable(c, b);
        expectServed(await withBody(sent(1), { ...EXACT, ...cardPayment(offer.echo, token('settled'), offer.version) }));
        expect(server.ran.at(-1)?.body, 'the body the bought call ran with').toEqual(sent(1));

        // A pack's balance covering exactly one call pays for it, with the request's body, and is then spent.
        const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
        expectSucceeded(await b.post({ path: PLATFORM_ROUTES.mppCredits, headers: cardPayment(pack.echo, token('settled'), pack.version) }), 'the pack');
        setSale(() => ({ priceNano: p.config.pack.creditNano }));
        const fromBalance = await withBody(sent(2), EXACT);
        expectSucceeded(fromBalance, 'the call paid from the balance');
        expect(server.ran.at(-1)?.body, 'the body the call paid from the balance ran with').toEqual(sent(2));
        const spent = await call(c, b, { headers: EXACT });
        expectPaidAnswerOf('a call once the balance was spent', spent, PAYMENT_PROBLEMS.paymentRequired);

        // The resource answers 300: not a success, so no Payment-Receipt, and the terms headers of a funded call.
        const serve = server.serve.bind(server);
        server.serve = async (call) => {
          const result = await serve(call);
          return result.outcome === 'served' ? { ...result, response: { ...result.response, status: 300 } } : result;
        };
        try {
          const bought = await payable(c, b);
          const multiple = await call(c, b, { headers: { ...EXACT, ...cardPayment(bought.echo, token('settled'), bought.version) } });
          expect(multiple.status, "the resource's own status").toBe(300);
          expect(multiple.response.headers[HEADERS.paymentReceipt], 'no Payment-Receipt on a 300').toBeUndefined();
          const terms = termsHeaderProblems(multiple.response, multiple.facts);
          if (terms.length) expect.fail(`the funded call's 300: ${terms.join('\n')}`);
        } finally {
          server.serve = serve;
        }
      },
    });
  });

  describe('after the payment settled', () => {
    check({
      id: 'single-call.sale-serve-pending',
      title: 'the call did not start: 503 sale_serve_pending; the same credential serves it once',
      requirements: ids(E.sale_serve_pending, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'serve-pending');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        purchases().sale.server.enqueue('not-started');
        expectPaidAnswer(await call(c, b, { headers }), E.sale_serve_pending);
        expectServed(await call(c, b, { headers }));
        expect(purchases().sale.server.ran, 'the call ran once').toHaveLength(1);
        expectPaidAnswer(await call(c, b, { headers }), E.call_already_served);
      },
    });

    check({
      id: 'single-call.call-in-progress',
      title: 'the same credential presented while its call is being served: 409 call_in_progress; the call runs once',
      requirements: ids(E.call_in_progress),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'in-progress');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const server = purchases().sale.server;
        let during: PaidExchange | undefined;
        server.during = async () => {
          server.during = undefined;
          during = await call(c, b, { headers });
        };
        expectServed(await call(c, b, { headers }));
        if (during === undefined) return expect.fail('the call was never served, so nothing was presented during it');
        expectPaidAnswer(during, E.call_in_progress);
        expect(server.ran, 'the call ran once').toHaveLength(1);
      },
    });

    check({
      id: 'single-call.claimed-once',
      title:
        'the same credential presented again just before its first presentation claims the call, or just before it is funded: the call runs once, and the presentation that lost answers 409 call_in_progress or call_already_served',
      requirements: ids(E.call_in_progress, E.call_already_served),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'claimed-once');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const sales = purchases(c).sale.sales;
        const move = sales.move.bind(sales);
        let other: PaidExchange | undefined;
        // The first presentation, funded, is about to claim the call: the second presentation comes in right then.
        // The sale store's port may answer later (SaleStore.move is Awaitable); the in-memory one's own type says now.
        sales.move = ((...args: Parameters<typeof move>) => {
          if (args[2] !== 'serving' || other !== undefined) return move(...args);
          sales.move = move;
          return call(c, b, { headers }).then((answer) => {
            other = answer;
            return move(...args);
          });
        }) as unknown as typeof move;
        let first: PaidExchange;
        try {
          first = await call(c, b, { headers });
        } finally {
          sales.move = move;
        }
        if (other === undefined) return expect.fail('the call was never claimed, so no presentation came in before it');
        const [won, lost] = first.status === 409 ? [other, first] : [first, other];
        expectServed(won);
        expectPaidAnswerOf('the presentation that lost the claim', lost, lost.refusal === E.call_in_progress.code ? E.call_in_progress : E.call_already_served);
        expect(purchases(c).sale.server.ran, 'the call ran once').toHaveLength(1);

        // Again, the second presentation coming in just before the first is funded: it funds and serves the call, and
        // the first, its hold spent, answers from the state it finds (never funding_failed: the call was funded).
        const next = await payable(c, b);
        const paying = cardPayment(next.echo, token('settled'), next.version);
        const funding = purchases(c).sale.ports.funding as MemoryFunding;
        const hold = funding.hold.bind(funding);
        let meanwhile: PaidExchange | undefined;
        let entered = false;
        funding.hold = ((...args: Parameters<typeof hold>) => {
          if (entered) return hold(...args);
          entered = true;
          return call(c, b, { headers: paying }).then((answer) => {
            meanwhile = answer;
            return hold(...args);
          });
        }) as unknown as typeof hold;
        let earlier: PaidExchange;
        try {
          earlier = await call(c, b, { headers: paying });
        } finally {
          funding.hold = hold;
        }
        if (meanwhile === undefined) return expect.fail('the call was never funded, so no presentation came in before it');
        expectServed(meanwhile);
        expectPaidAnswerOf(
          'the presentation funded after the call was served',
          earlier,
          earlier.refusal === E.call_in_progress.code ? E.call_in_progress : E.call_already_served,
        );
        expect(purchases(c).sale.server.ran, 'each call ran once').toHaveLength(2);
      },
    });

    check({
      id: 'single-call.grant-failed',
      title:
        'the payment settled but the credit could not be recorded: 503 grant_failed; the same credential credits once and serves, and once served is 409 call_already_served',
      requirements: ids(E.grant_failed, P.resumeSameCredential, E.call_already_served),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'grant-failed');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        purchases().store.failGrants = 1;
        expectPaidAnswer(await call(c, b, { headers }), E.grant_failed);
        expect(purchases().sale.server.ran, 'the call did not run').toHaveLength(0);
        expectServed(await call(c, b, { headers }));
        expect(purchases().processor.chargeCalls(), 'charged once').toBe(1);
        // Served and credited, the credential again is 409 call_already_served, even while credits cannot be recorded (nothing is left to credit).
        purchases().store.failGrants = 1;
        try {
          expectPaidAnswerOf('the served credential again while credits cannot be recorded', await call(c, b, { headers }), E.call_already_served);
        } finally {
          purchases().store.failGrants = 0;
        }
      },
    });

    check({
      id: 'single-call.call-refunded',
      title: 'the call failed and was refunded: the same credential again is 409 call_refunded',
      requirements: ids(E.call_refunded),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'refunded');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        purchases().sale.server.enqueue('throw');
        expectPaidAnswer(await call(c, b, { headers }), E.call_refunded);
        expectPaidAnswer(await call(c, b, { headers }), E.call_refunded);
      },
    });

    check({
      id: 'single-call.failed-call-no-receipt',
      title:
        'the call ran and failed: its error answer carries the terms headers and no Payment-Receipt; the charge is refunded, the same credential again is 409 call_refunded, and the next call is offered a purchase',
      requirements: ids(P.receiptOnSuccessOnly, P.termsOnFunded, E.call_refunded),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'failed-call');
        const p = purchases(c);
        const offer = await payable(c, b);
        const paidWith = token('settled');
        const headers = cardPayment(offer.echo, paidWith, offer.version);
        p.sale.server.enqueue('failed');
        const failed = await call(c, b, { headers });
        // The spec gives no status for a call that ran and failed; the resource's own error answer or 409 call_refunded both fit.
        expect(failed.status >= 200 && failed.status < 300, `a call that failed is not answered as a success (got ${failed.status})`).toBe(false);
        expect(failed.response.headers[HEADERS.paymentReceipt], `no Payment-Receipt on the ${failed.status} of a call that failed`).toBeUndefined();
        const terms = termsHeaderProblems(failed.response, failed.facts);
        if (terms.length) expect.fail(`the funded call's ${failed.status}: ${terms.join('\n')}`);
        expectPaidAnswer(await call(c, b, { headers }), E.call_refunded);
        const charge = p.processor.chargeIdOf(paidWith);
        expect(
          charge === undefined ? [] : p.processor.refunds,
          `the card charge ${charge ?? '(none)'} is refunded (409 call_refunded: "refunded, not served")`,
        ).toContain(charge);
        // Refunded, the purchase leaves nothing to pay a call with: the next call is offered a purchase (402), not served, nor
        // 503 funding_unavailable (which says the balance covers the call).
        expectPaidAnswerOf('a call after the refund', await call(c, b, { headers: EXACT }), PAYMENT_PROBLEMS.paymentRequired);
      },
    });

    check({
      id: 'single-call.funding-failed',
      title: 'credited but the call could not be funded: 503 funding_failed with the purchase block',
      requirements: ids(E.funding_failed),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'funding-failed');
        const offer = await payable(c, b);
        await arrange(target, c, { state: AGENT_STATES.fundingFails, agent: b.agentUrl }, (p) => ((p.sale.ports.funding as MemoryFunding).failHold = true));
        const answer = await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) });
        expectPaidAnswer(answer, E.funding_failed);
        expect(answer.body?.[PURCHASE_BODY_MEMBERS.purchase], 'the purchase block').toBeDefined();
      },
    });

    check({
      id: 'single-call.balance-after-funding-failed',
      title:
        'credited but unfunded (503 funding_failed): the credential again is 409 purchase_already_granted, and the request without a credential is paid from the balance; a call meanwhile, while that one holds the balance, is 503 funding_unavailable',
      requirements: ids(E.funding_failed, E.funding_unavailable, E.purchase_already_granted, P.termsOnFunded),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'unfunded-then-balance');
        const p = purchases(c);
        const offer = await payable(c, b);
        const funding = p.sale.ports.funding as MemoryFunding;
        const paidWith = token('settled');
        funding.failHold = true;
        try {
          expectPaidAnswer(await call(c, b, { headers: cardPayment(offer.echo, paidWith, offer.version) }), E.funding_failed);
        } finally {
          funding.failHold = false;
        }
        // Section 3: the credential presented again once its usage is credited is 409 purchase_already_granted, and takes nothing of the balance.
        expectPaidAnswerOf(
          'the credential presented again',
          await call(c, b, { headers: cardPayment(offer.echo, paidWith, offer.version) }),
          E.purchase_already_granted,
        );
        const server = p.sale.server;
        const ran = server.ran.length;
        let meanwhile: PaidExchange | undefined;
        server.during = async () => {
          server.during = undefined;
          meanwhile = await call(c, b);
        };
        let served: PaidExchange;
        try {
          served = await call(c, b);
        } finally {
          server.during = undefined;
        }
        expectSucceeded(served, 'the call paid from the balance the purchase credited');
        const terms = termsHeaderProblems(served.response, served.facts);
        if (terms.length) expect.fail(`the call paid from the balance: ${terms.join('\n')}`);
        if (meanwhile === undefined) return expect.fail('the call was never run, so no second call could be made while it held the balance');
        expectPaidAnswerOf('a second call while the first holds the whole balance', meanwhile, E.funding_unavailable);
        expect(server.ran.length - ran, 'calls run: the one paid from the balance').toBe(1);
      },
    });

    check({
      id: 'single-call.funding-unavailable',
      title: 'a balance (bought at /api/mpp/credits) covering the call whose funding step fails: 503 funding_unavailable, nothing charged',
      requirements: ids(E.funding_unavailable),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'funding-unavailable');
        const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
        if (target.spend && !target.spend(pack.amount)) c.notRun(`paying ${pack.amount} would pass the run's --spend-cap`);
        expectSucceeded(await b.post({ path: PLATFORM_ROUTES.mppCredits, headers: cardPayment(pack.echo, token('settled'), pack.version) }), 'the pack');
        const charged = target.purchases?.processor.chargeCalls();
        await arrange(target, c, { state: AGENT_STATES.fundingFails, agent: b.agentUrl }, (p) => ((p.sale.ports.funding as MemoryFunding).failHold = true));
        expectPaidAnswer(await call(c, b), E.funding_unavailable);
        if (target.purchases) expect(target.purchases.processor.chargeCalls(), 'charges sent for the call').toBe(charged);
      },
    });
  });
});
