import type { CredentialParse, PaymentCredential } from '../../wire/credential.js';
import type { Awaitable, ChargeRecord, CredentialRecords, IssuedChallenge, Stablecoin } from '../ports/purchase.js';
import type { TransferRecord } from '../ports/stablecoin.js';
import type { AdmittedTransfer } from '../tempo/transaction-check.js';

/**
 * How a credential pays, once its method is found sold here: by a card charge, or by a transfer of the stablecoin
 * this deployment sells. Every later step that goes one way or the other reads `by` of a fact below.
 */
export type RailSold = { readonly by: 'card' } | { readonly by: 'stablecoin'; readonly stablecoin: Stablecoin };

/** What pays, as the payload carries it: a card's shared payment token, or a signed transaction not yet judged. */
export type Payload =
  | { readonly by: 'card'; readonly token: string }
  | { readonly by: 'stablecoin'; readonly stablecoin: Stablecoin; readonly serialized: string };

/** What pays, admitted: the card's token, or the transaction found to pay the quote exactly. */
export type Payment =
  | { readonly by: 'card'; readonly token: string }
  | { readonly by: 'stablecoin'; readonly stablecoin: Stablecoin; readonly transfer: AdmittedTransfer };

/** The record opened before anything is sent: the card charge's, or the transfer's. */
export type Opened =
  | { readonly by: 'card'; readonly charge: ChargeRecord }
  | { readonly by: 'stablecoin'; readonly stablecoin: Stablecoin; readonly record: TransferRecord };

/**
 * The facts the guards of one presentation give one another, by the guard that gives each. A guard reads only the
 * facts it `needs`, each given by an earlier guard, so none is ever a placeholder; the tables prove their order
 * when they compile (order.ts) and a configured order is checked once before it runs.
 */
export interface PurchaseFacts {
  /**
   * same-credential: what the store held for the credential presented, read once before any other guard asks (none
   * without a credential). What this presentation opens later is seen by the record guard's atomic open.
   */
  readonly recorded: CredentialRecords;
  /** offer: the credential presented, parsed (the offer answers a request without one). */
  readonly parsed: CredentialParse;
  /** readable */
  readonly credential: PaymentCredential;
  /** method */
  readonly rail: RailSold;
  /** buyer, call-buyer: whose purchase it is, the buying agent or the payer of an unidentified call. */
  readonly payer: string;
  /** pack-challenge, call-challenge: the challenge the credential answers, issued here, unredeemed. */
  readonly issued: IssuedChallenge;
  /** payload */
  readonly payload: Payload;
  /** transaction */
  readonly payment: Payment;
  /** record */
  readonly opened: Opened;
}

/** What only a call's guards give: who the challenge names, what the caps count, and what they took. */
export interface SaleFacts extends PurchaseFacts {
  /** call-buyer: the agent the challenge names; null for an unidentified buyer. */
  readonly account: string | null;
  /** call-card: what the caps count a purchase on, the card's fingerprint or the paying wallet. */
  readonly instrument: string;
  /** caps: the cap counters this purchase took, and the day they count. */
  readonly caps: { readonly names: readonly string[]; readonly day: number };
}

export type FactName<F extends PurchaseFacts = PurchaseFacts> = keyof F & string;

const GIVEN: unique symbol = Symbol('facts given');

/** The facts a guard gives when it does not answer. */
export interface Given<T> {
  readonly [GIVEN]: T;
}

export function given<T extends object>(facts: T): Given<T> {
  return { [GIVEN]: facts };
}

/** The facts `ran` gives, or undefined when it is an answer (or nothing). */
export function givenOf<T>(ran: unknown): T | undefined {
  return typeof ran === 'object' && ran !== null && GIVEN in ran ? (ran as Given<T>)[GIVEN] : undefined;
}

/** What a guard giving `G` answers when it does not decide: those facts, or nothing when it gives none. */
export type Passes<F, G extends keyof F> = [G] extends [never] ? undefined : Given<Pick<F, G>>;

/** A guard's run: it reads the base and the facts `N`, and decides with an outcome `O` or passes on. */
export type GuardRun<B, O, F, N extends keyof F, G extends keyof F> = (ctx: B & Pick<F, N>) => Awaitable<O | Passes<F, G>>;
