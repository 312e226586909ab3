import { HEADERS } from '../../../spec/headers.js';
import { deployedHeader } from '../../../spec/naming.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../../spec/types.js';
import { trustedHeader, type PurchaseRequest } from '../ports/outcome.js';
import type { IssuedChallenge, PurchaseConfig } from '../ports/purchase.js';

/**
 * 7.4 terms on a paid retry, shared by every paid surface: no assent (or assent not covered on a signed
 * request) is terms-acceptance-required; assent naming another version than the current one, or a challenge
 * issued under a version no longer current, is terms-version-stale. Both ride with a fresh challenge. Returns
 * the refusal, or undefined when the buyer accepted the current terms. Who may accept (the 401
 * terms_acceptance_unauthenticated) is the caller's check: it depends on whom the purchase is for.
 */
export function termsRefusal(input: PurchaseRequest, issued: Pick<IssuedChallenge, 'termsVersion'>, config: PurchaseConfig): PurchaseErrorRecord | undefined {
  const assent = trustedHeader(input, deployedHeader(HEADERS.termsAccepted, config.naming));
  if (assent === undefined) return PURCHASE_ERRORS['terms-acceptance-required'];
  if (assent.trim() !== config.terms.version || issued.termsVersion !== config.terms.version) return PURCHASE_ERRORS['terms-version-stale'];
  return undefined;
}
