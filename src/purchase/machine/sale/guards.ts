import { PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { sameEcho } from '../../wire/credential.js';
import { METHOD, OFFER, READABLE, SWITCHES } from '../guards/before-challenge.js';
import { LOCK, MARKET, UNRECONCILED, WALLET_CAP } from '../guards/before-payment.js';
import { EXPIRY, PAYLOAD, TERMS, TRANSACTION } from '../guards/challenge.js';
import type { PurchaseContext, PurchaseGuard } from '../guards/guard.js';
import { CHARGE, RECORD } from '../guards/payment.js';
import { presentedCredential } from '../presented.js';
import { cardTokenOf, FACTS, known, purchaseContext } from '../guards/run.js';
import { SAME_CREDENTIAL } from '../guards/same-credential.js';
import { codeAnswer, surfaceOf } from '../ports/outcome.js';
import type { SaleOutcome } from './answer.js';
import { serveFromBalance } from './balance.js';
import { capCounters, takeCaps } from './caps.js';
import { accountOf, perCallCardInstrument } from './offer.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { payerOf, saleOf } from './record.js';
import { saleSurface } from './surface.js';
import { CARD_METHODS, TRANSFER_METHODS } from '../method.js';

/** What the guards of a call share: the pack's context, and what only a call has. */
export interface SaleContext extends PurchaseContext<SaleOutcome> {
  readonly input: SaleRequest;
  readonly ports: SalePorts;
  readonly config: SaleConfig;
  /** The agent the challenge names; null for an unidentified buyer. */
  account?: string | null;
  /** The card's fingerprint, the instrument the caps count a card purchase on. */
  instrument?: string;
  /** The cap counters this purchase took, and the day they count. */
  caps?: { readonly names: readonly string[]; readonly day: number };
}

export type SaleGuard = PurchaseGuard<SaleContext>;

export function saleContext(input: SaleRequest, ports: SalePorts, config: SaleConfig): SaleContext {
  return { ...purchaseContext(input, ports, config, saleSurface(input, ports, config), presentedCredential(input)), input, ports, config };
}

const BALANCE: SaleGuard = {
  name: 'balance',
  codes: [PURCHASE_ERRORS.funding_unavailable],
  why: 'An agent with no credential whose balance covers the call is served from it, whatever the switches say: buying is only for what the balance does not cover.',
  run: (ctx) =>
    ctx.presented.parsed !== undefined || ctx.input.buyer === null ? undefined : serveFromBalance(ctx.input.buyer.agentUrl, ctx.input, ctx.ports, ctx.config),
};

const UNIDENTIFIED: SaleGuard = {
  name: 'unidentified',
  codes: [PURCHASE_ERRORS.metered_not_ready],
  why: 'A caller with no agent identity may buy a call only while such calls are sold; it is told to sign before any switch or offer is read.',
  run: (ctx) =>
    ctx.presented.parsed === undefined && ctx.input.buyer === null && !ctx.config.sale.anonymous
      ? codeAnswer(PURCHASE_ERRORS.metered_not_ready, ctx.config)
      : undefined,
};

const CALL_CHALLENGE: SaleGuard = {
  name: 'call-challenge',
  codes: [PAYMENT_PROBLEMS.invalidChallenge, PURCHASE_ERRORS.challenge_kind_mismatch, PURCHASE_ERRORS.challenge_origin_mismatch],
  why: "The credential must echo, byte for byte, a single-call challenge issued by this very resource (7.4: a call challenge is redeemed only where issued; a pack one only at /api/mpp/credits); one already paid by another credential is refused by the record guard's atomic open, with the same answer and the counts it took given back.",
  run: async (ctx) => {
    const { ports, surface } = ctx;
    const echo = known(ctx.credential, FACTS.credential).challenge;
    const issued = await ports.store.challenge(echo.id);
    if (issued === undefined || !sameEcho(issued.echo, echo)) return surface.fresh(ctx, PAYMENT_PROBLEMS.invalidChallenge);
    if (issued.kind !== PURCHASE_KINDS.exact) return purchaseAnswer(PURCHASE_ERRORS.challenge_kind_mismatch, surfaceOf(ctx.config));
    if (issued.origin !== ctx.input.resource) return purchaseAnswer(PURCHASE_ERRORS.challenge_origin_mismatch, surfaceOf(ctx.config));
    ctx.issued = issued;
    return undefined;
  },
};

const CALL_BUYER: SaleGuard = {
  name: 'call-buyer',
  codes: [PURCHASE_ERRORS.terms_acceptance_unauthenticated, PURCHASE_ERRORS.buyer_inactive, PURCHASE_ERRORS.metered_not_ready],
  why: "The challenge names who buys: an agent's call only by a request authenticated as that agent, and only while it is active; a call naming no agent only while unidentified calls are sold.",
  run: async (ctx) => {
    const issued = known(ctx.issued, FACTS.challenge);
    const account = accountOf(issued);
    if (account !== null) {
      if (ctx.input.buyer?.agentUrl !== account) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(ctx.config));
      if (!(await ctx.ports.accounts.isActiveAgent(account))) return purchaseAnswer(PURCHASE_ERRORS.buyer_inactive, surfaceOf(ctx.config));
    } else if (!ctx.config.sale.anonymous) return codeAnswer(PURCHASE_ERRORS.metered_not_ready, ctx.config);
    ctx.account = account;
    ctx.payer = payerOf(issued, account);
    return undefined;
  },
};

const CALL_PRICE: SaleGuard = {
  name: 'call-price',
  codes: [PURCHASE_ERRORS.metered_unavailable_for_stablecoin],
  why: 'A call re-priced since its stablecoin challenge (its price in base units, its token, or its cost on the balance) cannot be paid as quoted; told before the transaction is even decoded, and nothing is broadcast.',
  methods: TRANSFER_METHODS,
  run: (ctx) => {
    const { sale } = ctx.config;
    const issued = known(ctx.issued, FACTS.challenge);
    const token = known(ctx.stablecoin, FACTS.stablecoin).offer.token;
    if (issued.price.amount === sale.stablecoinAmount && issued.price.currency.toLowerCase() === token.toLowerCase() && issued.creditNano === sale.priceNano)
      return undefined;
    return purchaseAnswer(PURCHASE_ERRORS.metered_unavailable_for_stablecoin, surfaceOf(ctx.config));
  },
};

const CALL_CARD: SaleGuard = {
  name: 'call-card',
  codes: [PURCHASE_ERRORS.metered_unavailable_for_card],
  why: "The per-call card offer must still be payable (open, priced as quoted, sold in the card's country) and the card known, since the caps count it; after the pack's own market check, before anything is held.",
  methods: CARD_METHODS,
  run: async (ctx) => {
    const instrument = await perCallCardInstrument(known(ctx.issued, FACTS.challenge), cardTokenOf(ctx), ctx.ports, ctx.config);
    if (instrument === undefined) return purchaseAnswer(PURCHASE_ERRORS.metered_unavailable_for_card, surfaceOf(ctx.config));
    ctx.instrument = instrument;
    return undefined;
  },
};

const CAPS: SaleGuard = {
  name: 'caps',
  codes: [
    PURCHASE_ERRORS.metered_principal_cap,
    PURCHASE_ERRORS.metered_ip_cap,
    PURCHASE_ERRORS.metered_instrument_cap,
    PURCHASE_ERRORS.metered_platform_ceiling,
  ],
  why: "Counting is a change, so it runs under the buyer's lock once nothing else refuses; the buyer's own cap, then the card's or wallet's, then the platform's (sale/caps.ts). A refusal after it gives the counts back.",
  run: async (ctx) => {
    const { input } = ctx;
    const instrument = ctx.transfer?.wallet ?? known(ctx.instrument, FACTS.card);
    const subject = {
      account: known(ctx.account, FACTS.account),
      identity: input.identity,
      clientAddress: input.clientAddress,
      instrument,
    };
    const counted = await takeCaps(capCounters(subject, ctx.config.sale.caps), ctx.ports.caps, input.now);
    if (!counted.taken) return purchaseAnswer(counted.refusal, surfaceOf(ctx.config), { retryAfterSeconds: counted.retryAfterSeconds });
    ctx.caps = { names: counted.names, day: counted.day };
    ctx.taken.push(() => ctx.ports.caps.release(counted.names, counted.day));
    return undefined;
  },
};

const SALE_RECORD: SaleGuard = {
  name: 'sale-record',
  codes: [],
  why: 'The sale is recorded with the caps it took once its payment record is open and before the payment is sent, so a payment that captures nothing gives them back exactly once.',
  run: async (ctx) => {
    const caps = known(ctx.caps, FACTS.caps);
    const issued = known(ctx.issued, FACTS.challenge);
    await ctx.ports.sales.open(
      saleOf(issued, known(ctx.account, FACTS.account), known(ctx.payer, FACTS.payer), ctx.input.now, { caps: caps.names, capDay: caps.day }),
    );
    return undefined;
  },
};

/**
 * The order of guards for a call to a priced single-call resource (7.4 single calls, section 3). The first
 * that answers decides; a guard naming methods runs only for a credential of one of them. `balance`,
 * `unidentified`, `call-challenge`, `call-buyer`, `call-price`, `call-card`, `caps` and `sale-record` are the
 * call's own; every other entry is the very one PACK_GUARDS runs (machine/guards/). The vectors pin this order.
 */
export const SALE_GUARDS: readonly SaleGuard[] = Object.freeze([
  SAME_CREDENTIAL,
  BALANCE,
  UNIDENTIFIED,
  SWITCHES,
  OFFER,
  READABLE,
  METHOD,
  CALL_CHALLENGE,
  CALL_BUYER,
  EXPIRY,
  PAYLOAD,
  TERMS,
  CALL_PRICE,
  TRANSACTION,
  UNRECONCILED,
  MARKET,
  CALL_CARD,
  LOCK,
  CAPS,
  WALLET_CAP,
  RECORD,
  SALE_RECORD,
  CHARGE,
]);
