import type { ServiceNaming } from '../../../spec/naming.js';
import type { ProblemBases } from '../../../spec/problem-types.js';
import type { TermsNotice } from '../../wire/wire.js';
import type { ChallengeEcho } from '../../wire/challenge.js';
import type { JsonObject } from '../../wire/json.js';
import type { PaymentMethodId, PURCHASE_KINDS, RefundState } from '../../../spec/payments.js';
import type { StablecoinOffer, StablecoinPorts } from './stablecoin.js';
import type { Awaitable, ChargeAmount } from './values.js';

export type { Awaitable, ChargeAmount } from './values.js';

export type PurchaseKind = (typeof PURCHASE_KINDS)[keyof typeof PURCHASE_KINDS];

/**
 * The ports the purchase machine takes (docs/architecture.md). The machine owns no clock, randomness,
 * processor or storage; in-memory adapters live in ./memory.ts. Every port may answer synchronously (the
 * in-memory adapters) or with a promise (a database, the card processor's API).
 */
/** Seconds since the epoch. */
export interface Clock {
  now(): number;
}

/** Unpredictable bytes: the nonce that makes every challenge id unique. */
export interface Random {
  bytes(length: number): Uint8Array;
}

/** What the card processor says about a charge. `unknown` is a reply, never a state the charge is in. */
export type ChargeOutcome = 'settled' | 'declined' | 'processing' | 'unknown' | 'cancelled-unsettled';

/** What the processor answers to a charge or a status read. `chargeId` is absent when it could not say (an `unknown` reply). */
export interface ChargeReply {
  readonly outcome: ChargeOutcome;
  readonly chargeId?: string;
}

/**
 * The card processor (the `stripe` method: a shared payment token). `charge` is idempotent on its key: the
 * same key answers about the same charge and never creates a second one, which is how the machine resumes a
 * charge whose id it never learned. Either call may throw (a network fault): the outcome is then unknown.
 */
export interface CardProcessor {
  charge(token: string, amount: ChargeAmount, idempotencyKey: string): Awaitable<ChargeReply>;
  status(chargeId: string): Awaitable<ChargeReply>;
  /** The country (ISO 3166-1 alpha-2) of the card behind a token, read before charging; undefined when it cannot be established. */
  instrumentCountry(token: string): Awaitable<string | undefined>;
  /** Refunds a captured charge; says whether the refund is issued or still pending. */
  refund(chargeId: string): Awaitable<RefundState>;
}

/**
 * One purchase at a time per buyer (7.4 purchase_in_flight). `acquire` answers a release function, or null
 * when another presentation for this buyer holds the lock; it throws when the lock itself is unavailable
 * (7.4 purchase_lock_unavailable).
 */
export interface PurchaseLock {
  acquire(buyer: string): Awaitable<(() => Awaitable<void>) | null>;
}

/** Who owns the agents that buy (7.4 ownerless_balance_cap). */
export interface BuyerDirectory {
  hasOwner(buyer: string): Awaitable<boolean>;
}

/** Terms acceptance as recorded before anything is charged (7.4 terms_record_failed). */
export interface TermsAssent {
  readonly buyer: string;
  readonly version: string;
  readonly challengeId: string;
  readonly at: number;
}

/** A settled card payment that matched nothing sold, and its refund (7.4 payment_unreconciled). */
export interface UnreconciledPayment {
  readonly chargeId: string;
  readonly token: string;
  readonly refund: RefundState;
}

/** A challenge the machine issued, as it went out: the echo a credential must repeat byte for byte. */
export interface IssuedChallenge {
  readonly id: string;
  readonly echo: ChallengeEcho;
  /** Clock seconds at issue and at expiry (issue + the challenge lifetime of section 8). */
  readonly issuedAt: number;
  readonly expiresAt: number;
  /** The terms version the challenge names (the one a charge sent under it keeps, 7.4 terms-version-stale). */
  readonly termsVersion: string;
  readonly method: PaymentMethodId;
  /** A pack (redeemed at /api/mpp/credits from any resource) or a single call (redeemed only where issued). */
  readonly kind: PurchaseKind;
  /** The resource path that issued it. */
  readonly origin: string;
  readonly packId: string;
  readonly price: ChargeAmount;
  /** Balance the pack credits, in nano units (a decimal integer string). */
  readonly creditNano: string;
}

/**
 * Where a credential's card charge stands. `sent`: the charge was (or may have been) sent, outcome not yet
 * final; `failed`: the processor reported nothing captured (a decline or an intent cancelled unsettled);
 * `settled`: captured. The record is written before the charge is sent, so every charge sent has one.
 */
export type ChargeState = 'sent' | 'settled' | 'failed';

export interface ChargeRecord {
  /** The challenge id: a challenge is redeemed once, so it keys the credential. */
  readonly challengeId: string;
  readonly token: string;
  readonly idempotencyKey: string;
  /** The buyer the charge was sent for; a resumed credential credits this buyer and no other. */
  readonly buyer: string;
  readonly termsVersion: string;
  readonly packId: string;
  readonly price: ChargeAmount;
  readonly creditNano: string;
  readonly state: ChargeState;
  /** Learned from the processor's first reply that names it. */
  readonly chargeId?: string;
  readonly sentAt: number;
}

/** A pack credited to a buyer, once per challenge. */
export interface Grant {
  readonly challengeId: string;
  readonly buyer: string;
  readonly packId: string;
  readonly creditNano: string;
  /** The card charge's id, or the transaction hash of a transfer: the receipt reference. */
  readonly chargeId: string;
  /** How it was paid (the receipt's method). */
  readonly method: PaymentMethodId;
  readonly termsVersion: string;
  readonly grantedAt: number;
}

/**
 * What the store holds for a credential presented, read at once before any other guard asks (section 3 row 1, 7.4
 * payment_unreconciled): the charge opened under its challenge, whatever token opened it, and the unreconciled payment
 * of its card token. Each is absent when there is none.
 */
export interface CredentialRecords {
  readonly charge?: ChargeRecord;
  readonly unreconciled?: UnreconciledPayment;
}

export type OpenCharge =
  | { readonly opened: true; readonly record: ChargeRecord }
  /** Not opened: the challenge already has a charge (`challenge`), or the token already paid under another challenge (`token`). */
  | { readonly opened: false; readonly clash: 'challenge' | 'token'; readonly existing: ChargeRecord };

export type GrantResult =
  | { readonly granted: true; readonly grant: Grant; readonly balanceNano: string }
  | { readonly granted: false; readonly grant: Grant; readonly balanceNano: string };

/** A charge settled and its grant: `credited` as grant() answers it, absent when the grant failed (the charge stays settled). */
export interface SettledCharge {
  readonly record: ChargeRecord;
  readonly credited?: GrantResult;
}

/** Challenges issued, credentials seen with their charge record, grants per buyer and the balance credited. */
export interface PurchaseStore {
  issue(challenge: IssuedChallenge): Awaitable<void>;
  challenge(id: string): Awaitable<IssuedChallenge | undefined>;
  /** The charge record of a challenge, if a charge was ever opened under it. */
  chargeOf(challengeId: string): Awaitable<ChargeRecord | undefined>;
  /**
   * In one read, what chargeOf(challengeId) and unreconciledOf(token) answer (no unreconciled payment without a token):
   * what a credential presented finds before the lock.
   */
  credentialRecords(challengeId: string, token: string | undefined): Awaitable<CredentialRecords>;
  chargeById(chargeId: string): Awaitable<ChargeRecord | undefined>;
  chargeByKey(idempotencyKey: string): Awaitable<ChargeRecord | undefined>;
  /** The charge a shared payment token opened (a token pays once, so at most one). */
  chargeByToken(token: string): Awaitable<ChargeRecord | undefined>;
  /** Atomically: opens the record unless the challenge or the token already has one; the challenge's clash is told first (the same credential again resumes its charge). */
  openCharge(record: ChargeRecord): Awaitable<OpenCharge>;
  /** Updates the state and, once known, the processor's id of an open charge. */
  updateCharge(challengeId: string, update: { readonly state: ChargeState; readonly chargeId?: string }): Awaitable<ChargeRecord>;
  /** Atomically: credits the grant and the buyer's balance unless this challenge was already granted. */
  grant(grant: Grant): Awaitable<GrantResult>;
  /**
   * updateCharge(challengeId, { state: 'settled', chargeId }) and then grant(grant), one step of the port (a database may
   * send both at once; the grant only for a charge found settled): throws as the update does, having granted nothing;
   * a grant that throws leaves the charge settled and answers no `credited`.
   */
  settleAndGrant(challengeId: string, chargeId: string | undefined, grant: Grant): Awaitable<SettledCharge>;
  grantOf(challengeId: string): Awaitable<Grant | undefined>;
  balance(buyer: string): Awaitable<string>;
  /** Records the buyer's assent; may throw (then nothing is charged). */
  recordAssent(assent: TermsAssent): Awaitable<void>;
  /** A charge for this buyer still `sent` (outcome not final) under another challenge than `except`. */
  pendingChargeOf(buyer: string, except: string): Awaitable<ChargeRecord | undefined>;
  recordUnreconciled(payment: UnreconciledPayment): Awaitable<void>;
  unreconciledOf(token: string): Awaitable<UnreconciledPayment | undefined>;
}

/** The pack /api/mpp/credits sells. */
export interface PackOffer {
  readonly packId: string;
  readonly price: ChargeAmount;
  readonly creditNano: string;
  /** The card processor's profile the token must be minted for (request.methodDetails.networkId). */
  readonly networkId?: string;
}

/** What the deployment sets. Read on every call, so a switch flipped between calls takes effect at once. */
export interface PurchaseConfig {
  /** The Payment realm (the host buyers pay). */
  readonly realm: string;
  readonly problemBases: ProblemBases;
  /** The terms URL and the current version. */
  readonly terms: TermsNotice;
  /** Buying with the card method is open on the deployment (7.4 mpp_disabled). */
  readonly mppEnabled: boolean;
  /** Purchases are open in some market (7.4 purchases_disabled). */
  readonly purchasesOpen: boolean;
  readonly pack: PackOffer;
  /** With a secret a challenge id is an HMAC (unforgeable); without one, a SHA-256 (the store still binds it). */
  readonly challengeSecret?: Uint8Array;
  /**
   * Seconds a challenge is honoured, written into its expires and enforced when a credential comes back; the
   * spec's 300 (7.4, section 8) when absent. Only a test deployment sets another value.
   */
  readonly challengeLifetimeSeconds?: number;
  /** Markets (card countries) purchases are closed in; a card whose country cannot be established is refused too (7.4 purchases_unavailable_region). */
  readonly closedMarkets?: readonly string[];
  /** The purchased balance an agent without an owner may hold, in nano units (7.4 ownerless_balance_cap); no cap when absent. */
  readonly ownerlessBalanceCapNano?: string;
  /** Retry-After seconds on the rows that carry one (7.4); DEFAULT_RETRY_AFTER_S when absent. */
  readonly retryAfterSeconds?: number;
  /** Operator platform keys that claim an ownerless agent when sent in X-Service-Owner-Key (covered when signed). */
  readonly ownerKeys?: readonly string[];
  /** The stablecoin (`tempo`) offer; absent when the deployment sells no transfers (then a tempo credential is 400 method-unsupported). */
  readonly stablecoin?: StablecoinOffer;
  /**
   * The deployment's own names for Service (Service-Terms-Version, Service-Terms-Accepted, Service-Payment-Methods,
   * Service-Purchase, X-Service-Owner-Key, realm=service; src/spec/naming.ts); the spec's neutral ones by default.
   */
  readonly naming?: ServiceNaming;
}

export interface PurchasePorts {
  readonly clock: Clock;
  readonly random: Random;
  readonly processor: CardProcessor;
  readonly store: PurchaseStore;
  readonly lock: PurchaseLock;
  readonly buyers: BuyerDirectory;
  /** The stablecoin network, transfer records, wallet caps and locations; tempo is offered only when these and `config.stablecoin` are both present. */
  readonly stablecoin?: StablecoinPorts;
}

/** A JSON receipt as the Payment-Receipt header and the purchase block carry it. */
export type Receipt = JsonObject;

/** What one challenge offers: the method's `request`, what it sells, and where it may be redeemed. */
export interface ChallengeOffer {
  readonly method: PaymentMethodId;
  readonly kind: PurchaseKind;
  /** The resource path the challenge is issued for (7.4 challenge_origin_mismatch). */
  readonly origin: string;
  /** The method's `request` object (draft-stripe-charge, draft-tempo-charge). */
  readonly request: JsonObject;
  readonly packId: string;
  readonly price: ChargeAmount;
  /** Balance the purchase credits, in nano units (a decimal integer string). */
  readonly creditNano: string;
  /** Further `opaque` members (a single-call sale's call binding, for example). */
  readonly opaque?: JsonObject;
}

/** The stablecoin a deployment sells by: its offer and its ports. */
export interface Stablecoin {
  readonly offer: StablecoinOffer;
  readonly ports: StablecoinPorts;
}

/** The stablecoin offer and its ports when the deployment sells transfers (both configured), else undefined. */
export function stablecoinOf(ports: PurchasePorts, config: PurchaseConfig): Stablecoin | undefined {
  return config.stablecoin !== undefined && ports.stablecoin !== undefined ? { offer: config.stablecoin, ports: ports.stablecoin } : undefined;
}
