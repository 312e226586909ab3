import { expect } from 'vitest';
import { MEDIA_TYPES } from '../../../src/spec/media-types.js';
import { PAYMENT_CREDENTIAL_HEADER, PAYMENT_METHODS, type PaymentProblemRecord } from '../../../src/spec/payments.js';
import { problemTypeUrl } from '../../../src/spec/problem-types.js';
import type { PurchaseErrorRecord } from '../../../src/spec/types.js';
import {
  credentialFor,
  decodeBase64urlJson,
  isGranted,
  decidePurchase,
  paymentChallenges,
  serializeCredential,
  singlePaymentChallenge,
  type PaymentChallenge,
  type PurchaseConfig,
  type PurchaseOutcome,
  type PurchasePorts,
  type PurchaseRequest,
} from '../../../src/purchase/index.js';
import {
  FakeCardProcessor,
  MemoryBuyerDirectory,
  MemoryPurchaseLock,
  ManualClock,
  MemoryPurchaseStore,
  SeededRandom,
  type ScriptedCharge,
} from '../../../src/purchase/testing/index.js';
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
  readonly lock = new MemoryPurchaseLock();
  readonly buyers = new MemoryBuyerDirectory();
  readonly processor: FakeCardProcessor;
  readonly ports: PurchasePorts;
  config: PurchaseConfig;

  constructor(script: readonly ScriptedCharge[] = [], config: Partial<PurchaseConfig> = {}) {
    this.processor = new FakeCardProcessor(script);
    this.ports = { clock: this.clock, random: new SeededRandom(), processor: this.processor, store: this.store, lock: this.lock, buyers: this.buyers };
    this.config = baseConfig(config);
  }

  request(headers: Record<string, string>, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): PurchaseRequest {
    return signedBuyerRequest(this.clock.now(), headers, options);
  }

  decide(headers: Record<string, string> = {}, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): Promise<PurchaseOutcome> {
    return this.decideRequest(this.request(headers, options));
  }

  decideRequest(request: PurchaseRequest): Promise<PurchaseOutcome> {
    return decidePurchase(request, this.ports, this.config);
  }

  /** Asks for a challenge (no credential) and returns it. */
  async challenge(): Promise<PaymentChallenge> {
    return oneChallenge(await this.decide());
  }

  balance(buyer = BUYER): string {
    return this.store.balance(buyer);
  }
}

/** A request of BUYER signed over the credential, the assent and the methods it lists (the paid retry's coverage). */
export function signedBuyerRequest(now: number, headers: Record<string, string>, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): PurchaseRequest {
  return {
    buyer: { agentUrl: BUYER },
    signed: true,
    coveredHeaders: [HEADERS.paymentAuthorization, HEADERS.termsAccepted, HEADERS.paymentMethods],
    headers,
    now,
    ...options,
  };
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

export const TERMS_LINK = `<${TERMS_URL}>; rel="terms-of-service"`;
export const twice = (nano: string): string => String(2n * BigInt(nano));

/** A 402 of the Payment scheme or a 7.4 problem row: status, type, one fresh challenge, terms headers; returns the challenge. */
export function expectFresh402(
  answer: PurchaseOutcome,
  refusal: PaymentProblemRecord | PurchaseErrorRecord,
  version = VERSION,
  method: string = PAYMENT_METHODS.stripe,
) {
  const [slug, base] = 'slug' in refusal ? [refusal.slug, refusal.base] : [refusal.code, refusal.problemBase!];
  expect(answer.status).toBe(402);
  expect(isGranted(answer)).toBe(false);
  expect(answer.body.type).toBe(problemTypeUrl(DEFAULT_PROBLEM_BASES, base, slug));
  expect(answer.headers[HEADERS.contentType]).toBe(MEDIA_TYPES.problemJson);
  expect(answer.headers[HEADERS.link]).toBe(TERMS_LINK);
  expect(answer.headers[HEADERS.termsVersion]).toBe(version);
  expect(answer.headers[HEADERS.retryAfter]).toBeUndefined();
  expect(challengeCount(answer)).toBe(1);
  const challenge = oneChallenge(answer);
  expect(challenge.method).toBe(method);
  expect(answer.body.challengeId).toBe(challenge.id);
  return challenge;
}

/** A code row (401, 403, 409, 503): status, code, no Payment challenge, Retry-After and retry object as the catalogue says. */
export function expectCode(answer: PurchaseOutcome, record: PurchaseErrorRecord) {
  expect(answer.status).toBe(record.status);
  expect(isGranted(answer)).toBe(false);
  expect(answer.body.error_code).toBe(record.code);
  expect(challengeCount(answer)).toBe(0);
  expect(answer.headers[HEADERS.retryAfter] !== undefined).toBe(record.retryAfter);
  const retry = record.retry
    ? { sameCredential: record.retry.sameCredential, ...(record.retry.sameCredential ? { credentialHeader: PAYMENT_CREDENTIAL_HEADER } : {}) }
    : undefined;
  expect(answer.body.retry).toEqual(retry);
}

export function expectGranted(answer: PurchaseOutcome, balance: string, chargeId: string) {
  expect(answer.status).toBe(200);
  if (!isGranted(answer)) throw new Error(`expected 200, got ${answer.status} ${answer.code}`);
  expect(answer.body).toMatchObject({ ok: true, granted: true, packId: 'mpp_5', balance: { nano: balance }, paymentIntentId: chargeId });
  expect(challengeCount(answer)).toBe(0);
  expect(answer.headers[HEADERS.link]).toBe(TERMS_LINK);
  const receipt = decodeBase64urlJson(answer.headers[HEADERS.paymentReceipt]!);
  expect(receipt).toMatchObject({ ok: true, value: { method: PAYMENT_METHODS.stripe, reference: chargeId, status: 'success' } });
  expect(answer.body.receipt).toEqual((receipt as { value: unknown }).value);
}
