import { PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { sameEcho } from '../../wire/credential.js';
import { METHOD, OFFER, READABLE, SWITCHES } from '../guards/before-challenge.js';
import { LOCK, MARKET, UNRECONCILED, WALLET_CAP } from '../guards/before-payment.js';
import { EXPIRY, PAYLOAD, TERMS, TRANSACTION } from '../guards/challenge.js';
import { given, type SaleFacts } from '../guards/facts.js';
import { guardOf, type PurchaseBase, type PurchaseGuard } from '../guards/guard.js';
import type { InOrder } from '../guards/order.js';
import { CHARGE, RECORD } from '../guards/payment.js';
import { SAME_CREDENTIAL } from '../guards/same-credential.js';
import { codeAnswer, surfaceOf } from '../ports/outcome.js';
import type { SaleOutcome } from './answer.js';
import { serveFromBalance } from './balance.js';
import { capCounters, takeCaps } from './caps.js';
import { accountOf, perCallCardInstrument } from './offer.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { payerOf, saleOf } from './record.js';

/** What every guard of a call may read: the pack's base, with a call's request, ports and configuration. */
export interface SaleBase extends PurchaseBase<SaleOutcome> {
  readonly input: SaleRequest;
  readonly ports: SalePorts;
  readonly config: SaleConfig;
}

export type SaleGuard = PurchaseGuard<SaleBase, SaleFacts>;

const saleGuard = guardOf<SaleBase, SaleFacts>();

const BALANCE = saleGuard({
  name: 'balance',
  codes: [PURCHASE_ERRORS.funding_unavailable],
  why: 'An agent with no credential whose balance covers the call is served from it, whatever the switches say: buying is only for what the balance does not cover.',
  needs: [],
  gives: [],
  run: (ctx) =>
    ctx.presented.parsed !== undefined || ctx.input.buyer === null ? undefined : serveFromBalance(ctx.input.buyer.agentUrl, ctx.input, ctx.ports, ctx.config),
});

const UNIDENTIFIED = saleGuard({
  name: 'unidentified',
  codes: [PURCHASE_ERRORS.metered_not_ready],
  why: 'A caller with no agent identity may buy a call only while such calls are sold; it is told to sign before any switch or offer is read.',
  needs: [],
  gives: [],
  run: (ctx) =>
    ctx.presented.parsed === undefined && ctx.input.buyer === null && !ctx.config.sale.anonymous
      ? codeAnswer(PURCHASE_ERRORS.metered_not_ready, ctx.config)
      : undefined,
});

const CALL_CHALLENGE = saleGuard({
  name: 'call-challenge',
  codes: [PAYMENT_PROBLEMS.invalidChallenge, PURCHASE_ERRORS.challenge_kind_mismatch, PURCHASE_ERRORS.challenge_origin_mismatch],
  why: "The credential must echo, byte for byte, a single-call challenge issued by this very resource (7.4: a call challenge is redeemed only where issued; a pack one only at /api/mpp/credits); one already paid by another credential is refused by the record guard's atomic open, with the same answer and the counts it took given back.",
  needs: ['credential'],
  gives: ['issued'],
  run: async (ctx) => {
    const { ports, surface } = ctx;
    const echo = ctx.credential.challenge;
    const issued = await ports.store.challenge(echo.id);
    if (issued === undefined || !sameEcho(issued.echo, echo)) return surface.fresh(PAYMENT_PROBLEMS.invalidChallenge);
    if (issued.kind !== PURCHASE_KINDS.exact) return purchaseAnswer(PURCHASE_ERRORS.challenge_kind_mismatch, surfaceOf(ctx.config));
    if (issued.origin !== ctx.input.resource) return purchaseAnswer(PURCHASE_ERRORS.challenge_origin_mismatch, surfaceOf(ctx.config));
    return given({ issued });
  },
});

const CALL_BUYER = saleGuard({
  name: 'call-buyer',
  codes: [PURCHASE_ERRORS.terms_acceptance_unauthenticated, PURCHASE_ERRORS.buyer_inactive, PURCHASE_ERRORS.metered_not_ready],
  why: "The challenge names who buys: an agent's call only by a request authenticated as that agent, and only while it is active; a call naming no agent only while unidentified calls are sold.",
  needs: ['issued'],
  gives: ['account', 'payer'],
  run: async (ctx) => {
    const { issued } = ctx;
    const account = accountOf(issued);
    if (account !== null) {
      if (ctx.input.buyer?.agentUrl !== account) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(ctx.config));
      if (!(await ctx.ports.accounts.isActiveAgent(account))) return purchaseAnswer(PURCHASE_ERRORS.buyer_inactive, surfaceOf(ctx.config));
    } else if (!ctx.config.sale.anonymous) return codeAnswer(PURCHASE_ERRORS.metered_not_ready, ctx.config);
    return given({ account, payer: payerOf(issued, account) });
  },
});

const CALL_PRICE = saleGuard({
  name: 'call-price',
  codes: [PURCHASE_ERRORS.metered_unavailable_for_stablecoin],
  why: 'A call re-priced since its stablecoin challenge (its price in base units, its token, or its cost on the balance) cannot be paid as quoted; told before the transaction is even decoded, and nothing is broadcast.',
  needs: ['issued', 'payload'],
  gives: [],
  run: (ctx) => {
    const { sale } = ctx.config;
    const { issued, payload } = ctx;
    if (payload.by === 'card') return undefined;
    const { token } = payload.stablecoin.offer;
    if (issued.price.amount === sale.stablecoinAmount && issued.price.currency.toLowerCase() === token.toLowerCase() && issued.creditNano === sale.priceNano)
      return undefined;
    return purchaseAnswer(PURCHASE_ERRORS.metered_unavailable_for_stablecoin, surfaceOf(ctx.config));
  },
});

const CALL_CARD = saleGuard({
  name: 'call-card',
  codes: [PURCHASE_ERRORS.metered_unavailable_for_card],
  why: "The per-call card offer must still be payable (open, priced as quoted, sold in the card's country) and the card known, since the caps count it; after the pack's own market check, before anything is held. A transfer's caps count its paying wallet.",
  needs: ['issued', 'payment'],
  gives: ['instrument'],
  run: async (ctx) => {
    const { payment } = ctx;
    if (payment.by === 'stablecoin') return given({ instrument: payment.transfer.wallet });
    const instrument = await perCallCardInstrument(ctx.issued, payment.token, ctx.ports, ctx.config);
    if (instrument === undefined) return purchaseAnswer(PURCHASE_ERRORS.metered_unavailable_for_card, surfaceOf(ctx.config));
    return given({ instrument });
  },
});

const CAPS = saleGuard({
  name: 'caps',
  codes: [
    PURCHASE_ERRORS.metered_principal_cap,
    PURCHASE_ERRORS.metered_ip_cap,
    PURCHASE_ERRORS.metered_instrument_cap,
    PURCHASE_ERRORS.metered_platform_ceiling,
  ],
  why: "Counting is a change, so it runs under the buyer's lock once nothing else refuses; the buyer's own cap, then the card's or wallet's, then the platform's (sale/caps.ts). A refusal after it gives the counts back.",
  needs: ['account', 'instrument'],
  gives: ['caps'],
  run: async (ctx) => {
    const { input } = ctx;
    const subject = { account: ctx.account, identity: input.identity, clientAddress: input.clientAddress, instrument: ctx.instrument };
    const counted = await takeCaps(capCounters(subject, ctx.config.sale.caps), ctx.ports.caps, input.now);
    if (!counted.taken) return purchaseAnswer(counted.refusal, surfaceOf(ctx.config), { retryAfterSeconds: counted.retryAfterSeconds });
    ctx.taken.push(() => ctx.ports.caps.release(counted.names, counted.day));
    return given({ caps: { names: counted.names, day: counted.day } });
  },
});

const SALE_RECORD = saleGuard({
  name: 'sale-record',
  codes: [],
  why: 'The sale is recorded with the caps it took once its payment record is open and before the payment is sent, so a payment that captures nothing gives them back exactly once.',
  needs: ['caps', 'issued', 'account', 'payer'],
  gives: [],
  run: async (ctx) => {
    const { caps } = ctx;
    await ctx.ports.sales.open(saleOf(ctx.issued, ctx.account, ctx.payer, ctx.input.now, { caps: caps.names, capDay: caps.day }));
    return undefined;
  },
});

const TABLE = [
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
] as const;

/** Compiles only while the table is in an order its guards can run in (guards/order.ts). */
const proven: InOrder<typeof TABLE> = true;

/**
 * The order of guards for a call to a priced single-call resource (7.4 single calls, section 3). The first
 * that answers decides; each that passes gives its facts to the guards after it. `balance`, `unidentified`,
 * `call-challenge`, `call-buyer`, `call-price`, `call-card`, `caps` and `sale-record` are the call's own; every
 * other entry is the very one PACK_GUARDS runs (machine/guards/). The vectors pin this order.
 */
export const SALE_GUARDS: readonly SaleGuard[] = proven && Object.freeze(TABLE);
