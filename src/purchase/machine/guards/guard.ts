import type { PaymentMethodId, PaymentProblemRecord } from '../../../spec/payments.js';
import type { PurchaseErrorRecord } from '../../../spec/types.js';
import type { PurchaseAnswer } from '../answers.js';
import type { ChargeStep } from '../charge/step.js';
import type { PurchaseRequest } from '../ports/outcome.js';
import type { Awaitable, ChallengeOffer, ChargeRecord, IssuedChallenge, PurchaseConfig, PurchasePorts, Stablecoin } from '../ports/purchase.js';
import type { StablecoinPorts, TransferRecord } from '../ports/stablecoin.js';
import type { PresentedCredential } from '../presented.js';
import type { TransferStep } from '../transfer/step.js';
import type { FactName, Given, GuardRun, Passes, PurchaseFacts } from './facts.js';

/** What a guard can answer: a 7.4 row of the catalogue, or a problem of the Payment scheme itself. */
export type GuardCode = PurchaseErrorRecord | PaymentProblemRecord;

/** What a refusal that rides with a fresh challenge knows besides its code. */
export interface FreshOptions {
  /** The credential's challenge, once a guard found it issued here: only then may a refused stablecoin credential be offered the stablecoin again. */
  readonly issued?: IssuedChallenge;
  readonly description?: string;
}

/**
 * What differs between the surfaces that sell: the pack at POST /api/mpp/credits and a priced resource's single
 * call. A guard both surfaces share asks its surface wherever the answer depends on what is sold.
 */
export interface PurchaseSurface<O> {
  /** The methods a credential may pay by here now. */
  methods(): readonly PaymentMethodId[];
  /** What a request without a credential is offered; undefined when no method it accepts is offered. */
  offer(): ChallengeOffer | undefined;
  /** A 402 naming `refusal` with one fresh challenge of what this surface sells. */
  fresh(refusal: GuardCode, options?: FreshOptions): Promise<PurchaseAnswer>;
  /** Whether a challenge sells what this surface sells: only such a payment resumes here (section 3 row 1). */
  sells(issued: IssuedChallenge): boolean;
  /** Section 3 row 1: the answer to a credential whose charge was already sent (or whose transfer was recorded). */
  resumeCharge(ctx: PurchaseBase<O>, record: ChargeRecord, issued: IssuedChallenge): Promise<O>;
  resumeTransfer(ctx: PurchaseBase<O>, record: TransferRecord, issued: IssuedChallenge, stablecoin: StablecoinPorts): Promise<O>;
  /** The answer once the processor spoke on a charge sent now. */
  afterCharge(ctx: PurchaseBase<O>, step: ChargeStep): Promise<O>;
  /** The answer once the network spoke on a transfer broadcast now. */
  afterTransfer(ctx: PurchaseBase<O>, step: TransferStep): Promise<O>;
  /** The base units a transfer under `issued` counts against its wallet's daily cap. */
  walletCapAmount(issued: IssuedChallenge, stablecoin: Stablecoin): string;
}

/**
 * What every guard of one presentation may read: the request, the ports, the configuration, the surface and the
 * credential as presented. What guards establish for later ones is in the facts (facts.ts), each given once.
 */
export interface PurchaseBase<O> {
  readonly input: PurchaseRequest;
  readonly ports: PurchasePorts;
  readonly config: PurchaseConfig;
  readonly surface: PurchaseSurface<O>;
  readonly presented: PresentedCredential;
  /** Releases of what is held while the payment goes out (the buyer's lock); each runs once. */
  readonly held: (() => Awaitable<void>)[];
  /** What a refusal after it must give back (the sale's caps); each runs once. */
  readonly taken: (() => Awaitable<void>)[];
}

/** The outcome a base's surface answers with. */
export type OutcomeOf<B> = B extends PurchaseBase<infer O> ? O : never;

/**
 * One entry of an order of guards over the base `B` and the facts `F`: it reads the facts of `needs`, each given by
 * an earlier guard, and when it does not answer gives those of `gives` to the guards after it.
 */
export interface PurchaseGuard<B extends PurchaseBase<unknown>, F extends PurchaseFacts = PurchaseFacts> {
  readonly name: string;
  /** The codes and problem types this guard can answer. */
  readonly codes: readonly GuardCode[];
  /** Why it stands where it stands. */
  readonly why: string;
  /** The facts it reads, each given by an earlier guard. */
  readonly needs: readonly FactName<F>[];
  /** The facts it gives the guards after it when it does not answer. */
  readonly gives: readonly FactName<F>[];
  readonly run: (ctx: B & F) => Awaitable<OutcomeOf<B> | Given<object> | undefined>;
}

/** A guard as written: `run` reads exactly the facts of `needs` and gives exactly those of `gives`. */
export interface TypedGuard<B extends PurchaseBase<unknown>, F extends PurchaseFacts, N extends FactName<F>, G extends FactName<F>>
  extends Omit<PurchaseGuard<B, F>, 'needs' | 'gives' | 'run'> {
  readonly needs: readonly N[];
  readonly gives: readonly G[];
  readonly run: GuardRun<B, OutcomeOf<B>, F, N, G>;
}

/** A guard of one surface, its `run` held to the facts it names (`needs` and `gives` are read from the lists). */
export function guardOf<B extends PurchaseBase<unknown>, F extends PurchaseFacts>() {
  return <N extends FactName<F> = never, G extends FactName<F> = never>(
    entry: Omit<TypedGuard<B, F, N, G>, 'run'> & { readonly run: GuardRun<B, OutcomeOf<B>, F, NoInfer<N>, NoInfer<G>> },
  ): TypedGuard<B, F, N, G> => Object.freeze(entry);
}

/** A guard both surfaces run, one entry in PACK_GUARDS and SALE_GUARDS alike: for the outcome of either. */
export interface SharedGuard<N extends FactName = FactName, G extends FactName = FactName>
  extends Omit<PurchaseGuard<PurchaseBase<unknown>>, 'needs' | 'gives' | 'run'> {
  readonly needs: readonly N[];
  readonly gives: readonly G[];
  readonly run: <O>(ctx: PurchaseBase<O> & Pick<PurchaseFacts, N>) => Promise<O | PurchaseAnswer | Passes<PurchaseFacts, G>>;
}

/** A shared guard's entry, its `run` held to the facts it names. */
export function sharedGuard<N extends FactName = never, G extends FactName = never>(
  entry: Omit<SharedGuard<N, G>, 'run'> & {
    readonly run: <O>(ctx: PurchaseBase<O> & Pick<PurchaseFacts, NoInfer<N>>) => Promise<O | PurchaseAnswer | Passes<PurchaseFacts, NoInfer<G>>>;
  },
): SharedGuard<N, G> {
  return Object.freeze(entry);
}
