import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS, STRIPE_PAYLOAD_MEMBERS } from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { sameEcho } from '../credential.js';
import { chargeOfSameCredential, chargeRecordFor, presentedCredential, resumeCharge, runCharge } from './card-charge.js';
import { withFreshChallenge } from './issue.js';
import { refusalBeforeCharge, serialisePurchase, type ChargeCandidate } from './pack-guards.js';
import { surfaceOf, type PurchaseOutcome, type PurchaseRequest } from './outcome.js';
import { termsRefusal } from './terms.js';
import type { PurchaseConfig, PurchasePorts } from './ports.js';
import { decideTransfer, resumeTransferFirst } from './tempo-decide.js';
import { chosenMethod, packOfferFor } from './tempo-offer.js';

/**
 * Decides a request to POST /api/mpp/credits (a usage pack paid by card). The order of checks:
 *
 * 1. A readable credential whose challenge already has a charge for the same token resumes it (section 3
 *    row 1) before anything else, so no switch or terms change can strand a charge already sent; likewise a
 *    stablecoin credential whose challenge already has a transfer for the same transaction (tempo-decide.ts).
 * 2. Switches: mpp_disabled, then purchases_disabled (403, nothing charged, no challenge).
 * 3. No credential: 503 mpp_not_configured if a trusted Service-Payment-Methods names no offered method, else
 *    402 payment-required with a fresh challenge of the first offered method it names (card by default; tempo-offer.ts).
 * 4. An unreadable credential: 402 malformed-credential.
 * 5. An unauthenticated caller: 401 terms_acceptance_unauthenticated (paying accepts the terms, and
 *    acceptance is taken only from the buying agent; nothing charged).
 * 6. A `tempo` credential goes the stablecoin path (tempo-decide.ts decideTransfer); any method other than
 *    `stripe` or `tempo`: 400 method-unsupported (no challenge).
 * 7. A challenge not issued here, or already redeemed with another token: 402 invalid-challenge; a single-call
 *    challenge (kind exact): 403 challenge_kind_mismatch (a pack challenge is honoured whatever resource issued it).
 * 8. A challenge older than its 300 s (no charge record behind it, see 1): 402 payment-expired.
 * 9. A payload without a shared payment token: 402 invalid-payload.
 * 10. No assent, or assent not covered on a signed request: 402 terms-acceptance-required; assent or the
 *     challenge naming a version that is not the current one: 402 terms-version-stale.
 * 11. Refusals before charging (pack-guards.ts): 503 payment_unreconciled, 403 purchases_unavailable_region,
 *     403 ownerless_balance_cap; then the buyer's lock (503 purchase_lock_unavailable, 503 purchase_in_flight)
 *     and the assent recorded (503 terms_record_failed).
 * 12. A token that already paid under another challenge: 403 foreign_token.
 * 13. The charge, recorded before it is sent: settled 200, declined or cancelled unsettled 402
 *     verification-failed, processing 503 charge_processing, unknown or a fault 503 charge_outcome_unknown.
 */
export async function decidePurchase(input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  const surface = surfaceOf(config);
  const { now } = input;
  const presented = presentedCredential(input);
  const { parsed, credential, token } = presented;

  const earlier = await chargeOfSameCredential(presented, ports.store);
  if (earlier !== undefined && earlier.issued.kind === PURCHASE_KINDS.pack) return resumeCharge(earlier.record, input, ports, config);
  const resumedTransfer = credential === undefined ? undefined : await resumeTransferFirst(credential, input, ports, config);
  if (resumedTransfer !== undefined) return resumedTransfer;

  if (!config.mppEnabled) return purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surface);
  if (!config.purchasesOpen) return purchaseAnswer(PURCHASE_ERRORS.purchases_disabled, surface);

  if (parsed === undefined) {
    const method = chosenMethod(input, ports, config);
    if (method === undefined) return purchaseAnswer(PURCHASE_ERRORS.mpp_not_configured, surface);
    return withFreshChallenge(PAYMENT_PROBLEMS.paymentRequired, ports, config, now, undefined, packOfferFor(method, ports, config));
  }
  if (!parsed.ok) return withFreshChallenge(PAYMENT_PROBLEMS.malformedCredential, ports, config, now, `${PAYMENT_PROBLEMS.malformedCredential.condition} (${parsed.detail})`);
  const echo = parsed.credential.challenge;

  if (input.buyer === null) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surface);
  const buyer = input.buyer.agentUrl;

  if (echo.method === PAYMENT_METHODS.tempo) return decideTransfer(parsed.credential, buyer, input, ports, config);
  if (echo.method !== PAYMENT_METHODS.stripe) return purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surface);

  const issued = await ports.store.challenge(echo.id);
  if (issued === undefined || !sameEcho(issued.echo, echo)) return withFreshChallenge(PAYMENT_PROBLEMS.invalidChallenge, ports, config, now);
  // A single-call challenge is redeemed only where it was issued; a pack challenge from any resource is honoured here (7.4).
  if (issued.kind !== PURCHASE_KINDS.pack) return purchaseAnswer(PURCHASE_ERRORS.challenge_kind_mismatch, surface);
  const redeemed = await ports.store.chargeOf(issued.id);
  // The same credential racing its own first presentation: that presentation opened the charge since the resume check above.
  if (redeemed !== undefined && token !== undefined && redeemed.token === token) return resumeCharge(redeemed, input, ports, config);
  if (redeemed !== undefined) return withFreshChallenge(PAYMENT_PROBLEMS.invalidChallenge, ports, config, now, 'The challenge was already redeemed with another payment; pay the fresh challenge on this response.');

  if (now > issued.expiresAt) return withFreshChallenge(PAYMENT_PROBLEMS.paymentExpired, ports, config, now);

  if (token === undefined) return withFreshChallenge(PURCHASE_ERRORS['invalid-payload'], ports, config, now, `A card credential's payload carries the shared payment token in ${STRIPE_PAYLOAD_MEMBERS.spt}; pay the fresh challenge on this response.`);

  const terms = termsRefusal(input, issued, config);
  if (terms !== undefined) return withFreshChallenge(terms, ports, config, now);

  const candidate = { input, buyer, token, issued };
  const refused = await refusalBeforeCharge(candidate, ports, config);
  if (refused !== undefined) return refused;
  const lock = await serialisePurchase(candidate, ports, config);
  if (!lock.held) return lock.answer;
  try {
    return await openAndCharge(candidate, ports, config);
  } finally {
    await lock.release();
  }
}

/** Opens the charge record (before the charge is sent, so every charge sent has one) and sends it. */
async function openAndCharge(candidate: ChargeCandidate, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  const { input, buyer, token, issued } = candidate;
  const opened = await ports.store.openCharge(chargeRecordFor(issued, buyer, token, input.now));
  if (!opened.opened) {
    if (opened.clash === 'token') return purchaseAnswer(PURCHASE_ERRORS.foreign_token, surfaceOf(config));
    // Another presentation of this very credential opened the charge a moment ago: resume it.
    if (opened.existing.token === token) return resumeCharge(opened.existing, input, ports, config);
    return withFreshChallenge(PAYMENT_PROBLEMS.invalidChallenge, ports, config, input.now);
  }
  const record = opened.record;
  return runCharge(record, () => ports.processor.charge(record.token, record.price, record.idempotencyKey), ports, config, input.now);
}

