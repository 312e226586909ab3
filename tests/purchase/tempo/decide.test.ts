import { describe, expect, it } from 'vitest';
import { keccak256 } from 'viem';
import { settleTransferReported } from '../../../src/purchase/index.js';
import { memoOf } from '../../../src/purchase/machine/tempo/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_CREDENTIAL_HEADER, PAYMENT_METHODS, PAYMENT_PROBLEMS, TEMPO_PAYLOAD_TYPES } from '../../../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES, problemTypeUrl } from '../../../src/spec/problem-types.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { NEXT_VERSION, OTHER_BUYER, PACK_NANO, T0, challengeCount, expectCode, oneChallenge, paid, twice } from '../machine/helpers.js';
import {
  AMOUNT,
  DEPOSIT,
  OTHER_ADDRESS,
  TempoWorld,
  expectFresh402,
  expectTransferGranted,
  paidTempo,
  quoteOf,
  signTransfer,
  transactionPayload,
  wallet,
} from './helpers.js';

/** A challenge, a matching signed transaction and the paid retry's headers. */
async function payable(world: TempoWorld) {
  const challenge = await world.challenge();
  const serialized = await signTransfer(quoteOf(challenge), {}, T0 + 300);
  return { challenge, serialized, hash: keccak256(serialized), headers: paidTempo(challenge, transactionPayload(serialized)) };
}

const methodsHeader = (value: string) => ({ [HEADERS.paymentMethods]: value });

describe('which method a fresh challenge offers', () => {
  it('offers tempo when the trusted Service-Payment-Methods names it first, card when it names card first, card by default', async () => {
    const world = new TempoWorld();
    const tempo = expectFresh402(await world.decide(methodsHeader('tempo, stripe')), PAYMENT_PROBLEMS.paymentRequired, PAYMENT_METHODS.tempo);
    expect(tempo.request).toMatchObject({
      amount: AMOUNT,
      currency: quoteOf(tempo).currency,
      recipient: DEPOSIT,
      methodDetails: { chainId: 4217, supportedModes: ['pull'] },
    });
    expectFresh402(await world.decide(methodsHeader('stripe, tempo')), PAYMENT_PROBLEMS.paymentRequired, PAYMENT_METHODS.stripe);
    expectFresh402(await world.decide(), PAYMENT_PROBLEMS.paymentRequired, PAYMENT_METHODS.stripe);
    // Not covered on a signed request: not trusted, so card.
    expectFresh402(await world.decide(methodsHeader('tempo'), { coveredHeaders: [] }), PAYMENT_PROBLEMS.paymentRequired, PAYMENT_METHODS.stripe);
  });

  it('picks a fresh memo for every stablecoin challenge from the injected randomness', async () => {
    const world = new TempoWorld();
    const a = quoteOf(await world.challenge());
    const b = quoteOf(await world.challenge());
    expect(a.memo).toMatch(/^0x[0-9a-f]{64}$/);
    expect(a.memo).not.toBe(b.memo);
  });

  it('answers 503 mpp_not_configured when the list names no offered method (tempo not configured, or an unknown method)', async () => {
    expectCode(await new TempoWorld(null).decide(methodsHeader('tempo')), PURCHASE_ERRORS.mpp_not_configured);
    expectCode(await new TempoWorld().decide(methodsHeader('lightning')), PURCHASE_ERRORS.mpp_not_configured);
    expectFresh402(await new TempoWorld(null).decide(methodsHeader('tempo, stripe')), PAYMENT_PROBLEMS.paymentRequired, PAYMENT_METHODS.stripe);
  });
});

describe('a matching transfer', () => {
  it('is broadcast once, settles, credits the pack once, and the receipt reference is the transaction hash', async () => {
    const world = new TempoWorld();
    const { serialized, hash, headers } = await payable(world);
    const answer = await world.decide(headers);
    expectTransferGranted(answer, PACK_NANO, hash);
    expect(world.network.broadcasts).toEqual([serialized]);
    expect(world.store.allGrants()).toHaveLength(1);
    expect(world.processor.calls).toEqual([]);
    // Presented again: 409 purchase_already_granted with the receipt; nothing broadcast again, nothing credited again.
    const again = await world.decide(headers);
    expectCode(again, PURCHASE_ERRORS.purchase_already_granted);
    expect(again.body.receipt).toMatchObject({ method: PAYMENT_METHODS.tempo, reference: hash });
    expect(world.network.broadcasts).toHaveLength(1);
    expect(world.balance()).toBe(PACK_NANO);
  });
});

describe('non-matching transactions: a fresh challenge, never broadcast', () => {
  it.each([
    ['wrong amount', { amount: 1n }],
    ['wrong recipient', { to: OTHER_ADDRESS }],
    ['wrong memo', { memo: memoOf(new Uint8Array(32).fill(9)) }],
    ['validBefore after the expiry', { validBefore: T0 + 3600 }],
  ])('%s: 402 verification-failed naming it, a fresh tempo challenge, nothing broadcast', async (_name, shape) => {
    const world = new TempoWorld();
    const challenge = await world.challenge();
    const serialized = await signTransfer(quoteOf(challenge), shape);
    const answer = await world.decide(paidTempo(challenge, transactionPayload(serialized)));
    const fresh = expectFresh402(answer, PAYMENT_PROBLEMS.verificationFailed);
    expect(fresh.id).not.toBe(challenge.id);
    expect(answer.body.detail).toContain('does not pay the challenge');
    world.expectNothingBroadcast();
    expect(world.network.calls).toEqual([]);
    expect(world.transfers.all()).toEqual([]);
  });

  it('garbage bytes: 402 verification-failed, nothing broadcast', async () => {
    const world = new TempoWorld();
    const challenge = await world.challenge();
    const answer = await world.decide(paidTempo(challenge, transactionPayload('0x76deadbeef')));
    expectFresh402(answer, PAYMENT_PROBLEMS.verificationFailed);
    expect(answer.body.detail).toContain('undecodable');
    world.expectNothingBroadcast();
  });

  it('a transaction already used, presented for another challenge: its memo pays only the first, so a fresh challenge; not broadcast again, not credited twice', async () => {
    const world = new TempoWorld();
    const first = await payable(world);
    expectTransferGranted(await world.decide(first.headers), PACK_NANO, first.hash);
    const second = await world.challenge();
    const replay = await world.decide(paidTempo(second, transactionPayload(first.serialized)));
    expectFresh402(replay, PAYMENT_PROBLEMS.verificationFailed);
    expect(replay.body.detail).toContain('wrong-memo');
    expect(world.network.broadcasts).toHaveLength(1);
    expect(world.balance()).toBe(PACK_NANO);
  });

  it('a transaction whose hash is already claimed by a transfer record: fresh challenge, nothing broadcast', async () => {
    const world = new TempoWorld();
    const { challenge, serialized, hash, headers } = await payable(world);
    world.transfers.openTransfer({
      challengeId: 'another-challenge',
      hash,
      serialized,
      wallet: wallet.address,
      buyer: OTHER_BUYER,
      termsVersion: challenge.opaque!.terms!,
      packId: 'mpp_5',
      price: { amount: AMOUNT, currency: quoteOf(challenge).currency },
      creditNano: PACK_NANO,
      state: 'broadcast',
      openedAt: T0,
      expiresAt: T0 + 300,
      validBefore: T0 + 300,
    });
    const answer = await world.decide(headers);
    expectFresh402(answer, PAYMENT_PROBLEMS.verificationFailed);
    expect(answer.body.detail).toContain('already used');
    world.expectNothingBroadcast();
  });
});

describe('payloads that are not admitted', () => {
  it.each([TEMPO_PAYLOAD_TYPES.hash, TEMPO_PAYLOAD_TYPES.proof])(
    'payload.type %s: 402 invalid-payload with a fresh challenge, nothing broadcast',
    async (type) => {
      const world = new TempoWorld();
      const challenge = await world.challenge();
      const answer = await world.decide(paidTempo(challenge, { type, hash: `0x${'ab'.repeat(32)}`, signature: '0x00' }));
      expectFresh402(answer, PURCHASE_ERRORS['invalid-payload']);
      world.expectNothingBroadcast();
    },
  );
});

describe('method-unsupported', () => {
  it('a tempo credential where no transfer was offered: 400 method-unsupported, no challenge', async () => {
    const offering = new TempoWorld();
    const { headers } = await payable(offering);
    const world = new TempoWorld(null);
    const answer = await world.decide(headers);
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe(problemTypeUrl(DEFAULT_PROBLEM_BASES, 'payment-problems', 'method-unsupported'));
    expect(challengeCount(answer)).toBe(0);
    world.expectNothingBroadcast();
  });
});

describe('refusals before broadcasting', () => {
  it('403 stablecoin_location_unknown when the wallet cannot be placed and the deployment does not sell to unplaceable buyers', async () => {
    const world = new TempoWorld();
    world.locations.countries.clear();
    const { headers, hash } = await payable(world);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.stablecoin_location_unknown);
    world.expectNothingBroadcast();
    // A lookup that fails counts as unplaceable too.
    world.locations.place(wallet.address, 'US');
    world.locations.unavailable = true;
    expectCode(await world.decide(headers), PURCHASE_ERRORS.stablecoin_location_unknown);
    world.expectNothingBroadcast();
    // A deployment that sells to unplaceable buyers goes on.
    const open = new TempoWorld({ sellsToUnplaceableBuyers: true });
    open.locations.countries.clear();
    const paidOpen = await payable(open);
    expectTransferGranted(await open.decide(paidOpen.headers), PACK_NANO, paidOpen.hash);
    expect(hash).toMatch(/^0x/);
  });

  it('403 purchases_unavailable_region when the wallet is placed in a closed market', async () => {
    const world = new TempoWorld({}, { closedMarkets: ['US'] });
    const { headers } = await payable(world);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.purchases_unavailable_region);
    world.expectNothingBroadcast();
  });

  it('429 wallet_daily_cap with Retry-After until the next UTC day; nothing broadcast; the wallet pays again tomorrow', async () => {
    const world = new TempoWorld({ walletDailyCap: String(2n * BigInt(AMOUNT) - 1n) });
    const first = await payable(world);
    expectTransferGranted(await world.decide(first.headers), PACK_NANO, first.hash);
    const second = await world.challenge();
    const serialized = await signTransfer(quoteOf(second), { nonceKey: 2n });
    const headers = paidTempo(second, transactionPayload(serialized));
    const answer = await world.decide(headers);
    expectCode(answer, PURCHASE_ERRORS.wallet_daily_cap);
    expect(answer.status).toBe(429);
    expect(answer.headers[HEADERS.retryAfter]).toBe(String(86_400 - (T0 % 86_400)));
    expect(world.network.broadcasts).toHaveLength(1);
  });
});

describe('the network', () => {
  it('unreachable: 503 tempo_unavailable with Retry-After and the retry object; the same credential completes later while valid', async () => {
    const world = new TempoWorld();
    const { headers, hash } = await payable(world);
    world.network.unreachable = true;
    const down = await world.decide(headers);
    expectCode(down, PURCHASE_ERRORS.tempo_unavailable);
    expect(down.body.retry).toEqual({ sameCredential: true, credentialHeader: PAYMENT_CREDENTIAL_HEADER });
    expect(down.headers[HEADERS.retryAfter]).toBeDefined();
    world.expectNothingBroadcast();
    // Earlier checks are not asked again: the terms move on and the location is gone, the same credential still completes.
    world.network.unreachable = false;
    world.config = { ...world.config, terms: { ...world.config.terms, version: NEXT_VERSION } };
    world.locations.countries.clear();
    world.clock.advance(5);
    expectTransferGranted(await world.decide(headers), PACK_NANO, hash);
    expect(world.network.broadcastHashes()).toEqual([hash]);
  });

  it('unreachable until the challenge and the transaction expired: the network is read, and a transfer that never landed ends in a fresh challenge', async () => {
    const world = new TempoWorld();
    const { headers } = await payable(world);
    world.network.unreachableBroadcasts = 1;
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_unavailable);
    world.clock.advance(301);
    expectFresh402(await world.decide(headers), PAYMENT_PROBLEMS.paymentExpired);
    world.expectNothingBroadcast();
    expect(world.balance()).toBe('0');
  });

  it('broadcast but not settled: 503 tempo_settlement_pending (no Retry-After in the catalogue), completes against the same transfer after the challenge expired, credited once', async () => {
    const world = new TempoWorld();
    world.network.pendingReads = 2;
    const { headers, hash, serialized } = await payable(world);
    const pending = await world.decide(headers);
    expectCode(pending, PURCHASE_ERRORS.tempo_settlement_pending);
    expect(pending.body.retry).toEqual({ sameCredential: true, credentialHeader: PAYMENT_CREDENTIAL_HEADER });
    world.clock.advance(400);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
    expectTransferGranted(await world.decide(headers), PACK_NANO, hash);
    expect(world.network.broadcasts).toEqual([serialized]);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.purchase_already_granted);
    expect(world.balance()).toBe(PACK_NANO);
  });

  it('a status read that fails after broadcast is still tempo_settlement_pending, never tempo_unavailable', async () => {
    const world = new TempoWorld();
    world.network.pendingReads = 1;
    const { headers, hash } = await payable(world);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
    world.network.unreachable = true;
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
    world.network.unreachable = false;
    expectTransferGranted(await world.decide(headers), PACK_NANO, hash);
  });

  it('failed on the network: a fresh challenge; the wallet daily total gives the amount back', async () => {
    const world = new TempoWorld({ walletDailyCap: AMOUNT });
    world.network.finalOutcome = 'failed';
    const { headers } = await payable(world);
    expectFresh402(await world.decide(headers), PAYMENT_PROBLEMS.verificationFailed);
    expect(world.caps.totalOf(wallet.address, T0 - (T0 % 86_400))).toBe('0');
    expectFresh402(await world.decide(headers), PAYMENT_PROBLEMS.verificationFailed);
    expect(world.balance()).toBe('0');
  });

  it('settlement reported by the network while the credential is never presented again: credited once; a later presentation is 409', async () => {
    const world = new TempoWorld();
    world.network.pendingReads = 5;
    const { headers, hash } = await payable(world);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
    expect(await settleTransferReported({ hash }, world.ports)).toMatchObject({ credited: true, balanceNano: PACK_NANO });
    expect(await settleTransferReported({ hash }, world.ports)).toMatchObject({ credited: false, reason: 'already-credited' });
    expect(await settleTransferReported({ hash: `0x${'00'.repeat(32)}` }, world.ports)).toEqual({ credited: false, reason: 'unmatched' });
    expectCode(await world.decide(headers), PURCHASE_ERRORS.purchase_already_granted);
    expect(world.balance()).toBe(PACK_NANO);
  });
});

describe('same-credential resume comes before every other check (section 3 row 1)', () => {
  it('resumes a pending transfer after the switches closed and the challenge expired', async () => {
    const world = new TempoWorld();
    world.network.pendingReads = 1;
    const { headers, hash } = await payable(world);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
    world.config = { ...world.config, mppEnabled: false, purchasesOpen: false };
    world.clock.advance(1000);
    expectTransferGranted(await world.decide(headers), PACK_NANO, hash);
  });

  it('only the buyer it was opened for may resume it', async () => {
    const world = new TempoWorld();
    world.network.pendingReads = 1;
    const { headers } = await payable(world);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
    expectCode(await world.decide(headers, { buyer: { agentUrl: OTHER_BUYER } }), PURCHASE_ERRORS.terms_acceptance_unauthenticated);
  });

  it('the challenge redeemed with another transaction is invalid-challenge; nothing of it broadcast', async () => {
    const world = new TempoWorld();
    world.network.pendingReads = 1;
    const { challenge, headers } = await payable(world);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
    const other = await signTransfer(quoteOf(challenge), { nonceKey: 9n });
    expectFresh402(await world.decide(paidTempo(challenge, transactionPayload(other))), PAYMENT_PROBLEMS.invalidChallenge);
    expect(world.network.broadcasts).toHaveLength(1);
  });
});

describe('other checks on the stablecoin path', () => {
  it('terms: no assent is terms-acceptance-required, a stale version terms-version-stale, both with a fresh tempo challenge', async () => {
    const world = new TempoWorld();
    const { challenge, serialized } = await payable(world);
    expectFresh402(await world.decide(paidTempo(challenge, transactionPayload(serialized), null)), PURCHASE_ERRORS['terms-acceptance-required']);
    expectFresh402(await world.decide(paidTempo(challenge, transactionPayload(serialized), NEXT_VERSION)), PURCHASE_ERRORS['terms-version-stale']);
    world.expectNothingBroadcast();
  });

  it('an expired challenge with no transfer behind it: 402 payment-expired, fresh tempo challenge', async () => {
    const world = new TempoWorld();
    const { headers } = await payable(world);
    world.clock.advance(301);
    expectFresh402(await world.decide(headers), PAYMENT_PROBLEMS.paymentExpired);
    world.expectNothingBroadcast();
  });

  it('a card challenge answered with a tempo payload, or a tempo challenge presented as card, is refused and nothing is sent', async () => {
    const world = new TempoWorld();
    const card = oneChallenge(await world.decide());
    const tempo = await world.challenge();
    // The card credential for a tempo challenge: the echo names tempo, so it goes the stablecoin path and its payload is not a transaction.
    expectFresh402(await world.decide(paid(tempo)), PURCHASE_ERRORS['invalid-payload']);
    expect(card.method).toBe(PAYMENT_METHODS.stripe);
    world.expectNothingBroadcast();
    expect(world.processor.calls).toEqual([]);
  });

  it('two purchases by the same wallet on different challenges are both credited', async () => {
    const world = new TempoWorld();
    const first = await payable(world);
    expectTransferGranted(await world.decide(first.headers), PACK_NANO, first.hash);
    const second = await world.challenge();
    const serialized = await signTransfer(quoteOf(second), { nonceKey: 2n });
    expectTransferGranted(await world.decide(paidTempo(second, transactionPayload(serialized))), twice(PACK_NANO), keccak256(serialized));
  });
});
