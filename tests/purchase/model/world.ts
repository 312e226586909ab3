import {
  credentialFor,
  decidePurchase,
  serializeCredential,
  type PaymentChallenge,
  type PurchaseConfig,
  type PurchaseOutcome,
  type PurchasePorts,
  type PurchaseRequest,
} from '../../../src/purchase/index.js';
import {
  FakeCardProcessor,
  ManualClock,
  MemoryBuyerDirectory,
  MemoryPurchaseLock,
  MemoryPurchaseStore,
  SeededRandom,
} from '../../../src/purchase/testing/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { STRIPE_PAYLOAD_MEMBERS } from '../../../src/spec/payments.js';
import { BUYER, OTHER_BUYER, T0, baseConfig } from '../machine/helpers.js';

export const BUYERS = [BUYER, OTHER_BUYER] as const;
export const TOKENS = ['spt_model_a', 'spt_model_b', 'spt_model_c'] as const;

/** How the buyer states its assent on a presentation: not at all, covered by its signature, sent but not covered, or an old version. */
export type Assent = 'none' | 'covered' | 'uncovered' | 'stale';
const STALE_VERSION = '2020-01-01';

/** One credential as a buyer presents it: which challenge, which token, who, how it authenticates and assents. */
export interface Presentation {
  readonly challenge: PaymentChallenge;
  readonly token: string;
  readonly buyer: string;
  /** false: no signature and no bearer (buyer null). */
  readonly authenticated: boolean;
  readonly assent: Assent;
}

/**
 * Every port of POST /api/mpp/credits in memory, with the faults the model flips: the grant store failing
 * (a crash between charge and grant), the assent store failing, the lock unavailable or held elsewhere.
 */
export class ModelWorld {
  readonly clock = new ManualClock(T0);
  readonly store = new MemoryPurchaseStore();
  readonly lock = new MemoryPurchaseLock();
  readonly buyers = new MemoryBuyerDirectory();
  readonly processor = new FakeCardProcessor();
  readonly ports: PurchasePorts;
  config: PurchaseConfig = baseConfig();
  /** Locks taken by "a purchase settling elsewhere", by buyer, with their release. */
  readonly heldElsewhere = new Map<string, () => unknown>();

  constructor(ports: Partial<PurchasePorts> = {}) {
    this.ports = {
      clock: this.clock,
      random: new SeededRandom('model'),
      processor: this.processor,
      store: this.store,
      lock: this.lock,
      buyers: this.buyers,
      ...ports,
    };
  }

  request(p: Presentation | null, buyer: string = BUYERS[0]): PurchaseRequest {
    const covered = [HEADERS.paymentAuthorization, HEADERS.paymentMethods];
    if (p === null) return { buyer: { agentUrl: buyer }, signed: true, coveredHeaders: covered, headers: {}, now: this.clock.now() };
    const headers: Record<string, string> = {
      [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(p.challenge, { [STRIPE_PAYLOAD_MEMBERS.spt]: p.token })),
    };
    if (p.assent !== 'none') headers[HEADERS.termsAccepted] = p.assent === 'stale' ? STALE_VERSION : this.config.terms.version;
    if (!p.authenticated) return { buyer: null, signed: false, coveredHeaders: [], headers, now: this.clock.now() };
    return {
      buyer: { agentUrl: p.buyer },
      signed: true,
      coveredHeaders: p.assent === 'uncovered' ? covered : [...covered, HEADERS.termsAccepted],
      headers,
      now: this.clock.now(),
    };
  }

  decide(p: Presentation | null, buyer?: string): Promise<PurchaseOutcome> {
    return decidePurchase(this.request(p, buyer), this.ports, this.config);
  }
}
