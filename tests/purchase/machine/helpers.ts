import { expect } from 'vitest';
import {
  FakeCardProcessor,
  ManualClock,
  MemoryPurchaseStore,
  SeededRandom,
  credentialFor,
  decidePurchase,
  paymentChallenges,
  serializeCredential,
  singlePaymentChallenge,
  type PaymentChallenge,
  type PurchaseConfig,
  type PurchaseOutcome,
  type PurchasePorts,
  type PurchaseRequest,
  type ScriptedCharge,
} from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { DEFAULT_PROBLEM_BASES } from '../../../src/spec/problem-types.js';

export const T0 = 1_789_732_800;
export const BUYER = 'https://buyer.agent.example/';
export const OTHER_BUYER = 'https://other.agent.example/';
export const TERMS_URL = 'https://platform.example/doc/terms-of-service';
export const VERSION = '2026-07-31';
export const NEXT_VERSION = '2026-10-01';
export const PACK_NANO = '5000000000';

export function baseConfig(overrides: Partial<PurchaseConfig> = {}): PurchaseConfig {
  return {
    realm: 'platform.example',
    problemBases: DEFAULT_PROBLEM_BASES,
    terms: { url: TERMS_URL, version: VERSION },
    mppEnabled: true,
    purchasesOpen: true,
    pack: { packId: 'mpp_5', price: { amount: '500', currency: 'usd' }, creditNano: PACK_NANO, networkId: 'profile_test' },
    ...overrides,
  };
}

/** Every port in memory around a hand-moved clock, and a mutable config the deployment may flip. */
export class World {
  readonly clock = new ManualClock(T0);
  readonly store = new MemoryPurchaseStore();
  readonly processor: FakeCardProcessor;
  readonly ports: PurchasePorts;
  config: PurchaseConfig;

  constructor(script: readonly ScriptedCharge[] = [], config: Partial<PurchaseConfig> = {}) {
    this.processor = new FakeCardProcessor(script);
    this.ports = { clock: this.clock, random: new SeededRandom(), processor: this.processor, store: this.store };
    this.config = baseConfig(config);
  }

  request(headers: Record<string, string>, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): PurchaseRequest {
    return {
      buyer: { agentUrl: BUYER },
      signed: true,
      coveredHeaders: [HEADERS.paymentAuthorization, HEADERS.termsAccepted, HEADERS.paymentMethods],
      headers,
      now: this.clock.now(),
      ...options,
    };
  }

  decide(headers: Record<string, string> = {}, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): Promise<PurchaseOutcome> {
    return decidePurchase(this.request(headers, options), this.ports, this.config);
  }

  /** Asks for a challenge (no credential) and returns it. */
  async challenge(): Promise<PaymentChallenge> {
    return oneChallenge(await this.decide());
  }

  balance(buyer = BUYER): string {
    return this.store.balance(buyer);
  }
}

/** The paid retry: the credential for a challenge, and assent to a version. */
export function paid(challenge: PaymentChallenge, token = 'spt_1', version: string | null = VERSION): Record<string, string> {
  return {
    [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(challenge, { spt: token })),
    ...(version === null ? {} : { [HEADERS.termsAccepted]: version }),
  };
}

/** Asserts exactly one Payment challenge rides on the answer, and returns it. */
export function oneChallenge(answer: PurchaseOutcome): PaymentChallenge {
  const value = answer.headers[HEADERS.wwwAuthenticate];
  expect(value, 'a WWW-Authenticate: Payment challenge').toBeDefined();
  const parsed = singlePaymentChallenge(value!);
  if (!parsed.ok) throw new Error(`no single challenge: ${parsed.detail}`);
  return parsed.challenge;
}

export function challengeCount(answer: PurchaseOutcome): number {
  const value = answer.headers[HEADERS.wwwAuthenticate];
  return value === undefined ? 0 : paymentChallenges(value).challenges.length;
}
