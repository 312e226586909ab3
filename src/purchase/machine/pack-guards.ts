import { HEADERS } from '../../spec/headers.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { purchaseAnswer, type PurchaseAnswer } from '../answers.js';
import { codeAnswer, surfaceOf, trustedHeader, type PurchaseRequest } from './outcome.js';
import type { IssuedChallenge, PurchaseConfig, PurchasePorts } from './ports.js';

/** What the guards before a card charge look at. */
export interface ChargeCandidate {
  readonly input: PurchaseRequest;
  readonly buyer: string;
  readonly token: string;
  readonly issued: IssuedChallenge;
}

/**
 * The 403s and 503s of 7.4 that refuse a card purchase before anything is charged, in order:
 * 1. payment_unreconciled: this token already paid and was refunded because the payment matched nothing sold;
 * 2. purchases_unavailable_region: the card's market is closed, or its country cannot be established;
 * 3. ownerless_balance_cap (ownerlessCapRefusal).
 */
export async function refusalBeforeCharge(candidate: ChargeCandidate, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseAnswer | undefined> {
  const surface = surfaceOf(config);
  const unreconciled = await ports.store.unreconciledOf(candidate.token);
  if (unreconciled !== undefined) return purchaseAnswer(PURCHASE_ERRORS.payment_unreconciled, surface, { refund: unreconciled.refund });

  if (config.closedMarkets !== undefined) {
    const country = await ports.processor.instrumentCountry(candidate.token);
    if (country === undefined || config.closedMarkets.includes(country.toUpperCase())) return purchaseAnswer(PURCHASE_ERRORS.purchases_unavailable_region, surface);
  }

  return ownerlessCapRefusal(candidate, ports, config);
}

/**
 * 7.4 ownerless_balance_cap, whatever the method: an agent without an owner already holds the ownerless limit,
 * and the request does not claim it with an operator key (X-Service-Owner-Key, trusted only when covered on a
 * signed request). Undefined when the purchase may go on.
 */
export async function ownerlessCapRefusal(candidate: Pick<ChargeCandidate, 'input' | 'buyer'>, ports: Pick<PurchasePorts, 'buyers' | 'store'>, config: PurchaseConfig): Promise<PurchaseAnswer | undefined> {
  if (config.ownerlessBalanceCapNano === undefined || (await ports.buyers.hasOwner(candidate.buyer))) return undefined;
  const balance = BigInt(await ports.store.balance(candidate.buyer));
  const claim = trustedHeader(candidate.input, HEADERS.ownerKey);
  const claimed = claim !== undefined && (config.ownerKeys ?? []).includes(claim.trim());
  return !claimed && balance >= BigInt(config.ownerlessBalanceCapNano) ? purchaseAnswer(PURCHASE_ERRORS.ownerless_balance_cap, surfaceOf(config)) : undefined;
}

export type LockOutcome = { readonly held: true; release(): Promise<void> } | { readonly held: false; readonly answer: PurchaseAnswer };

/**
 * One purchase at a time per buyer: the lock, then any card charge or stablecoin transfer of this buyer still
 * settling under another challenge (7.4 purchase_in_flight), then the buyer's assent recorded (7.4 terms_record_failed). Every
 * refusal here is a 503 the same credential completes later; nothing was charged.
 */
export async function serialisePurchase(candidate: ChargeCandidate, ports: PurchasePorts, config: PurchaseConfig): Promise<LockOutcome> {
  const surface = surfaceOf(config);
  let release: (() => unknown) | null;
  try {
    release = await ports.lock.acquire(candidate.buyer);
  } catch {
    return { held: false, answer: purchaseAnswer(PURCHASE_ERRORS.purchase_lock_unavailable, surface) };
  }
  if (release === null) return { held: false, answer: purchaseAnswer(PURCHASE_ERRORS.purchase_in_flight, surface) };
  const unlock = release;
  const releaseOnce = async () => {
    await unlock();
  };
  const refuse = async (answer: PurchaseAnswer): Promise<LockOutcome> => {
    await releaseOnce();
    return { held: false, answer };
  };
  const settling =
    (await ports.store.pendingChargeOf(candidate.buyer, candidate.issued.id)) ??
    (await ports.stablecoin?.transfers.pendingTransferOf(candidate.buyer, candidate.issued.id));
  if (settling !== undefined) return refuse(purchaseAnswer(PURCHASE_ERRORS.purchase_in_flight, surface));
  try {
    await ports.store.recordAssent({ buyer: candidate.buyer, version: candidate.issued.termsVersion, challengeId: candidate.issued.id, at: candidate.input.now });
  } catch {
    return refuse(codeAnswer(PURCHASE_ERRORS.terms_record_failed, config));
  }
  return { held: true, release: releaseOnce };
}
