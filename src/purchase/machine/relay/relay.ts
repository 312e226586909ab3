import { HEADERS } from '../../../spec/headers.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer, type PaidSurface, type PurchaseAnswer } from '../answers.js';
import { MESSAGES } from '../messages.js';

/**
 * 7.4 502 upstream_payment_not_relayed: the platform relays no agent's payment challenges, receipts or
 * credentials. These are the pure decisions a relay to an agent makes on either side of the agent's answer.
 */

/** The agent's answer as the relay sees it (header names in any case). */
export interface RelayedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Why an agent's answer may not reach the caller. */
export type PaymentLeak = 'payment-challenge' | 'payment-receipt';

/**
 * The auth-scheme token `Payment` at the start of a challenge (RFC 9110 11.6.1): at the start of the value or after a
 * comma, then a space, a comma or the end. It finds every Payment challenge an RFC 9110 reading of the value finds
 * (a challenge starts the value or follows a comma), and those of values such a reading cannot read whole.
 */
const PAYMENT_SCHEME = /(?:^|,)\s*payment(?=[\s,]|$)/i;

function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/**
 * What in an agent's answer the platform must not relay: a Payment challenge in WWW-Authenticate (on a 402 or on
 * any other status, readable or not), or a Payment-Receipt. Undefined when the answer may be relayed as it is.
 */
export function paymentLeakOf(answer: RelayedAnswer): PaymentLeak | undefined {
  const authenticate = headerValue(answer.headers, HEADERS.wwwAuthenticate) ?? '';
  if (PAYMENT_SCHEME.test(authenticate)) return 'payment-challenge';
  if (headerValue(answer.headers, HEADERS.paymentReceipt) !== undefined) return 'payment-receipt';
  return undefined;
}

/** The header fields of a request relayed to an agent: the buyer's Payment-Authorization never reaches it. */
export function relayedRequestHeaders(headers: Iterable<readonly [string, string]>): Array<[string, string]> {
  return [...headers].filter(([name]) => name.toLowerCase() !== HEADERS.paymentAuthorization).map(([name, value]) => [name, value]);
}

/** What the platform answers instead of an agent's answer that carried a leak: 502 upstream_payment_not_relayed (no challenge). */
export function upstreamPaymentNotRelayedAnswer(surface: PaidSurface, leak: PaymentLeak): PurchaseAnswer {
  return purchaseAnswer(PURCHASE_ERRORS.upstream_payment_not_relayed, surface, { description: MESSAGES.upstreamPayment(leak === 'payment-challenge') });
}
