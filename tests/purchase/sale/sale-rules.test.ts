import { describe, expect, it } from 'vitest';
import { decideSale, isCallAnswer, type SaleConfig, type SaleOutcome, type SalePorts } from '../../../src/purchase/index.js';
import { FakeStablecoinNetwork, FixedWalletLocations, MemoryTransferStore, MemoryWalletCaps } from '../../../src/purchase/testing/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { T0, expectCode, expectFresh402, oneChallenge, paid } from '../machine/helpers.js';
import { paidTempo, quoteOf, signTransfer, stablecoinOffer, transactionPayload } from '../tempo/helpers.js';
import { SINGLE_CALL_OFFERS } from '../../../src/purchase/machine/sale/offer.js';
import { SaleWorld, answer } from './helpers.js';

/*
 * Rules of a single-call sale (7.4) that only the machine's caller sees: which methods a resource offers, who is
 * told what before paying, and what a refused purchase gives back. One rule per test, every port in memory.
 */

/** The call's price in base units (0.25 of a 6-decimal token). */
const CALL_UNITS = '250000';
const TEMPO_FIRST = { [HEADERS.paymentMethods]: `${PAYMENT_METHODS.tempo}, ${PAYMENT_METHODS.stripe}` };

/** A resource listing tempo before stripe; `stablecoin` says whether the deployment has the stablecoin ports and offer. */
function tempoFirst(options: { stablecoin: boolean; amount: string | undefined }): { world: SaleWorld; ports: SalePorts; config: SaleConfig } {
  const world = new SaleWorld();
  const ports: SalePorts = options.stablecoin
    ? {
        ...world.ports,
        stablecoin: {
          network: new FakeStablecoinNetwork(),
          transfers: new MemoryTransferStore(),
          walletCaps: new MemoryWalletCaps(),
          locations: new FixedWalletLocations(),
        },
      }
    : world.ports;
  const config: SaleConfig = {
    ...world.config,
    ...(options.stablecoin ? { stablecoin: stablecoinOffer({ sellsToUnplaceableBuyers: true }) } : {}),
    sale: {
      ...world.config.sale,
      methods: [PAYMENT_METHODS.tempo, PAYMENT_METHODS.stripe],
      ...(options.amount === undefined ? {} : { stablecoinAmount: options.amount }),
    },
  };
  return { world, ports, config };
}

describe('the methods a resource sells single calls by (7.4)', () => {
  it('offers a card call, not a stablecoin one, where the deployment has no stablecoin though the call has a price in base units', async () => {
    const { world, ports, config } = tempoFirst({ stablecoin: false, amount: CALL_UNITS });
    const challenge = oneChallenge(answer(await decideSale(world.request(TEMPO_FIRST), ports, config)));
    expect(challenge.method).toBe(PAYMENT_METHODS.stripe);
  });

  it('offers a card call, not a stablecoin one, where the call has no price in base units though the deployment has a stablecoin', async () => {
    const { world, ports, config } = tempoFirst({ stablecoin: true, amount: undefined });
    const challenge = oneChallenge(answer(await decideSale(world.request(TEMPO_FIRST), ports, config)));
    expect(challenge.method).toBe(PAYMENT_METHODS.stripe);
  });

  it('offers a stablecoin call first where the deployment lists it first and sells by it', async () => {
    const { world, ports, config } = tempoFirst({ stablecoin: true, amount: CALL_UNITS });
    const challenge = oneChallenge(answer(await decideSale(world.request(), ports, config)));
    expect(challenge.method).toBe(PAYMENT_METHODS.tempo);
  });
});

describe('what a signed agent asks for with Service-Purchase (7.4)', () => {
  it('gets the resource default, a pack here, for a value that is neither exact nor pack', async () => {
    const world = new SaleWorld({ sale: { defaultKind: 'pack' } });
    const challenge = oneChallenge(answer(await world.decide({ 'service-purchase': 'bulk' })));
    expect(world.store.challenge(challenge.id)?.kind).toBe('pack');
  });

  it('gets a single call for exact, whatever the default, in any case and with spaces', async () => {
    const world = new SaleWorld({ sale: { defaultKind: 'pack' } });
    const challenge = oneChallenge(answer(await world.decide({ 'service-purchase': ' Exact ' })));
    expect(world.store.challenge(challenge.id)?.kind).toBe('exact');
  });
});

describe('the stablecoin offer of a single call', () => {
  it('cannot be made where the deployment has no stablecoin', () => {
    const { ports, config } = tempoFirst({ stablecoin: false, amount: CALL_UNITS });
    expect(() => SINGLE_CALL_OFFERS.tempo.offer(config, null, ports)).toThrow('/api/priced/echo sells no single call by tempo');
  });

  it('cannot be made where the call has no price in base units', () => {
    const { ports, config } = tempoFirst({ stablecoin: true, amount: undefined });
    expect(() => SINGLE_CALL_OFFERS.tempo.offer(config, null, ports)).toThrow('/api/priced/echo sells no single call by tempo');
  });
});

describe('the sale of a resource', () => {
  it('refuses to decide a request for another resource (a wiring fault, not an answer)', async () => {
    const world = new SaleWorld();
    await expect(world.decide({}, { resource: '/api/priced/other' })).rejects.toThrow(TypeError);
  });
});

describe('a stablecoin call re-priced after its challenge (7.4 metered_unavailable_for_stablecoin)', () => {
  async function paying(): Promise<{ world: SaleWorld; ports: SalePorts; config: SaleConfig; headers: Record<string, string> }> {
    const { world, ports, config } = tempoFirst({ stablecoin: true, amount: CALL_UNITS });
    const challenge = oneChallenge(answer(await decideSale(world.request(TEMPO_FIRST), ports, config)));
    const serialized = await signTransfer(quoteOf(challenge), {}, T0 + 300);
    return { world, ports, config, headers: paidTempo(challenge, transactionPayload(serialized)) };
  }

  it('is refused when the call costs another amount of base units', async () => {
    const { world, ports, config, headers } = await paying();
    const dearer = { ...config, sale: { ...config.sale, stablecoinAmount: '300000' } };
    expectCode(answer(await decideSale(world.request(headers), ports, dearer)), PURCHASE_ERRORS.metered_unavailable_for_stablecoin);
  });

  it('is refused when the stablecoin token changed', async () => {
    const { world, ports, config, headers } = await paying();
    const moved = { ...config, stablecoin: stablecoinOffer({ sellsToUnplaceableBuyers: true, token: '0x20c0000000000000000000000000000000000001' }) };
    expectCode(answer(await decideSale(world.request(headers), ports, moved)), PURCHASE_ERRORS.metered_unavailable_for_stablecoin);
  });

  it('is refused when the call costs the balance something else', async () => {
    const { world, ports, config, headers } = await paying();
    const dearer = { ...config, sale: { ...config.sale, priceNano: '300000000' } };
    expectCode(answer(await decideSale(world.request(headers), ports, dearer)), PURCHASE_ERRORS.metered_unavailable_for_stablecoin);
  });

  it('is served when only the case of the token address differs', async () => {
    const { world, ports, config, headers } = await paying();
    const upper = { ...config, stablecoin: stablecoinOffer({ sellsToUnplaceableBuyers: true, token: '0x20C0000000000000000000000000000000000000' }) };
    const outcome: SaleOutcome = await decideSale(world.request(headers), ports, upper);
    expect(isCallAnswer(outcome) && outcome.status).toBe(200);
  });
});

describe('who is told what before paying for a call (7.4)', () => {
  it("tells an unidentified caller presenting an agent's call challenge to authenticate as that agent, where unidentified calls are not sold", async () => {
    const world = new SaleWorld();
    const challenge = oneChallenge(answer(await world.decide()));
    world.config = { ...world.config, sale: { ...world.config.sale, anonymous: false } };
    expectCode(answer(await world.anonymous(paid(challenge))), PURCHASE_ERRORS.terms_acceptance_unauthenticated);
  });

  it("refuses a card call when the card's country cannot be read at the per-call market check", async () => {
    const world = new SaleWorld({ sale: { cardCountries: ['US'] } });
    const challenge = oneChallenge(answer(await world.decide()));
    let reads = 0;
    const flaky = Object.assign(Object.create(world.processor) as typeof world.processor, {
      instrumentCountry(): string {
        reads += 1;
        if (reads > 1) throw new Error('processor unreachable');
        return 'US';
      },
    });
    const outcome = await decideSale(world.request(paid(challenge)), { ...world.ports, processor: flaky }, world.config);
    expectCode(answer(outcome), PURCHASE_ERRORS.metered_unavailable_for_card);
    expect(world.processor.chargeCalls()).toBe(0);
  });
});

describe('a refused call purchase gives back the counts it took (7.4 caps)', () => {
  it('a declined card leaves the buyer its one call of the day', async () => {
    const world = new SaleWorld({ charges: ['declined'], sale: { caps: { principalPerDay: 1, ipPerDay: 5, instrumentPerDay: 5, platformPerDay: 10 } } });
    const declined = await world.decide(paid(oneChallenge(answer(await world.decide())), 'spt_1'));
    expect(isCallAnswer(declined)).toBe(false);
    const second = await world.decide(paid(oneChallenge(answer(await world.decide())), 'spt_2'));
    expect(isCallAnswer(second) && second.status).toBe(200);
  });

  it('a second card presented for a challenge already paid leaves the buyer the calls it had left', async () => {
    const world = new SaleWorld({ sale: { caps: { principalPerDay: 2, ipPerDay: 5, instrumentPerDay: 5, platformPerDay: 10 } } });
    const challenge = oneChallenge(answer(await world.decide()));
    const first = await world.decide(paid(challenge, 'spt_1'));
    expect(isCallAnswer(first) && first.status).toBe(200);
    const again = await world.decide(paid(challenge, 'spt_2'));
    expectFresh402(answer(again), PAYMENT_PROBLEMS.invalidChallenge);
    const next = await world.decide(paid(oneChallenge(answer(await world.decide())), 'spt_3'));
    expect(isCallAnswer(next) && next.status).toBe(200);
  });
});
