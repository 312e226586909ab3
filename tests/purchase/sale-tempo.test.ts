import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import {
  decidePurchase,
  decideSale,
  decodeBase64urlJson,
  isCallAnswer,
  type PaymentChallenge,
  type PurchaseOutcome,
  type SaleConfig,
  type SaleOutcome,
  type SalePorts,
} from '../../src/purchase/index.js';
import { FakeStablecoinNetwork, FixedWalletLocations, MemoryTransferStore, MemoryWalletCaps } from '../../src/purchase/testing/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS, TEMPO_PAYLOAD_MEMBERS, TEMPO_PAYLOAD_TYPES } from '../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { BUYER, T0, expectCode, expectFresh402, oneChallenge } from './machine/helpers.js';
import { CALL_NANO, SaleWorld, answer } from './sale/helpers.js';
import { paidTempo, quoteOf, signTransfer, sponsor, stablecoinOffer, transactionPayload, wallet } from './tempo/helpers.js';

/** The call's price in base units (0.25 of a 6-decimal token). */
const CALL_UNITS = '250000';
const E = PURCHASE_ERRORS;

/** A priced resource selling calls by card and by stablecoin, every port in memory. */
class TempoSaleWorld {
  readonly base = new SaleWorld();
  readonly network = new FakeStablecoinNetwork();
  readonly transfers = new MemoryTransferStore();
  readonly walletCaps = new MemoryWalletCaps();
  readonly locations = new FixedWalletLocations();
  readonly ports: SalePorts;
  config: SaleConfig;

  constructor() {
    this.ports = {
      ...this.base.ports,
      stablecoin: { network: this.network, transfers: this.transfers, walletCaps: this.walletCaps, locations: this.locations },
    };
    this.config = {
      ...this.base.config,
      stablecoin: stablecoinOffer({ sellsToUnplaceableBuyers: true }),
      sale: { ...this.base.config.sale, methods: [PAYMENT_METHODS.stripe, PAYMENT_METHODS.tempo], stablecoinAmount: CALL_UNITS },
    };
  }

  decide(headers: Record<string, string> = {}, buyer: 'agent' | 'anonymous' = 'agent'): Promise<SaleOutcome> {
    const request = this.base.request(headers, { now: this.base.clock.now() });
    return decideSale(buyer === 'agent' ? request : { ...request, buyer: null, signed: false, coveredHeaders: [] }, this.ports, this.config);
  }

  atCredits(headers: Record<string, string>): Promise<PurchaseOutcome> {
    return decidePurchase(this.base.request(headers, { now: this.base.clock.now() }), this.ports, this.config);
  }

  /** A stablecoin call challenge (Service-Payment-Methods prefers tempo). */
  async challenge(): Promise<PaymentChallenge> {
    const challenge = expectFresh402(
      answer(await this.decide({ [HEADERS.paymentMethods]: `${PAYMENT_METHODS.tempo}, ${PAYMENT_METHODS.stripe}` })),
      PAYMENT_PROBLEMS.paymentRequired,
      undefined,
      PAYMENT_METHODS.tempo,
    );
    return challenge;
  }

  async paying(shape: Parameters<typeof signTransfer>[1] = {}): Promise<{ challenge: PaymentChallenge; headers: Record<string, string>; serialized: Hex }> {
    const challenge = await this.challenge();
    const serialized = await signTransfer(quoteOf(challenge), shape, T0 + 300);
    return { challenge, serialized, headers: paidTempo(challenge, transactionPayload(serialized)) };
  }
}

function expectTempoCall(outcome: SaleOutcome, hash: Hex): void {
  if (!isCallAnswer(outcome)) throw new Error(`expected the call's response, got ${outcome.status} ${outcome.code}`);
  expect(outcome.status).toBe(200);
  const receipt = decodeBase64urlJson(outcome.headers[HEADERS.paymentReceipt]!);
  expect(receipt).toMatchObject({ ok: true, value: { method: PAYMENT_METHODS.tempo, reference: hash, status: 'success' } });
}

describe('single-call sales by stablecoin (7.4)', () => {
  it('a buyer preferring tempo gets a stablecoin challenge sized to the call; a caller naming no method gets the card one', async () => {
    const world = new TempoSaleWorld();
    const challenge = await world.challenge();
    expect(quoteOf(challenge)).toMatchObject({
      amount: CALL_UNITS,
      currency: world.config.stablecoin!.token,
      recipient: world.config.stablecoin!.depositAddress,
    });
    expect(challenge.opaque).toMatchObject({ kind: PURCHASE_KINDS.exact });
    expectFresh402(answer(await world.decide()), PAYMENT_PROBLEMS.paymentRequired, undefined, PAYMENT_METHODS.stripe);
  });

  it('a matching signed transaction is broadcast once, the call served once with the transaction hash as the receipt reference; again 409 call_already_served', async () => {
    const world = new TempoSaleWorld();
    const { headers } = await world.paying();
    const outcome = await world.decide(headers);
    const [hash] = world.network.broadcastHashes();
    expectTempoCall(outcome, hash!);
    expect(world.base.server.ran).toHaveLength(1);
    expectCode(answer(await world.decide(headers)), E.call_already_served);
    expect(world.base.server.ran).toHaveLength(1);
    expect(world.network.broadcasts).toHaveLength(1);
  });

  it('a transaction paying another amount gets a fresh stablecoin challenge and is never broadcast', async () => {
    const world = new TempoSaleWorld();
    const { headers } = await world.paying({ amount: 1n });
    expectFresh402(answer(await world.decide(headers)), PAYMENT_PROBLEMS.verificationFailed, undefined, PAYMENT_METHODS.tempo);
    expect(world.network.calls).toEqual([]);
  });

  it('hash and proof payloads: 402 invalid-payload with a fresh challenge, nothing broadcast', async () => {
    const world = new TempoSaleWorld();
    for (const type of [TEMPO_PAYLOAD_TYPES.hash, TEMPO_PAYLOAD_TYPES.proof]) {
      const challenge = await world.challenge();
      const headers = paidTempo(challenge, { [TEMPO_PAYLOAD_MEMBERS.type]: type, [TEMPO_PAYLOAD_MEMBERS.hash]: `0x${'ab'.repeat(32)}` });
      expectFresh402(answer(await world.decide(headers)), E['invalid-payload'], undefined, PAYMENT_METHODS.tempo);
    }
    expect(world.network.calls).toEqual([]);
  });

  it('the call re-priced after the challenge: 403 metered_unavailable_for_stablecoin, nothing broadcast', async () => {
    const world = new TempoSaleWorld();
    const { headers } = await world.paying();
    world.config = { ...world.config, sale: { ...world.config.sale, stablecoinAmount: '300000' } };
    expectCode(answer(await world.decide(headers)), E.metered_unavailable_for_stablecoin);
    expect(world.network.calls).toEqual([]);
  });

  it('network unreachable: 503 tempo_unavailable; the same credential later serves the call once', async () => {
    const world = new TempoSaleWorld();
    const { headers } = await world.paying();
    world.network.unreachableBroadcasts = 1;
    expectCode(answer(await world.decide(headers)), E.tempo_unavailable);
    expect(world.base.server.ran).toHaveLength(0);
    expectTempoCall(await world.decide(headers), world.network.broadcastHashes()[0]!);
    expect(world.base.server.ran).toHaveLength(1);
  });

  it('broadcast, not settled: 503 tempo_settlement_pending; completes against the same transfer even after the challenge expired', async () => {
    const world = new TempoSaleWorld();
    world.network.pendingReads = 1;
    const { headers } = await world.paying();
    expectCode(answer(await world.decide(headers)), E.tempo_settlement_pending);
    world.base.clock.advance(600);
    expectTempoCall(await world.decide(headers), world.network.broadcastHashes()[0]!);
    expect(world.network.broadcasts).toHaveLength(1);
  });

  it('a transfer that failed on the network gives its caps back and answers a fresh stablecoin challenge', async () => {
    const world = new TempoSaleWorld();
    world.network.finalOutcome = 'failed';
    const { headers } = await world.paying();
    expectFresh402(answer(await world.decide(headers)), PAYMENT_PROBLEMS.verificationFailed, undefined, PAYMENT_METHODS.tempo);
    const day = Math.floor(world.base.clock.now() / 86_400);
    expect(world.base.caps.count(`instrument:${wallet.address.toLowerCase()}`, day)).toBe(0);
    expect(world.base.server.ran).toHaveLength(0);
  });

  it('the wallet counts as the instrument of metered_instrument_cap', async () => {
    const world = new TempoSaleWorld();
    world.config = { ...world.config, sale: { ...world.config.sale, caps: { ...world.config.sale.caps, instrumentPerDay: 1 } } };
    await world.decide((await world.paying()).headers);
    const second = await world.paying({ nonceKey: 2n });
    expectCode(answer(await world.decide(second.headers)), E.metered_instrument_cap);
    expect(world.network.broadcasts).toHaveLength(1);
  });

  it("another wallet is not held to the first wallet's metered_instrument_cap", async () => {
    const world = new TempoSaleWorld();
    world.config = { ...world.config, sale: { ...world.config.sale, caps: { ...world.config.sale.caps, instrumentPerDay: 1 } } };
    await world.decide((await world.paying()).headers);
    const other = await world.paying({ signer: sponsor, nonceKey: 2n });
    expectTempoCall(await world.decide(other.headers), world.network.broadcastHashes()[1]!);
    expect(world.network.broadcasts).toHaveLength(2);
  });

  it('a stablecoin credential refused for its expired challenge or stale terms is offered the stablecoin again', async () => {
    const world = new TempoSaleWorld();
    const stale = await world.paying();
    const { challenge } = stale;
    expectFresh402(
      answer(await world.decide(paidTempo(challenge, transactionPayload(stale.serialized), '2000-01-01'))),
      E['terms-version-stale'],
      undefined,
      PAYMENT_METHODS.tempo,
    );
    world.base.clock.advance(301);
    expectFresh402(answer(await world.decide(stale.headers)), PAYMENT_PROBLEMS.paymentExpired, undefined, PAYMENT_METHODS.tempo);
    expect(world.network.broadcasts).toHaveLength(0);
  });

  it('challenge_kind_mismatch both ways: a tempo call challenge at /api/mpp/credits, a tempo pack challenge at the resource', async () => {
    const world = new TempoSaleWorld();
    const call = await world.paying();
    expectCode(await world.atCredits(call.headers), E.challenge_kind_mismatch);
    const pack = oneChallenge(await world.atCredits({ [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo }));
    const packTx = await signTransfer(quoteOf(pack), {}, T0 + 300);
    expectCode(answer(await world.decide(paidTempo(pack, transactionPayload(packTx)))), E.challenge_kind_mismatch);
    expect(world.network.calls).toEqual([]);
  });

  it('a settled single-call transfer never resumes as a pack at /api/mpp/credits', async () => {
    const world = new TempoSaleWorld();
    const { headers } = await world.paying();
    await world.decide(headers);
    expectCode(await world.atCredits(headers), E.challenge_kind_mismatch);
    expect(world.base.store.balance(BUYER)).toBe(CALL_NANO);
  });

  it('a bought call that fails is paid back onto the balance (no card refund for a transfer)', async () => {
    const world = new TempoSaleWorld();
    world.base.server.enqueue('failed');
    const { headers } = await world.paying();
    const outcome = await world.decide(headers);
    expect(isCallAnswer(outcome) && outcome.status).toBe(502);
    expect(world.base.sales.all()[0]).toMatchObject({ state: 'refunded', refund: 'balance' });
    expect(world.base.available()).toBe(CALL_NANO);
  });
});
