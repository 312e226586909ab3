import type { PaymentMethodId, RefundState } from '../../../spec/payments.js';
import type { PurchaseRequest } from '../ports/outcome.js';
import type { Awaitable, ChargeAmount, PurchaseConfig, PurchaseKind, PurchasePorts } from '../ports/purchase.js';

/**
 * The single-call sale machine's input, config and ports (7.4 single calls, section 3 rows 5 to 7). It sits
 * on the purchase machine's ports (clock, random, card processor, purchase store, lock) and adds the
 * sale's own: the sale records, the funding step, the cap counters, card instruments, agent accounts and
 * the server that runs the paid call.
 */

/** A call to a priced resource whose caller the verifier already decided. */
export interface SaleRequest extends PurchaseRequest {
  /** The path of the priced resource called (where its single-call challenges are issued and redeemed). */
  readonly resource: string;
  /** The client's network address (7.4 metered_ip_cap counts unidentified purchases per address). */
  readonly clientAddress: string;
  /** The signing identity of a signed agent (its key set URL or key thumbprint): 7.4 metered_principal_cap counts across account and identity. */
  readonly identity?: string;
  /** The call's body as received; the server runs the call with it. */
  readonly body: Uint8Array | null;
}

/** The daily limits of single-call purchases (7.4 429 rows; section 8: "all daily purchase caps: not shown"). */
export interface SaleCaps {
  /** Exact purchases per agent per day, counted on its account and on its signing identity alike. */
  readonly principalPerDay: number;
  /** Unidentified purchases per network address per day. */
  readonly ipPerDay: number;
  /** Single-call purchases per card per day. */
  readonly instrumentPerDay: number;
  /** Single-call purchases on the whole platform per day. */
  readonly platformPerDay: number;
}

/** What one priced resource sells per call. */
export interface SingleCallOffer {
  /** The resource path; challenges it issues carry it as their origin. */
  readonly resource: string;
  /** Names the single-call purchase in charge records and grants (the `packId` slot of opaque and the purchase block). */
  readonly offerId: string;
  /** The call's price in the currency's minor units (what a single-call challenge quotes). */
  readonly price: ChargeAmount;
  /** The call's cost on the balance, in nano units (what an exact purchase credits and the call spends). */
  readonly priceNano: string;
  /**
   * Methods single calls are sold by, in the deployment's order of preference (sale/offer.ts
   * SINGLE_CALL_OFFERS): `stripe` (card) always; `tempo` (stablecoin) when the deployment sells transfers
   * (the purchase config's `stablecoin` and the stablecoin ports) and `stablecoinAmount` prices the call.
   */
  readonly methods: readonly PaymentMethodId[];
  /** The per-call card offer can be paid now; false answers 403 metered_unavailable_for_card (per-call terms changed). */
  readonly cardOpen: boolean;
  /**
   * The call's price in the stablecoin's base units (a decimal integer string); a stablecoin challenge quoting
   * anything else (the call re-priced since) answers 403 metered_unavailable_for_stablecoin.
   */
  readonly stablecoinAmount?: string;
  /** Card countries (ISO 3166-1 alpha-2) the per-call card offer is sold in; every country when absent. */
  readonly cardCountries?: readonly string[];
  /** Single calls without an agent identity are sold; false answers 503 metered_not_ready. */
  readonly anonymous: boolean;
  /** The purchase a signed agent gets when it sends no (trusted) Service-Purchase. */
  readonly defaultKind: PurchaseKind;
  readonly caps: SaleCaps;
  /** Retry-After seconds of 503 funding_unavailable; the purchase config's retryAfterSeconds when absent. */
  readonly fundingRetryAfterSeconds?: number;
}

export interface SaleConfig extends PurchaseConfig {
  readonly sale: SingleCallOffer;
}

/**
 * Where a sale stands. `open`: bought (or being bought), call not started; `declined`: the charge captured
 * nothing; `serving`: the call was claimed and runs; `served`; `refunded`: the call failed and was refunded,
 * not served; `unfunded`: the purchase is credited but the call could not be funded (7.4 funding_failed).
 */
export type SaleState = 'open' | 'declined' | 'serving' | 'served' | 'refunded' | 'unfunded';

/** How a refunded call was paid back: by the card processor (issued or pending), or onto the payer's balance when the processor refund failed. */
export type SaleRefund = RefundState | 'balance';

/** A single-call sale, one per challenge (a challenge is redeemed once). */
export interface SaleRecord {
  readonly challengeId: string;
  readonly resource: string;
  /** The agent the challenge names; null for an unidentified buyer. */
  readonly account: string | null;
  /** Whose balance the purchase credits and the call is funded from: the account, or a per-sale payer for an unidentified buyer. */
  readonly payer: string;
  readonly priceNano: string;
  readonly state: SaleState;
  /** Cap counters this sale took (given back when the charge captures nothing) and the day they count. */
  readonly caps?: readonly string[];
  readonly capDay?: number;
  /** The funding hold of the call, once held. */
  readonly holdId?: string;
  readonly refund?: SaleRefund;
  readonly openedAt: number;
}

export type SalePatch = Partial<Pick<SaleRecord, 'holdId' | 'refund' | 'caps' | 'capDay'>>;

export interface SaleStore {
  /** Atomically: records the sale unless one exists for its challenge; answers the record as it stands. */
  open(record: SaleRecord): Awaitable<SaleRecord>;
  sale(challengeId: string): Awaitable<SaleRecord | undefined>;
  /** Atomically: moves the sale to `to` (with the patch) only from one of `from`; answers whether it moved and the record as it stands. */
  move(challengeId: string, from: readonly SaleState[], to: SaleState, patch?: SalePatch): Awaitable<{ readonly moved: boolean; readonly record: SaleRecord }>;
}

/** A hold on a balance for one call. `in-flight`: the balance covers the call but in-flight calls hold part of it. */
export type FundingHold = { readonly held: true; readonly holdId: string } | { readonly held: false; readonly reason: 'insufficient' | 'in-flight' };

/**
 * The funding step: a call is paid from the payer's balance (credited by packs and exact purchases) by a
 * hold, spent once the call is served or released when it is not. `hold` may throw (the funding step
 * failed); the same key answers the same hold while it is held.
 */
export interface Funding {
  hold(payer: string, nano: string, key: string): Awaitable<FundingHold>;
  spend(holdId: string): Awaitable<void>;
  release(holdId: string): Awaitable<void>;
}

/**
 * Daily counters behind the 7.4 caps. `take` atomically counts one on every counter for the day unless one
 * of them already reached its limit, and then answers the index of the first that did, counting nothing.
 */
export interface CapCounters {
  take(
    counters: readonly { readonly name: string; readonly limit: number }[],
    day: number,
  ): Awaitable<{ readonly taken: true } | { readonly taken: false; readonly over: number }>;
  /** Gives back one on each counter (a purchase that captured nothing). */
  release(names: readonly string[], day: number): Awaitable<void>;
}

/** The card processor's identity of the card behind a shared payment token (its fingerprint), for the per-card cap; undefined when unknown. */
export interface CardInstruments {
  instrumentOf(token: string): Awaitable<string | undefined>;
}

/** Whether an account is an active agent (7.4 buyer_inactive). */
export interface AgentAccounts {
  isActiveAgent(account: string): Awaitable<boolean>;
}

/** The paid call the server runs. */
export interface SaleCall {
  readonly resource: string;
  /** The agent it runs for; null for an unidentified buyer. */
  readonly account: string | null;
  /** The challenge it was bought under; null for a call paid from the balance. */
  readonly challengeId: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
}

/** The resource's own response to a call. */
export interface CallResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
}

/**
 * What running the call came to. `not-started`: it never began (it may run later, once); `failed`: it began
 * and failed, so it is refunded. A server that throws is taken as `failed` (whether it started is unknown, and
 * a call is never run twice).
 */
export type ServeResult =
  | { readonly outcome: 'served'; readonly response: CallResponse }
  | { readonly outcome: 'not-started' }
  | { readonly outcome: 'failed'; readonly response: CallResponse };

export interface CallServer {
  serve(call: SaleCall): Awaitable<ServeResult>;
}

export interface SalePorts extends PurchasePorts {
  readonly sales: SaleStore;
  readonly funding: Funding;
  readonly caps: CapCounters;
  readonly cards: CardInstruments;
  readonly accounts: AgentAccounts;
  readonly server: CallServer;
}
