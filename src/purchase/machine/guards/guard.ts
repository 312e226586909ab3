import type { PaymentMethodId, PaymentProblemRecord } from '../../../spec/payments.js';
import type { PurchaseErrorRecord } from '../../../spec/types.js';
import type { PurchaseAnswer } from '../answers.js';
import type { ChargeStep } from '../charge/step.js';
import type { PaymentCredential } from '../../wire/credential.js';
import type { ChallengeOffer } from '../ports/purchase.js';
import type { PurchaseRequest } from '../ports/outcome.js';
import type { Awaitable, ChargeRecord, IssuedChallenge, PurchaseConfig, PurchasePorts, Stablecoin } from '../ports/purchase.js';
import type { StablecoinPorts, TransferRecord } from '../ports/stablecoin.js';
import type { AdmittedTransfer } from '../tempo/transaction-check.js';
import type { TransferStep } from '../transfer/step.js';
import type { PresentedCredential } from '../presented.js';

/** What a guard can answer: a 7.4 row of the catalogue, or a problem of the Payment scheme itself. */
export type GuardCode = PurchaseErrorRecord | PaymentProblemRecord;

/**
 * What differs between the surfaces that sell: the pack at POST /api/mpp/credits and a priced resource's single
 * call. A guard both surfaces share asks its surface wherever the answer depends on what is sold.
 */
export interface PurchaseSurface<O> {
  /** The methods a credential may pay by here now. */
  methods(ctx: PurchaseContext<O>): readonly PaymentMethodId[];
  /** What a request without a credential is offered; undefined when no method it accepts is offered. */
  offer(ctx: PurchaseContext<O>): ChallengeOffer | undefined;
  /** A 402 naming `refusal` with one fresh challenge of what this surface sells. */
  fresh(ctx: PurchaseContext<O>, refusal: GuardCode, description?: string): Promise<PurchaseAnswer>;
  /** Whether a challenge sells what this surface sells: only such a payment resumes here (section 3 row 1). */
  sells(issued: IssuedChallenge): boolean;
  /** Section 3 row 1: the answer to a credential whose charge was already sent (or whose transfer was recorded). */
  resumeCharge(ctx: PurchaseContext<O>, record: ChargeRecord, issued: IssuedChallenge): Promise<O>;
  resumeTransfer(ctx: PurchaseContext<O>, record: TransferRecord, issued: IssuedChallenge, stablecoin: StablecoinPorts): Promise<O>;
  /** The answer once the processor spoke on a charge sent now. */
  afterCharge(ctx: PurchaseContext<O>, step: ChargeStep): Promise<O>;
  /** The answer once the network spoke on a transfer broadcast now. */
  afterTransfer(ctx: PurchaseContext<O>, step: TransferStep): Promise<O>;
  /** The base units a transfer counts against its wallet's daily cap. */
  walletCapAmount(ctx: PurchaseContext<O>): string;
}

/**
 * What the guards of one presentation share; each guard reads what earlier ones established. A guard that reads a
 * fact no earlier guard established is a fault in the table's order (`known`), found when it runs; the verifier's
 * checks say instead which facts they need and give, so their table's order is checked before (verifier/order.ts).
 */
export interface PurchaseContext<O> {
  readonly input: PurchaseRequest;
  readonly ports: PurchasePorts;
  readonly config: PurchaseConfig;
  readonly surface: PurchaseSurface<O>;
  readonly presented: PresentedCredential;
  /** The readable credential. */
  credential?: PaymentCredential;
  /** Whose purchase it is: the buying agent, or the payer of an unidentified call. */
  payer?: string;
  /** The challenge the credential answers, issued here, unredeemed. */
  issued?: IssuedChallenge;
  /** What the deployment sells transfers by (undefined when it sells none); only a stablecoin credential's guards read it. */
  stablecoin?: Stablecoin;
  /** A stablecoin credential: the signed transaction its payload carries. */
  serialized?: string;
  /** That transaction, admitted against the quote. */
  transfer?: AdmittedTransfer;
  /** The record opened for the card charge or the transfer, before it is sent. */
  charge?: ChargeRecord;
  transferRecord?: TransferRecord;
  /** Releases of what is held while the payment goes out (the buyer's lock); each runs once. */
  readonly held: (() => Awaitable<void>)[];
  /** What a refusal after it must give back (the sale's caps); each runs once. */
  readonly taken: (() => Awaitable<void>)[];
}

/** The outcome a context's surface answers with. */
export type OutcomeOf<C> = C extends PurchaseContext<infer O> ? O : never;

export interface PurchaseGuard<C extends PurchaseContext<unknown>> {
  readonly name: string;
  /** The codes and problem types this guard can answer. */
  readonly codes: readonly GuardCode[];
  /** Why it stands where it stands. */
  readonly why: string;
  /** The credential methods it applies to; every presentation when absent. */
  readonly methods?: readonly PaymentMethodId[];
  /** The answer that decides, or undefined to go on to the next guard. */
  readonly run: (ctx: C) => Awaitable<OutcomeOf<C> | undefined>;
}

/** A guard both surfaces run: one entry, in PACK_GUARDS and SALE_GUARDS alike. */
export interface SharedGuard extends Omit<PurchaseGuard<PurchaseContext<unknown>>, 'run'> {
  readonly run: <O>(ctx: PurchaseContext<O>) => Promise<O | PurchaseAnswer | undefined>;
}
