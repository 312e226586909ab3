import { afterAll, describe, expect, it } from 'vitest';
import { errorCodeOf } from '../../src/harness/judge-purchase.js';
import { InProcessTarget } from '../../src/harness/targets/in-process.js';
import type { FakeStablecoinNetwork, MemoryFunding } from '../../src/purchase/testing/index.js';
import { REFERENCE_PRICED_PATH, type ReferencePurchases } from '../../src/reference/purchases.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PURCHASE_KINDS } from '../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { Buyer, cardPayment, freshTestToken, type PaidExchange } from '../../suites/lib/buyer.js';
import { PREFER_TEMPO, signTransfer, stablecoinCredential, tempoOffer } from '../../suites/lib/stablecoin.js';

/**
 * Races of one credential with itself that only holding a port of the reference's purchase machine can force: a
 * presentation held at one step (the challenge looked up, the card's market read, the buyer's lock, the call claimed
 * or funded, the call running) while another runs to its end. The suites send such races on the wire
 * (suites/lib/at-once.ts); here each interleaving is made exactly, on the embedded reference, through its paid routes.
 */

const E = PURCHASE_ERRORS;
const target = new InProcessTarget();
afterAll(() => target.close());
let serial = 0;
const EXACT = { [HEADERS.purchase]: PURCHASE_KINDS.exact };

/** Holds the next call of one of the reference's port methods until released; `held` resolves once a call waits. */
function holdNextCall<T extends object>(object: T, method: keyof T & string): { held: Promise<void>; release: () => void } {
  const original = object[method] as (...args: unknown[]) => unknown;
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = new Promise<void>((resolve) => (reached = resolve));
  Object.assign(object, {
    [method]: async function (this: unknown, ...args: unknown[]) {
      Object.assign(object, { [method]: original });
      reached();
      await gate;
      return original.apply(this, args);
    },
  });
  return { held, release };
}

async function buyer(name: string): Promise<{ b: Buyer; p: ReferencePurchases }> {
  const b = await new Buyer(target, `held-${name}-${serial++}`, () => undefined).register();
  return { b, p: target.purchases! };
}

function challengeOf(exchange: PaidExchange): { echo: Parameters<typeof cardPayment>[0]; version: string } {
  const [first] = exchange.challenges;
  if (!first) throw new Error(`expected a challenge, got ${exchange.status}`);
  return { echo: first.echo, version: exchange.termsVersion ?? '' };
}

const granted = (a: PaidExchange) => a.status >= 200 && a.status < 300;

/** The late presentation is that one purchase: 409 purchase_already_granted, a success naming the same payment, or a 503 asking for the credential again. */
function expectSamePurchase(late: PaidExchange, first: PaidExchange): void {
  if (granted(late)) {
    expect(late.response.headers[HEADERS.paymentReceipt]).toBe(first.response.headers[HEADERS.paymentReceipt]);
    return;
  }
  if (late.status === 503) return;
  expect([late.status, errorCodeOf(late.body)]).toEqual([409, E.purchase_already_granted.code]);
}

describe('the same pack credential, one presentation held at a step while another runs to its end', () => {
  const cases: ReadonlyArray<{ readonly where: string; readonly hold: (p: ReferencePurchases) => ReturnType<typeof holdNextCall> }> = [
    { where: "at the challenge's look-up", hold: (p) => holdNextCall(p.ports.store, 'challenge') },
    { where: "at the card's market, before the charge record is opened", hold: (p) => holdNextCall(p.ports.processor, 'instrumentCountry') },
  ];
  it.each(cases)('card, held $where: one purchase, credited once, charged once', async ({ hold }) => {
    const { b, p } = await buyer('card');
    const offer = challengeOf(await b.post());
    const headers = cardPayment(offer.echo, freshTestToken('settled'), offer.version);
    const held = hold(p);
    const second = b.post({ headers });
    await held.held;
    const first = await b.post({ headers });
    held.release();
    const late = await second;
    expect(granted(first)).toBe(true);
    expectSamePurchase(late, first);
    expect(await p.store.balance(b.agentUrl)).toBe(p.config.pack.creditNano);
    expect(p.processor.charges.size).toBe(1);
  });

  const transferCases: ReadonlyArray<{ readonly where: string; readonly hold: (p: ReferencePurchases) => ReturnType<typeof holdNextCall> }> = [
    { where: "at the challenge's look-up", hold: (p) => holdNextCall(p.ports.store, 'challenge') },
    { where: "at the buyer's lock, before the transfer record is opened", hold: (p) => holdNextCall(p.ports.lock, 'acquire') },
  ];
  it.each(transferCases)('stablecoin, held $where: one transfer broadcast, credited once', async ({ hold }) => {
    const { b, p } = await buyer('transfer');
    const offer = tempoOffer(await b.post({ headers: PREFER_TEMPO }));
    const headers = { ...PREFER_TEMPO, ...stablecoinCredential(offer, await signTransfer(offer)) };
    const held = hold(p);
    const second = b.post({ headers });
    await held.held;
    const first = await b.post({ headers });
    held.release();
    const late = await second;
    expect(granted(first)).toBe(true);
    expectSamePurchase(late, first);
    expect(await p.store.balance(b.agentUrl)).toBe(p.config.pack.creditNano);
    expect((p.stablecoin.network as FakeStablecoinNetwork).broadcasts).toHaveLength(1);
  });
});

describe('the same call credential, one presentation interleaved with another at a step of the sale', () => {
  async function paidCall(name: string): Promise<{ b: Buyer; p: ReferencePurchases; headers: Record<string, string> }> {
    const { b, p } = await buyer(name);
    const offer = challengeOf(await b.post({ path: REFERENCE_PRICED_PATH, headers: EXACT }));
    return { b, p, headers: { ...EXACT, ...cardPayment(offer.echo, freshTestToken('settled'), offer.version) } };
  }
  const callWith = (b: Buyer, headers?: Record<string, string>) => b.post({ path: REFERENCE_PRICED_PATH, ...(headers ? { headers } : {}) });

  it('presented while its call runs: 409 call_in_progress; the call runs once', async () => {
    const { b, p, headers } = await paidCall('in-progress');
    let during: PaidExchange | undefined;
    p.sale.server.during = async () => {
      p.sale.server.during = undefined;
      during = await callWith(b, headers);
    };
    expect(granted(await callWith(b, headers))).toBe(true);
    expect([during?.status, errorCodeOf(during?.body)]).toEqual([409, E.call_in_progress.code]);
    expect(p.sale.server.ran).toHaveLength(1);
  });

  it('presented again just before the first presentation claims the call: the call runs once, the other is 409', async () => {
    const { b, p, headers } = await paidCall('claim');
    const sales = p.sale.sales;
    const move = sales.move.bind(sales);
    let other: PaidExchange | undefined;
    sales.move = ((...args: Parameters<typeof move>) => {
      if (args[2] !== 'serving' || other !== undefined) return move(...args);
      sales.move = move;
      return callWith(b, headers).then((answer) => {
        other = answer;
        return move(...args);
      });
    }) as unknown as typeof move;
    const first = await callWith(b, headers);
    sales.move = move;
    const [won, lost] = first.status === 409 ? [other!, first] : [first, other!];
    expect(granted(won)).toBe(true);
    expect(lost.status).toBe(409);
    expect([E.call_in_progress.code, E.call_already_served.code]).toContain(errorCodeOf(lost.body));
    expect(p.sale.server.ran).toHaveLength(1);
  });

  it('presented again just before the first presentation is funded: the later one serves, the first answers 409, never funding_failed', async () => {
    const { b, p, headers } = await paidCall('fund');
    const funding = p.sale.ports.funding as MemoryFunding;
    const hold = funding.hold.bind(funding);
    let meanwhile: PaidExchange | undefined;
    let entered = false;
    funding.hold = ((...args: Parameters<typeof hold>) => {
      if (entered) return hold(...args);
      entered = true;
      return callWith(b, headers).then((answer) => {
        meanwhile = answer;
        return hold(...args);
      });
    }) as unknown as typeof hold;
    const earlier = await callWith(b, headers);
    funding.hold = hold;
    expect(granted(meanwhile!)).toBe(true);
    expect(earlier.status).toBe(409);
    expect([E.call_in_progress.code, E.call_already_served.code]).toContain(errorCodeOf(earlier.body));
    expect(p.sale.server.ran).toHaveLength(1);
  });

  it('a call paid from the balance while another holds the whole of it: 503 funding_unavailable, one call run', async () => {
    const { b, p } = await buyer('balance-held');
    const pack = challengeOf(await b.post());
    expect(granted(await b.post({ headers: cardPayment(pack.echo, freshTestToken('settled'), pack.version) }))).toBe(true);
    p.saleOffer = { ...p.saleOffer, priceNano: p.config.pack.creditNano };
    let meanwhile: PaidExchange | undefined;
    p.sale.server.during = async () => {
      p.sale.server.during = undefined;
      meanwhile = await callWith(b, EXACT);
    };
    expect(granted(await callWith(b, EXACT))).toBe(true);
    expect([meanwhile?.status, errorCodeOf(meanwhile?.body)]).toEqual([503, E.funding_unavailable.code]);
    expect(p.sale.server.ran).toHaveLength(1);
  });
});
