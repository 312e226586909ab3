import { afterAll, describe, expect } from 'vitest';
import { Hash } from 'ox';
import type { Hex } from '../src/purchase/machine/tempo/index.js';
import { dailyCapRetryAfterProblems } from '../src/harness/judge-purchase.js';
import type { Capability } from '../src/harness/target.js';
import { AGENT_STATES } from '../src/contract/test-control.js';
import { decodeBase64urlJson, expiresAtSeconds } from '../src/purchase/index.js';
import { HEADERS } from '../src/spec/headers.js';
import { LIMITS } from '../src/spec/limits.js';
import { CHALLENGE_EXPIRY_TOLERANCE_S, READINGS } from '../src/spec/readings.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS, TEMPO_PAYLOAD_MEMBERS, TEMPO_PAYLOAD_TYPES, TEMPO_TRANSACTION_TYPE } from '../src/spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { arrange, Buyer, expectPaidAnswer, expectPaidAnswerOf, needCapabilities, type PaidExchange, type PaidRequestOptions } from './lib/buyer.js';
import { check, type CheckContext } from './lib/check.js';
import { PREFER_TEMPO, signTransfer, stablecoinCredential, tempoOffer, transactionPayload, type TempoOffer, type TransferShape } from './lib/stablecoin.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 7.4 stablecoin (`tempo`) purchases over HTTP: the challenge a buyer preferring tempo gets, real signed
 * Tempo transactions (ox/tempo) paying it, the receipt reference, refusals before any broadcast, and the two
 * stablecoin 503s. A live run presents no credential without 'spend'; checks that would broadcast a transfer
 * need the embedded reference's simulated network (stablecoin-network): a live deployment would broadcast a real
 * transfer from this suite's unfunded test wallet. Faults of the network are arranged through the test control.
 */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const ids = (...records: ReadonlyArray<{ readonly id: string }>) => records.map((r) => r.id);
let serial = 0;

/** An address and a memo no challenge quotes. */
const OTHER_ADDRESS: Hex = '0x00000000000000000000000000000000000000aa';
const OTHER_MEMO: Hex = `0x${'ab'.repeat(32)}`;

const need = (c: CheckContext, ...capabilities: Capability[]) => needCapabilities(target, c, ...capabilities);

/** Where the target sells single calls, or the check not run. */
const pricedPath = (c: CheckContext): string => target.pricedResources?.path ?? c.notRun('the target names no priced single-call resource');

async function buyer(c: CheckContext, name: string): Promise<Buyer> {
  return new Buyer(target, `stablecoin-${name}-${serial++}`, c.record).register();
}

/** A stablecoin challenge for `path` (the pack by default), asked for with Service-Payment-Methods preferring tempo. */
async function offer(b: Buyer, options: PaidRequestOptions = {}): Promise<TempoOffer> {
  return tempoOffer(await b.post({ ...options, headers: { ...PREFER_TEMPO, ...options.headers } }));
}

/** The paid retry: a stablecoin credential carrying `payload`, the assent, and the methods hint (all covered). */
const tempoPayment = (o: TempoOffer, payload: Record<string, string>): Record<string, string> => ({ ...PREFER_TEMPO, ...stablecoinCredential(o, payload) });

const transaction = transactionPayload;

/** Asserts a granted or served answer whose receipt is method tempo with the transaction hash as its reference. */
function expectTempoReceipt(exchange: PaidExchange, hash: Hex): void {
  expect(exchange.status >= 200 && exchange.status < 300, `a paid answer is 2xx, got ${exchange.status} ${exchange.refusal ?? ''}`).toBe(true);
  expect(exchange.challengeCount, 'no challenge on a paid answer').toBe(0);
  const header = exchange.response.headers[HEADERS.paymentReceipt];
  if (header === undefined) return expect.fail('a paid answer carries Payment-Receipt');
  const receipt = decodeBase64urlJson(header);
  expect(receipt, 'the receipt').toMatchObject({ ok: true, value: { method: PAYMENT_METHODS.tempo, reference: hash } });
}

/** The 402 problems a refusal that asks for a fresh payment may name (the spec names none for a transfer that failed). */
const FRESH_CHALLENGE_PROBLEMS = [...Object.values(PAYMENT_PROBLEMS), E['invalid-payload']];

/** A 402 with exactly one fresh Payment challenge and the rest of 7.4's 402, whichever problem it names. */
function expectFreshChallenge(what: string, exchange: PaidExchange): void {
  const named = FRESH_CHALLENGE_PROBLEMS.find((r) => exchange.refusal === ('slug' in r ? r.slug : r.code));
  expectPaidAnswerOf(what, exchange, named ?? PAYMENT_PROBLEMS.verificationFailed);
}

describe(`7.4 stablecoin purchases (${target.description})`, () => {
  check({
    id: 'stablecoin.challenge',
    title: 'a buyer preferring tempo gets one stablecoin challenge',
    requirements: ids(M.methodsHint, M.stablecoinTransaction, P.challengeShape),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'challenge');
      const answer = await b.post({ headers: PREFER_TEMPO });
      expectPaidAnswer(answer, PAYMENT_PROBLEMS.paymentRequired);
      const o = tempoOffer(answer);
      expect(o.quote.amount, 'amount in base units').toMatch(/^[0-9]+$/);
    },
  });

  check({
    id: 'stablecoin.pack-granted',
    title: 'a matching signed transaction is granted; the receipt reference is the transaction hash',
    requirements: ids(M.stablecoinTransaction),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      need(c, 'stablecoin-network');
      const b = await buyer(c, 'granted');
      const o = await offer(b);
      const serialized = await signTransfer(o);
      const paid = await b.post({ headers: tempoPayment(o, transaction(serialized)) });
      expectTempoReceipt(paid, Hash.keccak256(serialized));
      expect(paid.body?.granted, 'body.granted').toBe(true);
      expectPaidAnswer(await b.post({ headers: tempoPayment(o, transaction(serialized)) }), E.purchase_already_granted);
    },
  });

  check({
    id: 'stablecoin.single-call-served',
    title: 'a single call bought with a matching transaction is served, the receipt reference the transaction hash',
    requirements: ids(M.stablecoinTransaction, M.unsignedSizedToCall),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'call');
      const priced = pricedPath(c);
      const o = await offer(b, { path: priced, headers: { [HEADERS.purchase]: PURCHASE_KINDS.exact } });
      const serialized = await signTransfer(o);
      expectTempoReceipt(await b.post({ path: priced, headers: tempoPayment(o, transaction(serialized)) }), Hash.keccak256(serialized));
    },
  });

  /** `now`: the target's clock as the buyer knows it; `exactClock` cases run only where it is the deployment's very clock (in-process, where it stands). */
  const mismatches: ReadonlyArray<{ readonly name: string; readonly shape: (o: TempoOffer, now: number) => TransferShape; readonly exactClock?: true }> = [
    { name: 'an amount one base unit short', shape: (o) => ({ amount: BigInt(o.quote.amount) - 1n }) },
    { name: 'another recipient', shape: () => ({ to: OTHER_ADDRESS }) },
    { name: 'another memo', shape: () => ({ memo: OTHER_MEMO }) },
    { name: 'two transfers', shape: () => ({ twice: true }) },
    { name: 'a fee payer asked to sponsor it', shape: () => ({ feePayer: true }) },
    { name: "a fee payer's signature beside the wallet's", shape: () => ({ sponsored: true }) },
    { name: 'validity past the challenge expiry', shape: () => ({ validPastExpiry: 60 }) },
    { name: 'no validBefore (valid for ever)', shape: () => ({ validBefore: null }) },
    { name: 'already expired', shape: (o) => ({ validBefore: expiresAtSeconds(o.challenge) - LIMITS.paymentChallengeLifetime.value - 1 }) },
    { name: 'another chain', shape: (o) => ({ chainId: o.quote.chainId + 1 }) },
    { name: 'another token contract', shape: () => ({ token: OTHER_ADDRESS }) },
    { name: 'a plain transfer without the memo', shape: () => ({ plainTransfer: true }) },
    { name: 'native value beside the transfer', shape: () => ({ value: 1n }) },
    { name: 'no signature', shape: () => ({ unsigned: true }) },
    { name: 'a signature from which no signer is recovered', shape: () => ({ recoversNoSigner: true }) },
    { name: 'a call that names no contract (it would create one)', shape: () => ({ createsContract: true }) },
    { name: 'a call to the token contract without call data', shape: () => ({ noCallData: true }) },
    { name: 'bytes of the Tempo type that do not decode', shape: () => ({ raw: `${TEMPO_TRANSACTION_TYPE}deadbeef` }) },
    // Valid before a time is not valid at it: the transaction can no longer land.
    { name: 'valid before the very second it is presented', shape: (_o, now) => ({ validBefore: now }), exactClock: true },
  ];

  check({
    id: 'stablecoin.transaction-mismatch',
    title: 'a transaction that does not pay the quote gets a fresh challenge',
    requirements: ids(M.stablecoinNonMatching),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'non-matching');
      for (const mismatch of mismatches) {
        if (mismatch.exactClock && target.kind !== 'in-process') continue;
        const o = await offer(b);
        try {
          const answer = await b.post({ headers: tempoPayment(o, transaction(await signTransfer(o, mismatch.shape(o, b.now)))) });
          // The spec names no problem type; either of the Payment scheme's fits (READINGS.nonMatchingTransaction).
          expectPaidAnswer(answer, answer.refusal === E['invalid-payload'].code ? E['invalid-payload'] : PAYMENT_PROBLEMS.verificationFailed);
          tempoOffer(answer);
        } catch (error) {
          throw new Error(`${mismatch.name} (${READINGS.nonMatchingTransaction.id}): ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
  });

  check({
    id: 'stablecoin.methods-hint-covered-only',
    title: 'an uncovered Service-Payment-Methods decides nothing',
    requirements: ids(M.methodsHint),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'methods-uncovered');
      const method = (exchange: PaidExchange) => exchange.challenges[0]?.challenge.method ?? `no challenge (${exchange.status} ${exchange.refusal ?? ''})`;
      const without = method(await b.post());
      const covered = method(await b.post({ headers: PREFER_TEMPO }));
      if (covered === without)
        c.notRun(`the target offers ${without} whether or not the buyer prefers ${PAYMENT_METHODS.tempo}, so the hint cannot be seen at work`);
      expect(method(await b.post({ headers: PREFER_TEMPO, cover: [] })), 'Service-Payment-Methods preferring tempo, not covered').toBe(without);
      expect(
        method(await b.post({ headers: { [HEADERS.paymentMethods]: 'no-such-method' }, cover: [] })),
        'Service-Payment-Methods naming no method, not covered',
      ).toBe(without);
    },
  });

  for (const type of [TEMPO_PAYLOAD_TYPES.hash, TEMPO_PAYLOAD_TYPES.proof]) {
    check({
      id: `stablecoin.payload-type-${type}`,
      title: `payload.type ${type}: 402 invalid-payload with a fresh challenge`,
      requirements: ids(E['invalid-payload']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, `payload-${type}`);
        const o = await offer(b);
        const answer = await b.post({
          headers: tempoPayment(o, { [TEMPO_PAYLOAD_MEMBERS.type]: type, [TEMPO_PAYLOAD_MEMBERS.hash]: Hash.keccak256(await signTransfer(o)) }),
        });
        expectPaidAnswer(answer, E['invalid-payload']);
      },
    });
  }

  check({
    id: 'stablecoin.payload-not-a-transaction',
    title: 'a stablecoin payload carrying no transaction gets a fresh challenge',
    requirements: ids(E['invalid-payload'], M.stablecoinTransaction),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'payload-not-transaction');
      const payloads: ReadonlyArray<readonly [string, (serialized: Hex) => Record<string, string>]> = [
        [
          'payload.type transfer beside the signed transaction',
          (serialized) => ({ [TEMPO_PAYLOAD_MEMBERS.type]: 'transfer', [TEMPO_PAYLOAD_MEMBERS.signature]: serialized }),
        ],
        ['no payload.type beside the signed transaction', (serialized) => ({ [TEMPO_PAYLOAD_MEMBERS.signature]: serialized })],
        ['payload.type transaction without the transaction', () => ({ [TEMPO_PAYLOAD_MEMBERS.type]: TEMPO_PAYLOAD_TYPES.transaction })],
      ];
      const accepted = [E['invalid-payload'], PAYMENT_PROBLEMS.malformedCredential, PAYMENT_PROBLEMS.verificationFailed];
      for (const [what, payload] of payloads) {
        const o = await offer(b);
        try {
          const answer = await b.post({ headers: tempoPayment(o, payload(await signTransfer(o))) });
          expectPaidAnswer(answer, accepted.find((r) => answer.refusal === ('slug' in r ? r.slug : r.code)) ?? E['invalid-payload']);
          tempoOffer(answer);
        } catch (error) {
          throw new Error(`${what} (${READINGS.stablecoinPayloadNotTransaction.id}): ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
  });

  check({
    id: 'stablecoin.paid-challenge-other-credential',
    title: 'a challenge a transfer paid buys nothing with another credential',
    requirements: ids(P.challengeShape, M.stablecoinNonMatching),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'paid-other-credential');
      const o = await offer(b);
      const serialized = await signTransfer(o);
      expectTempoReceipt(await b.post({ headers: tempoPayment(o, transaction(serialized)) }), Hash.keccak256(serialized));
      const altered = { ...o, echo: { ...o.echo, realm: `${o.echo.realm}.example` } };
      expectPaidAnswerOf(
        'the paid transaction under an echo whose realm was changed',
        await b.post({ headers: tempoPayment(altered, transaction(serialized)) }),
        PAYMENT_PROBLEMS.invalidChallenge,
      );
      expectFreshChallenge(
        'the paid challenge with bytes that do not decode as its transaction',
        await b.post({ headers: tempoPayment(o, transaction(`${TEMPO_TRANSACTION_TYPE}deadbeef`)) }),
      );
      // Another transaction for a challenge whose transfer is still settling is another credential, not that transfer resumed.
      const settling = await offer(b);
      await arrange(target, c, { state: AGENT_STATES.transferPending, agent: b.agentUrl });
      const first = await signTransfer(settling);
      expectPaidAnswerOf('a transfer still settling', await b.post({ headers: tempoPayment(settling, transaction(first)) }), E.tempo_settlement_pending);
      expectPaidAnswerOf(
        `another transaction for the challenge whose transfer is settling (${READINGS.challengePaidAgain.id})`,
        await b.post({ headers: tempoPayment(settling, transaction(await signTransfer(settling))) }),
        PAYMENT_PROBLEMS.invalidChallenge,
      );
      expectTempoReceipt(await b.post({ headers: tempoPayment(settling, transaction(first)) }), Hash.keccak256(first));
    },
  });

  check({
    id: 'stablecoin.same-credential-unsigned',
    title: 'a credited transfer presented unsigned is refused',
    requirements: ids(E.terms_acceptance_unauthenticated, E.purchase_already_granted, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'same-unsigned');
      const o = await offer(b);
      const serialized = await signTransfer(o);
      const headers = tempoPayment(o, transaction(serialized));
      expectTempoReceipt(await b.post({ headers }), Hash.keccak256(serialized));
      // Acceptance is taken only from the authenticated buyer (401); section 3 resumes the same credential "Always" (409 once credited).
      const unsigned = await b.post({ signed: false, headers });
      expectPaidAnswerOf('the same credential, unsigned', unsigned, unsigned.status === 409 ? E.purchase_already_granted : E.terms_acceptance_unauthenticated);
    },
  });

  check({
    id: 'stablecoin.not-offered',
    title: 'a deployment selling no stablecoin offers card instead',
    requirements: ids(M.methodsHint, E.mpp_not_configured),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'not-offered');
      await arrange(target, c, { state: AGENT_STATES.stablecoinNotSold, agent: b.agentUrl });
      const card = await b.post({ headers: PREFER_TEMPO });
      expectPaidAnswerOf('tempo preferred over card', card, PAYMENT_PROBLEMS.paymentRequired);
      expect(card.challenges[0]?.challenge.method, 'the method offered').toBe(PAYMENT_METHODS.stripe);
      expectPaidAnswerOf('tempo only', await b.post({ headers: { [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo } }), E.mpp_not_configured);
    },
  });

  check({
    id: 'stablecoin.method-no-longer-sold',
    title: 'a stablecoin credential once no transfer is offered is refused',
    requirements: ids(E['method-unsupported']),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'no-longer-sold');
      const o = await offer(b);
      const headers = tempoPayment(o, transaction(await signTransfer(o)));
      // 7.4 method-unsupported: "card always; stablecoin only where a transfer was offered". The deployment stops offering transfers.
      await arrange(target, c, { state: AGENT_STATES.stablecoinNotSold, agent: b.agentUrl });
      for (const what of ['the credential', 'the credential presented again']) {
        const answer = await b.post({ headers });
        expectPaidAnswerOf(
          `${what}, once no transfer is offered (${READINGS.methodNoLongerSold.id})`,
          answer,
          answer.refusal === E.mpp_disabled.code ? E.mpp_disabled : E['method-unsupported'],
        );
      }
    },
  });

  check({
    id: 'stablecoin.location-unknown',
    title: 'a wallet that cannot be placed: 403 stablecoin_location_unknown',
    requirements: ids(E.stablecoin_location_unknown, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'location-unknown');
      await arrange(target, c, { state: AGENT_STATES.unplacedWalletsRefused, agent: b.agentUrl });
      const o = await offer(b);
      await arrange(target, c, { state: AGENT_STATES.walletUnplaced, agent: b.agentUrl });
      expectPaidAnswer(await b.post({ headers: tempoPayment(o, transaction(await signTransfer(o))) }), E.stablecoin_location_unknown);
      // The code's condition is a transfer that "carries no buyer location": a placed wallet does not meet it.
      await arrange(target, c, { state: AGENT_STATES.walletPlaced, agent: b.agentUrl });
      const placed = await offer(b);
      const serialized = await signTransfer(placed);
      expectTempoReceipt(await b.post({ headers: tempoPayment(placed, transaction(serialized)) }), Hash.keccak256(serialized));
    },
  });

  check({
    id: 'stablecoin.closed-market',
    title: 'a wallet placed in a market where purchases are closed: 403 purchases_unavailable_region',
    requirements: ids(E.purchases_unavailable_region, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'closed-market');
      await arrange(target, c, { state: AGENT_STATES.marketClosed, agent: b.agentUrl });
      const o = await offer(b);
      expectPaidAnswer(await b.post({ headers: tempoPayment(o, transaction(await signTransfer(o))) }), E.purchases_unavailable_region);
    },
  });

  check({
    id: 'stablecoin.wallet-daily-cap',
    title: 'a wallet over its daily limit: 429 wallet_daily_cap with Retry-After',
    requirements: ids(E.wallet_daily_cap, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'wallet-cap');
      await arrange(target, c, { state: AGENT_STATES.walletCapOne, agent: b.agentUrl });
      const first = await offer(b);
      const serialized = await signTransfer(first);
      expectTempoReceipt(await b.post({ headers: tempoPayment(first, transaction(serialized)) }), Hash.keccak256(serialized));
      const second = await offer(b);
      const capped = await b.post({ headers: tempoPayment(second, transaction(await signTransfer(second))) });
      expectPaidAnswer(capped, E.wallet_daily_cap);
      const retryAfter = dailyCapRetryAfterProblems(capped.response);
      if (retryAfter.length) expect.fail(retryAfter.join('\n'));
    },
  });

  check({
    id: 'stablecoin.metered-unavailable',
    title: 'a call re-priced after its stablecoin challenge: 403',
    requirements: ids(E.metered_unavailable_for_stablecoin, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'call-repriced');
      const priced = pricedPath(c);
      const o = await offer(b, { path: priced, headers: { [HEADERS.purchase]: PURCHASE_KINDS.exact } });
      const payment = tempoPayment(o, transaction(await signTransfer(o)));
      await arrange(target, c, { state: AGENT_STATES.callRepriced, agent: b.agentUrl });
      expectPaidAnswer(await b.post({ path: priced, headers: payment }), E.metered_unavailable_for_stablecoin);
    },
  });

  check({
    id: 'stablecoin.grant-failed',
    title: 'a settled transfer not credited: 503 grant_failed; the same credential credits once',
    requirements: ids(E.grant_failed, P.resumeSameCredential, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'grant-failed');
      const o = await offer(b);
      const serialized = await signTransfer(o);
      const headers = tempoPayment(o, transaction(serialized));
      await arrange(target, c, { state: AGENT_STATES.grantFails, agent: b.agentUrl });
      expectPaidAnswerOf('the first presentation (settled, not credited)', await b.post({ headers }), E.grant_failed);
      // The payment is known settled: while the network cannot be read it is not "broadcast, not yet settled", nor "nothing broadcast".
      await arrange(target, c, { state: AGENT_STATES.networkUnreachable, agent: b.agentUrl });
      const again = await b.post({ headers });
      if (again.status === 503) expectPaidAnswerOf('the same credential while the network cannot be read', again, E.grant_failed);
      else expectTempoReceipt(again, Hash.keccak256(serialized));
      // Credited now or at the next presentation: the same credential is granted at most once, then 409.
      const credited = await b.post({ headers });
      if (credited.status !== 409) {
        expectTempoReceipt(credited, Hash.keccak256(serialized));
      }
      expectPaidAnswerOf('the same credential once credited', await b.post({ headers }), E.purchase_already_granted);
    },
  });

  check({
    id: 'stablecoin.transfer-failed',
    title: 'a transfer the network reports failed paid nothing: a fresh challenge',
    requirements: ids(P.declineFreshChallenge, P.resumeSameCredential, M.stablecoinTransaction),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'transfer-failed');
      // Section 3: a charge that "reports nothing captured" ends in a fresh challenge; a failed transfer captured nothing.
      await arrange(target, c, { state: AGENT_STATES.transferFails, agent: b.agentUrl });
      const failed = await offer(b);
      const failedHeaders = tempoPayment(failed, transaction(await signTransfer(failed)));
      expectFreshChallenge('a transfer that failed at once', await b.post({ headers: failedHeaders }));
      expectFreshChallenge('the same credential again', await b.post({ headers: failedHeaders }));
      const resumed = await offer(b);
      await arrange(target, c, { state: AGENT_STATES.transferFails, agent: b.agentUrl });
      await arrange(target, c, { state: AGENT_STATES.transferPending, agent: b.agentUrl });
      const resumedHeaders = tempoPayment(resumed, transaction(await signTransfer(resumed)));
      expectPaidAnswerOf('a transfer still pending', await b.post({ headers: resumedHeaders }), E.tempo_settlement_pending);
      expectFreshChallenge('the same credential once the transfer failed', await b.post({ headers: resumedHeaders }));
      expectFreshChallenge('that credential again', await b.post({ headers: resumedHeaders }));
      const next = await offer(b);
      const serialized = await signTransfer(next);
      expectTempoReceipt(await b.post({ headers: tempoPayment(next, transaction(serialized)) }), Hash.keccak256(serialized));
    },
  });

  check({
    id: 'stablecoin.tempo-unavailable',
    title: 'network unreachable: 503 tempo_unavailable with the retry object; the same credential completes once',
    requirements: ids(E.tempo_unavailable, P.resumeSameCredential, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'unavailable');
      const o = await offer(b);
      const serialized = await signTransfer(o);
      const headers = tempoPayment(o, transaction(serialized));
      await arrange(target, c, { state: AGENT_STATES.broadcastUnreachable, agent: b.agentUrl });
      expectPaidAnswer(await b.post({ headers }), E.tempo_unavailable);
      expectTempoReceipt(await b.post({ headers }), Hash.keccak256(serialized));
    },
  });

  check({
    id: 'stablecoin.tempo-unavailable-not-after-expiry',
    title: 'an unsent transfer presented after its challenge expired gets a fresh challenge',
    requirements: ids(E.tempo_unavailable, P.expiredFreshChallenge),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network', 'clock-control');
      const b = await buyer(c, 'unavailable-expired');
      const o = await offer(b);
      const headers = tempoPayment(o, transaction(await signTransfer(o)));
      await arrange(target, c, { state: AGENT_STATES.broadcastUnreachable, agent: b.agentUrl });
      expectPaidAnswer(await b.post({ headers }), E.tempo_unavailable);
      // 7.4: "re-present the same credential after Retry-After while challenge and transaction are valid".
      await b.advance(LIMITS.paymentChallengeLifetime.value + CHALLENGE_EXPIRY_TOLERANCE_S + 1);
      await arrange(target, c, { state: AGENT_STATES.networkUnreachable, agent: b.agentUrl });
      const unreadable = await b.post({ headers });
      const what = `the same credential after expiry while the network cannot be read (${READINGS.unsentTransferAfterExpiry.id})`;
      if (unreadable.status === 402) expectFreshChallenge(what, unreadable);
      else expectPaidAnswerOf(what, unreadable, E.tempo_unavailable);
      const late = await b.post({ headers });
      expect(late.status, `the same credential after expiry: ${late.status} ${late.refusal ?? ''}`).toBe(402);
      tempoOffer(late);
    },
  });

  check({
    id: 'stablecoin.tempo-unavailable-not-after-transaction-expiry',
    title: 'an unsent transfer presented once its transaction expired gets a fresh challenge',
    requirements: ids(E.tempo_unavailable, M.stablecoinNonMatching),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network', 'clock-control');
      const b = await buyer(c, 'unavailable-transaction-expired');
      const o = await offer(b);
      // Valid before a second well inside the challenge's life; in-process the target's clock stands at b.now.
      const validFor = LIMITS.paymentChallengeLifetime.value / 2;
      const headers = tempoPayment(o, transaction(await signTransfer(o, { validBefore: b.now + validFor })));
      await arrange(target, c, { state: AGENT_STATES.broadcastUnreachable, agent: b.agentUrl });
      const first = await b.post({ headers });
      if (first.status === 402)
        c.notRun('the target refuses a transaction valid until before its challenge expires, so none is left unsent to present after it expired');
      expectPaidAnswer(first, E.tempo_unavailable);
      // 7.4: "re-present the same credential after Retry-After while challenge and transaction are valid". Valid before a second is not valid at it.
      await b.advance(validFor);
      expectFreshChallenge('the same credential at the second its transaction stops being valid', await b.post({ headers }));
    },
  });

  check({
    id: 'stablecoin.tempo-settlement-pending',
    title: 'broadcast, not settled: 503 tempo_settlement_pending, completed after expiry',
    requirements: ids(E.tempo_settlement_pending, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network', 'clock-control');
      const b = await buyer(c, 'pending');
      const o = await offer(b);
      const serialized = await signTransfer(o);
      const headers = tempoPayment(o, transaction(serialized));
      await arrange(target, c, { state: AGENT_STATES.transferPending, agent: b.agentUrl });
      expectPaidAnswer(await b.post({ headers }), E.tempo_settlement_pending);
      await b.advance(600);
      expectTempoReceipt(await b.post({ headers }), Hash.keccak256(serialized));
    },
  });

  check({
    id: 'stablecoin.settlement-pending-network-unreadable',
    title: 'a broadcast transfer the network cannot read is 503 tempo_settlement_pending',
    requirements: ids(E.tempo_settlement_pending, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'stablecoin-network');
      const b = await buyer(c, 'pending-unreadable');
      const o = await offer(b);
      const serialized = await signTransfer(o);
      const headers = tempoPayment(o, transaction(serialized));
      await arrange(target, c, { state: AGENT_STATES.transferPending, agent: b.agentUrl });
      expectPaidAnswerOf('the first presentation (broadcast, pending)', await b.post({ headers }), E.tempo_settlement_pending);
      await arrange(target, c, { state: AGENT_STATES.networkUnreachable, agent: b.agentUrl });
      expectPaidAnswerOf('the same credential while the network cannot be read', await b.post({ headers }), E.tempo_settlement_pending);
      expectTempoReceipt(await b.post({ headers }), Hash.keccak256(serialized));
      // The broadcast is accepted and the very first read of its status fails: it was broadcast all the same.
      const next = await offer(b);
      const nextSerialized = await signTransfer(next);
      const nextHeaders = tempoPayment(next, transaction(nextSerialized));
      await arrange(target, c, { state: AGENT_STATES.statusReadFails, agent: b.agentUrl });
      expectPaidAnswerOf('a transfer broadcast whose status cannot be read at once', await b.post({ headers: nextHeaders }), E.tempo_settlement_pending);
      expectTempoReceipt(await b.post({ headers: nextHeaders }), Hash.keccak256(nextSerialized));
    },
  });
});
