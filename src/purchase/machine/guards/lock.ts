import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer, type PurchaseAnswer } from '../answers.js';
import { codeAnswer, surfaceOf } from '../ports/outcome.js';
import type { PurchaseConfig, PurchasePorts } from '../ports/purchase.js';
import type { ChargeCandidate } from './refusals.js';

export type LockOutcome = { readonly held: true; release(): Promise<void> } | { readonly held: false; readonly answer: PurchaseAnswer };

/**
 * One purchase at a time per buyer: the lock, then any card charge or stablecoin transfer of this buyer still
 * settling under another challenge (7.4 purchase_in_flight; a store that cannot say is purchase_lock_unavailable), then
 * the buyer's assent recorded (7.4 terms_record_failed). Every
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
  let settling: unknown;
  try {
    settling =
      (await ports.store.pendingChargeOf(candidate.buyer, candidate.issued.id)) ??
      (await ports.stablecoin?.transfers.pendingTransferOf(candidate.buyer, candidate.issued.id));
  } catch {
    // Whether another purchase of the buyer is settling cannot be read, so this one cannot be serialised: not started.
    return refuse(purchaseAnswer(PURCHASE_ERRORS.purchase_lock_unavailable, surface));
  }
  if (settling !== undefined) return refuse(purchaseAnswer(PURCHASE_ERRORS.purchase_in_flight, surface));
  try {
    await ports.store.recordAssent({
      buyer: candidate.buyer,
      version: candidate.issued.termsVersion,
      challengeId: candidate.issued.id,
      at: candidate.input.now,
    });
  } catch {
    return refuse(codeAnswer(PURCHASE_ERRORS.terms_record_failed, config));
  }
  return { held: true, release: releaseOnce };
}
