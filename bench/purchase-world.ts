/** The card purchase both purchase benches run: one pack, a signed buyer, the machine's ports in memory around a store. */
import {
  credentialFor,
  serializeCredential,
  singlePaymentChallenge,
  type PaymentChallenge,
  type PurchaseConfig,
  type PurchaseOutcome,
  type PurchasePorts,
  type PurchaseRequest,
  type PurchaseStore,
} from '../src/purchase/index.js';
import {
  FakeCardProcessor,
  ManualClock,
  MemoryBuyerDirectory,
  MemoryPurchaseLock,
  type MemoryPurchaseStore,
  SeededRandom,
  type ScriptedCharge,
} from '../src/purchase/testing/index.js';
import { HEADERS } from '../src/spec/headers.js';
import { STRIPE_PAYLOAD_MEMBERS } from '../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES } from '../src/spec/problem-types.js';

export const T0 = 1_789_732_800;
const BUYER = 'https://buyer.agent.example/';

export const PACK_CONFIG: PurchaseConfig = {
  realm: 'platform.example',
  problemBases: DEFAULT_PROBLEM_BASES,
  terms: { url: 'https://platform.example/doc/terms-of-service', version: '2026-07-31' },
  mppEnabled: true,
  purchasesOpen: true,
  pack: { packId: 'mpp_5', price: { amount: '500', currency: 'usd' }, creditNano: '5000000000', networkId: 'profile_bench' },
};

/** The machine's ports in memory around `store`, the card processor answering as `script` says (settled otherwise). */
export function purchasePorts<S extends PurchaseStore = MemoryPurchaseStore>(
  seed: string,
  store: S,
  script: readonly ScriptedCharge[] = [],
): PurchasePorts & { processor: FakeCardProcessor; store: S } {
  return {
    clock: new ManualClock(T0),
    random: new SeededRandom(seed),
    processor: new FakeCardProcessor(script),
    store,
    lock: new MemoryPurchaseLock(),
    buyers: new MemoryBuyerDirectory(),
  };
}

/** A signed agent's request, the credential and assent among its covered components. */
export function buyerRequest(headers: Record<string, string>): PurchaseRequest {
  return { buyer: { agentUrl: BUYER }, signed: true, coveredHeaders: [HEADERS.paymentAuthorization, HEADERS.termsAccepted], headers, now: T0 };
}

export function challengeOf(outcome: PurchaseOutcome): PaymentChallenge {
  const parsed = singlePaymentChallenge(outcome.headers[HEADERS.wwwAuthenticate] ?? '');
  if (!parsed.ok) throw new Error(`no challenge: ${outcome.status}`);
  return parsed.challenge;
}

/** The paid retry: a card credential answering `challenge` with `token`, and assent to the terms. */
export function paidHeaders(challenge: PaymentChallenge, token: string): Record<string, string> {
  return {
    [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(challenge, { [STRIPE_PAYLOAD_MEMBERS.spt]: token })),
    [HEADERS.termsAccepted]: PACK_CONFIG.terms.version,
  };
}
