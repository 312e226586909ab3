import { expect } from 'vitest';
import {
  decidePurchase,
  decideSale,
  decodeBase64urlJson,
  isCallAnswer,
  type CallAnswer,
  type PurchaseAnswer,
  type PurchaseOutcome,
  type PurchaseRequest,
  type SaleConfig,
  type SaleOutcome,
  type SalePorts,
  type SaleRequest,
  type SingleCallOffer,
} from '../../../src/purchase/index.js';
import {
  FakeCardInstruments,
  FakeCardProcessor,
  ManualClock,
  MemoryAgentAccounts,
  MemoryBuyerDirectory,
  MemoryCapCounters,
  MemoryFunding,
  MemoryPurchaseLock,
  MemoryPurchaseStore,
  MemorySaleStore,
  ScriptedCallServer,
  SeededRandom,
  type ScriptedCharge,
  type ScriptedServe,
} from '../../../src/purchase/testing/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_CACHE_CONTROL, PAYMENT_METHODS, PURCHASE_KINDS } from '../../../src/spec/payments.js';
import { BUYER, TERMS_LINK, VERSION, baseConfig } from '../machine/helpers.js';

export const RESOURCE = '/api/priced/echo';
export const OTHER_RESOURCE = '/api/priced/other';
export const CALL_NANO = '250000000';
export const CALL_PRICE = { amount: '25', currency: 'usd' } as const;
export const ADDRESS = '203.0.113.7';
const IDENTITY = 'https://buyer.agent.example/.well-known/jwks.json';
export const FUNDING_RETRY_AFTER = 7;

function saleOffer(overrides: Partial<SingleCallOffer> = {}): SingleCallOffer {
  return {
    resource: RESOURCE,
    offerId: 'call_echo',
    price: CALL_PRICE,
    priceNano: CALL_NANO,
    methods: [PAYMENT_METHODS.stripe],
    cardOpen: true,
    anonymous: true,
    defaultKind: PURCHASE_KINDS.exact,
    caps: { principalPerDay: 3, ipPerDay: 3, instrumentPerDay: 3, platformPerDay: 10 },
    fundingRetryAfterSeconds: FUNDING_RETRY_AFTER,
    ...overrides,
  };
}

/** Every port of a priced resource in memory, around a hand-moved clock, with a config the deployment may flip. */
export class SaleWorld {
  readonly clock: ManualClock;
  readonly store = new MemoryPurchaseStore();
  readonly lock = new MemoryPurchaseLock();
  readonly buyers = new MemoryBuyerDirectory();
  readonly processor: FakeCardProcessor;
  readonly sales = new MemorySaleStore();
  readonly funding = new MemoryFunding((payer) => this.store.balance(payer));
  readonly caps = new MemoryCapCounters();
  readonly cards = new FakeCardInstruments();
  readonly accounts = new MemoryAgentAccounts();
  readonly server: ScriptedCallServer;
  readonly ports: SalePorts;
  config: SaleConfig;

  constructor(options: { charges?: readonly ScriptedCharge[]; serves?: readonly ScriptedServe[]; sale?: Partial<SingleCallOffer>; now?: number } = {}) {
    this.clock = new ManualClock(options.now ?? 1_789_732_800);
    this.processor = new FakeCardProcessor(options.charges ?? []);
    this.server = new ScriptedCallServer(options.serves ?? []);
    this.ports = {
      clock: this.clock,
      random: new SeededRandom(),
      processor: this.processor,
      store: this.store,
      lock: this.lock,
      buyers: this.buyers,
      sales: this.sales,
      funding: this.funding,
      caps: this.caps,
      cards: this.cards,
      accounts: this.accounts,
      server: this.server,
    };
    this.config = { ...baseConfig(), sale: saleOffer(options.sale) };
  }

  /** A signed agent's call (assent, credential, methods and purchase kind covered). */
  request(headers: Record<string, string> = {}, options: Partial<Omit<SaleRequest, 'headers'>> = {}): SaleRequest {
    return {
      buyer: { agentUrl: BUYER },
      signed: true,
      coveredHeaders: [HEADERS.paymentAuthorization, HEADERS.termsAccepted, HEADERS.paymentMethods, HEADERS.purchase],
      headers,
      now: this.clock.now(),
      resource: RESOURCE,
      clientAddress: ADDRESS,
      identity: IDENTITY,
      body: new TextEncoder().encode('{"q":1}'),
      ...options,
    };
  }

  decide(headers: Record<string, string> = {}, options: Partial<Omit<SaleRequest, 'headers'>> = {}): Promise<SaleOutcome> {
    return decideSale(this.request(headers, options), this.ports, this.config);
  }

  /** An unidentified caller (no signature, no bearer). */
  anonymous(headers: Record<string, string> = {}, options: Partial<Omit<SaleRequest, 'headers'>> = {}): Promise<SaleOutcome> {
    const { identity: _none, ...unidentified } = this.request(headers, { buyer: null, signed: false, coveredHeaders: [], ...options });
    return decideSale(unidentified, this.ports, this.config);
  }

  /** The same credential at POST /api/mpp/credits. */
  atCredits(headers: Record<string, string>, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): Promise<PurchaseOutcome> {
    return decidePurchase({ ...this.request(headers), ...options }, this.ports, this.config);
  }

  available(payer = BUYER): string {
    return this.funding.available(payer);
  }
}

/** The 7.4 answer (not the call's own response). */
export function answer(outcome: SaleOutcome): PurchaseAnswer {
  if (isCallAnswer(outcome)) throw new Error(`expected a 7.4 answer, got the call's ${outcome.status}`);
  return outcome;
}

/** The call's own response, funded: its status and body, the terms headers; bought with a credential: no-store and, on 2xx, the receipt. */
export function expectCall(outcome: SaleOutcome, status: number, bought: { chargeId: string } | null, version = VERSION): CallAnswer {
  if (!isCallAnswer(outcome)) throw new Error(`expected the call's response, got ${outcome.status} ${outcome.code}`);
  expect(outcome.status).toBe(status);
  expect(outcome.headers[HEADERS.link]).toBe(TERMS_LINK);
  expect(outcome.headers[HEADERS.termsVersion]).toBe(version);
  expect(outcome.headers[HEADERS.wwwAuthenticate]).toBeUndefined();
  if (bought === null) {
    expect(outcome.headers[HEADERS.paymentReceipt]).toBeUndefined();
  } else {
    expect(outcome.headers[HEADERS.cacheControl]).toBe(PAYMENT_CACHE_CONTROL);
    if (status >= 200 && status < 300) {
      const receipt = decodeBase64urlJson(outcome.headers[HEADERS.paymentReceipt]!);
      expect(receipt).toMatchObject({ ok: true, value: { method: PAYMENT_METHODS.stripe, reference: bought.chargeId, status: 'success' } });
    } else expect(outcome.headers[HEADERS.paymentReceipt]).toBeUndefined();
  }
  return outcome;
}

export function bodyJson(outcome: CallAnswer): unknown {
  return JSON.parse(new TextDecoder().decode(outcome.body!));
}
