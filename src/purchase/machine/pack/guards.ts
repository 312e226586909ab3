import { PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { sameEcho } from '../../wire/credential.js';
import { METHOD, OFFER, READABLE, SWITCHES } from '../guards/before-challenge.js';
import { LOCK, MARKET, UNRECONCILED, WALLET_CAP } from '../guards/before-payment.js';
import { EXPIRY, PAYLOAD, TERMS, TRANSACTION } from '../guards/challenge.js';
import { given, type PurchaseFacts } from '../guards/facts.js';
import { guardOf, type PurchaseBase, type PurchaseGuard } from '../guards/guard.js';
import type { InOrder } from '../guards/order.js';
import { CHARGE, RECORD } from '../guards/payment.js';
import { ownerlessCapRefusal } from '../guards/refusals.js';
import { SAME_CREDENTIAL } from '../guards/same-credential.js';
import { MESSAGES } from '../messages.js';
import { surfaceOf, type PurchaseOutcome } from '../ports/outcome.js';

export type PackBase = PurchaseBase<PurchaseOutcome>;
export type PackGuard = PurchaseGuard<PackBase, PurchaseFacts>;

const packGuard = guardOf<PackBase, PurchaseFacts>();

const BUYER = packGuard({
  name: 'buyer',
  codes: [PURCHASE_ERRORS.terms_acceptance_unauthenticated],
  why: 'Paying accepts the terms and acceptance is taken only from the buying agent (7.4 401, nothing charged, no challenge); the pack is bought by whoever authenticated, so this needs nothing from the challenge.',
  needs: [],
  gives: ['payer'],
  run: (ctx) => {
    if (ctx.input.buyer === null) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(ctx.config));
    return given({ payer: ctx.input.buyer.agentUrl });
  },
});

const PACK_CHALLENGE = packGuard({
  name: 'pack-challenge',
  codes: [PAYMENT_PROBLEMS.invalidChallenge, PURCHASE_ERRORS.challenge_kind_mismatch],
  why: 'The credential must echo, byte for byte, a pack challenge issued here and not yet redeemed by a card charge (a transfer is judged by the transaction and record guards); a pack challenge is honoured whatever resource issued it, a single-call one never here (7.4).',
  needs: ['credential', 'recorded'],
  gives: ['issued'],
  run: async (ctx) => {
    const { ports, surface, credential } = ctx;
    const echo = credential.challenge;
    const issued = await ports.store.challenge(echo.id);
    if (issued === undefined || !sameEcho(issued.echo, echo)) return surface.fresh(PAYMENT_PROBLEMS.invalidChallenge);
    if (issued.kind !== PURCHASE_KINDS.pack) return purchaseAnswer(PURCHASE_ERRORS.challenge_kind_mismatch, surfaceOf(ctx.config));
    // A challenge a card charge redeemed (a stablecoin one has none: the transaction and record guards judge its transfer),
    // as the same-credential guard read it under this very id: a charge of this same credential was resumed there. One
    // opened since (the same credential racing its own first presentation) is met by the record guard's atomic open,
    // which resumes it. Before the lock and the caps: a redeemed challenge is refused as such even while the buyer's lock
    // is unavailable.
    if (ctx.recorded.charge !== undefined) return surface.fresh(PAYMENT_PROBLEMS.invalidChallenge, { description: MESSAGES.redeemedByPayment });
    return given({ issued });
  },
});

const OWNERLESS = packGuard({
  name: 'ownerless',
  codes: [PURCHASE_ERRORS.ownerless_balance_cap],
  why: 'An agent without an owner may hold only so much purchased balance (7.4 403), unless a covered operator key claims it; the pack adds to the balance, a single call is spent on itself.',
  needs: ['payer'],
  gives: [],
  run: (ctx) => ownerlessCapRefusal({ input: ctx.input, buyer: ctx.payer }, ctx.ports, ctx.config),
});

const TABLE = [
  SAME_CREDENTIAL,
  SWITCHES,
  OFFER,
  READABLE,
  BUYER,
  METHOD,
  PACK_CHALLENGE,
  EXPIRY,
  PAYLOAD,
  TERMS,
  TRANSACTION,
  UNRECONCILED,
  MARKET,
  OWNERLESS,
  LOCK,
  WALLET_CAP,
  RECORD,
  CHARGE,
] as const;

/** Compiles only while the table is in an order its guards can run in (guards/order.ts). */
const proven: InOrder<typeof TABLE> = true;

/**
 * The order of guards at POST /api/mpp/credits (a usage pack, by card or stablecoin; 7.4, section 3). The
 * first that answers decides; each that passes gives its facts to the guards after it. `buyer`,
 * `pack-challenge` and `ownerless` are the pack's own; every other entry is the very one SALE_GUARDS runs
 * (machine/guards/). The vectors pin this order.
 */
export const PACK_GUARDS: readonly PackGuard[] = proven && Object.freeze(TABLE);
