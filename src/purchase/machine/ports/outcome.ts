import { HEADERS } from '../../../spec/headers.js';
import { deployedHeader, type ServiceNaming } from '../../../spec/naming.js';
import { purchaseAnswer, type AnswerDetails, type PaidSurface, type PurchaseAnswer } from '../answers.js';
import type { PurchaseErrorRecord } from '../../../spec/types.js';
import { DEFAULT_RETRY_AFTER_S } from '../../wire/wire.js';
import type { JsonObject } from '../../wire/json.js';
import type { PurchaseConfig } from './purchase.js';

/** A request to POST /api/mpp/credits whose caller the verifier already decided. */
export interface PurchaseRequest {
  /** The authenticated buying agent; null for an unauthenticated request. */
  readonly buyer: { readonly agentUrl: string } | null;
  /** Whether the caller authenticated with a signature (then assent counts only when covered). */
  readonly signed: boolean;
  /** Covered components of the signature, lower-case. */
  readonly coveredHeaders: readonly string[];
  /** Request header fields (names in any case). */
  readonly headers: Readonly<Record<string, string>>;
  /** Clock seconds the request is decided at. */
  readonly now: number;
}

/** The paid answer: the pack is on the buyer's balance. */
export interface PurchaseGranted {
  readonly ok: true;
  readonly status: 200;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JsonObject;
}

export type PurchaseOutcome = PurchaseAnswer | PurchaseGranted;

export function isGranted(outcome: PurchaseOutcome): outcome is PurchaseGranted {
  return 'ok' in outcome && outcome.ok === true;
}

export function headerOf(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

export const surfaceOf = (config: PurchaseConfig): PaidSurface => ({
  problemBases: config.problemBases,
  terms: config.terms,
  ...(config.naming ? { naming: config.naming } : {}),
});

/** A header counts on a signed request only when covered; on a bearer-authenticated or unauthenticated one, as sent. */
export function trustedHeader(input: PurchaseRequest, name: string): string | undefined {
  if (input.signed && !input.coveredHeaders.some((c) => c.toLowerCase() === name)) return undefined;
  return headerOf(input.headers, name);
}

/**
 * Method ids of Service-Payment-Methods (`tempo, stripe`; under the deployment's name), or undefined when absent or
 * not covered. An empty element of the list (RFC 9110 5.6.1) stays as '', which names no method offered.
 */
export function acceptedMethods(input: PurchaseRequest, naming?: ServiceNaming): string[] | undefined {
  return trustedHeader(input, deployedHeader(HEADERS.paymentMethods, naming))
    ?.split(',')
    .map((m) => m.trim().toLowerCase());
}

/**
 * A 7.4 code row answered with the deployment's Retry-After where the catalogue says the row carries one
 * (the spec gives no number; docs/platform-sdk.md g shows the platform sending 5).
 */
export function codeAnswer(record: PurchaseErrorRecord, config: PurchaseConfig, details: AnswerDetails = {}): PurchaseAnswer {
  const retry = record.retryAfter ? { retryAfterSeconds: config.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_S } : {};
  return purchaseAnswer(record, surfaceOf(config), { ...retry, ...details });
}
