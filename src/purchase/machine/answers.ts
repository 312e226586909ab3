import { AUTH_ERROR_BODY_ERROR } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { deployedHeader, namedText, NEUTRAL_NAMING, type ServiceNaming } from '../../spec/naming.js';
import {
  LINK_RELS,
  PAYMENT_CACHE_CONTROL,
  PAYMENT_CREDENTIAL_HEADER,
  PURCHASE_BODY_MEMBERS,
  PURCHASE_ROW_BODY,
  RETRY_MEMBERS,
  TERMS_OBJECT_MEMBERS,
  wireFieldName,
  type PaymentProblemRecord,
  type RefundState,
} from '../../spec/payments.js';
import { problemTypeUrl, type ProblemBases } from '../../spec/problem-types.js';
import type { PurchaseErrorCode } from '../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import { BEARER_CHALLENGE } from '../../spec/wire.js';
import { quotedString } from '../wire/auth-params.js';
import { serializeChallenge, type PaymentChallenge } from '../wire/challenge.js';
import type { JsonObject } from '../wire/json.js';
import type { TermsNotice } from '../wire/wire.js';

/**
 * What a paid surface answers (docs/architecture.md): status, the code or problem slug, every header (lower-case
 * names, values as they go on the wire) and the JSON body. `reference/render.ts` turns it into a Response.
 *
 * Body shapes:
 * - problem rows (402, and the 400 method-unsupported): RFC 9457 `application/problem+json`
 *   `{type, title, status, detail}`; a 402 adds `challengeId` (the id of the challenge riding on it, as the
 *   Payment scheme's own example does) and `terms: {url, version, header}` (the SDK reads the version from the
 *   header first, then from here; docs/platform-sdk.md g).
 * - code rows: `application/json` `{error, error_code, error_description, retry?, purchase?, refund?, receipt?}`.
 *   `error` and `error_code` both carry the code: 2.6 and 7.4 say "a stable error code in the body", the
 *   platform's SDK reads `error` as the code of a 503 (`{"error":"charge_outcome_unknown","retry":{…}}`), and
 *   `error_code`/`error_description` are the names every other refusal of the platform uses (7.3), so a client
 *   reading either finds the code. The one exception is the 401 (terms_acceptance_unauthenticated): it keeps
 *   the 7.3 body exactly (`error` is "Unauthorized"), since 7.4 says a 401 on a paid surface carries
 *   `error_code` and `error_description` the way the verifier's do.
 */
export interface PurchaseAnswer {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JsonObject;
}

/** What an answer takes from the deployment: where its problem types live, its terms, and its own names for Service (neutral by default). */
export interface PaidSurface {
  readonly problemBases: ProblemBases;
  readonly terms: TermsNotice;
  readonly naming?: ServiceNaming;
}

/** What varies per answer. Each row says which of these it needs; the rest are optional extras. */
export interface AnswerDetails {
  /** A fresh challenge: required exactly where the row carries one (every 402), refused elsewhere. */
  readonly challenge?: PaymentChallenge;
  /** Delay-seconds for Retry-After: required where the row carries it, ignored elsewhere (the catalogue decides). */
  readonly retryAfterSeconds?: number;
  /** The purchase block (required for funding_failed; any settled answer may carry one, docs/platform-sdk.md g). */
  readonly purchase?: JsonObject;
  /** Whether the refund is issued or pending (required for payment_unreconciled). */
  readonly refund?: RefundState;
  /** The receipt of a settled payment (the 409 answers carry one on the platform). */
  readonly receipt?: JsonObject;
  /** Replaces the catalogue's sentence as the description a person acts on. */
  readonly description?: string;
}

/**
 * `Link: <url>; rel="terms-of-service"` and the terms-version header (Service-Terms-Version, under the deployment's
 * name): on every 402, and on every answer of a paid surface once it funded the call (7.4).
 */
export function termsHeaders(termsUrl: string, version: string, naming?: ServiceNaming): Readonly<Record<string, string>> {
  if (/[<>\s]/.test(termsUrl)) throw new TypeError(`terms URL ${JSON.stringify(termsUrl)} cannot sit in a Link header`);
  return Object.freeze({
    [HEADERS.link]: `<${termsUrl}>; rel=${quotedString(LINK_RELS.termsOfService)}`,
    [deployedHeader(HEADERS.termsVersion, naming)]: version,
  });
}

/** `terms-acceptance-required` reads "Terms acceptance required". */
function titleOf(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function retryAfterHeader(seconds: number | undefined, code: string): Record<string, string> {
  if (seconds === undefined) throw new TypeError(`${code} carries Retry-After: give retryAfterSeconds`);
  if (!Number.isInteger(seconds) || seconds < 0) throw new TypeError(`Retry-After must be whole non-negative seconds, not ${seconds}`);
  return { [HEADERS.retryAfter]: String(seconds) };
}

function extras(details: AnswerDetails): JsonObject {
  return {
    ...(details.purchase === undefined ? {} : { [PURCHASE_BODY_MEMBERS.purchase]: details.purchase }),
    ...(details.refund === undefined ? {} : { [PURCHASE_BODY_MEMBERS.refund]: details.refund }),
    ...(details.receipt === undefined ? {} : { [PURCHASE_BODY_MEMBERS.receipt]: details.receipt }),
  };
}

interface ProblemRow {
  readonly status: number;
  readonly slug: string;
  readonly base: keyof ProblemBases;
  readonly title: string;
  readonly detail: string;
  readonly challenge: boolean;
}

function problemAnswer(row: ProblemRow, surface: PaidSurface, details: AnswerDetails): PurchaseAnswer {
  const { challenge } = details;
  if (row.challenge && !challenge) throw new TypeError(`${row.slug} carries a fresh challenge: give one`);
  if (!row.challenge && challenge) throw new TypeError(`${row.slug} carries no challenge`);
  const headers: Record<string, string> = {
    [HEADERS.contentType]: MEDIA_TYPES.problemJson,
    [HEADERS.cacheControl]: PAYMENT_CACHE_CONTROL,
    ...(challenge
      ? { [HEADERS.wwwAuthenticate]: serializeChallenge(challenge), ...termsHeaders(surface.terms.url, surface.terms.version, surface.naming) }
      : {}),
  };
  const body: JsonObject = {
    type: problemTypeUrl(surface.problemBases, row.base, row.slug),
    title: row.title,
    status: row.status,
    detail: row.detail,
    ...(challenge
      ? {
          [PURCHASE_BODY_MEMBERS.challengeId]: challenge.id,
          [PURCHASE_BODY_MEMBERS.terms]: {
            [TERMS_OBJECT_MEMBERS.url]: surface.terms.url,
            [TERMS_OBJECT_MEMBERS.version]: surface.terms.version,
            [TERMS_OBJECT_MEMBERS.header]: wireFieldName(deployedHeader(HEADERS.termsAccepted, surface.naming)),
          },
        }
      : {}),
    ...extras(details),
  };
  return Object.freeze({ status: row.status, code: row.slug, headers: Object.freeze(headers), body: Object.freeze(body) });
}

function codeAnswer(record: PurchaseErrorRecord, naming: ServiceNaming, details: AnswerDetails): PurchaseAnswer {
  if (details.challenge) throw new TypeError(`${record.code} carries no challenge`);
  for (const member of PURCHASE_ROW_BODY[record.code as PurchaseErrorCode] ?? []) {
    if (details[member as keyof AnswerDetails] === undefined) throw new TypeError(`${record.code} carries ${member} in its body: give it`);
  }
  const unauthenticated = record.status === 401;
  const headers: Record<string, string> = {
    [HEADERS.contentType]: MEDIA_TYPES.json,
    [HEADERS.cacheControl]: PAYMENT_CACHE_CONTROL,
    // RFC 9110 15.5.2: a 401 names a scheme that would authenticate; no error param, as no token was refused (RFC 6750 3.1).
    ...(unauthenticated ? { [HEADERS.wwwAuthenticate]: `${BEARER_CHALLENGE.scheme} realm=${quotedString(naming.realm)}` } : {}),
    ...(record.retryAfter ? retryAfterHeader(details.retryAfterSeconds, record.code) : {}),
  };
  const retry: JsonObject = record.retry
    ? {
        [PURCHASE_BODY_MEMBERS.retry]: {
          [RETRY_MEMBERS.sameCredential]: record.retry.sameCredential,
          ...(record.retry.sameCredential ? { [RETRY_MEMBERS.credentialHeader]: PAYMENT_CREDENTIAL_HEADER } : {}),
        },
      }
    : {};
  const body: JsonObject = {
    [PURCHASE_BODY_MEMBERS.error]: unauthenticated ? AUTH_ERROR_BODY_ERROR : record.code,
    [PURCHASE_BODY_MEMBERS.errorCode]: record.code,
    [PURCHASE_BODY_MEMBERS.errorDescription]: details.description ?? namedText(record.condition, naming),
    ...retry,
    ...extras(details),
  };
  return Object.freeze({ status: record.status, code: record.code, headers: Object.freeze(headers), body: Object.freeze(body) });
}

/** The answer for a row of 7.4, exactly as its catalogue record says. Throws a TypeError when a detail the row needs is missing. */
export function purchaseAnswer(record: PurchaseErrorRecord, surface: PaidSurface, details: AnswerDetails = {}): PurchaseAnswer {
  if (record.kind === 'code') return codeAnswer(record, surface.naming ?? NEUTRAL_NAMING, details);
  const row: ProblemRow = {
    status: record.status,
    slug: record.code,
    base: record.problemBase!,
    title: titleOf(record.code),
    detail: details.description ?? namedText(record.condition, surface.naming),
    challenge: record.challenge,
  };
  return problemAnswer(row, surface, details);
}

/** A 402 of the Payment scheme itself (payment-required, payment-expired, …): problem body, fresh challenge, terms headers. */
export function paymentProblemAnswer(
  problem: PaymentProblemRecord,
  surface: PaidSurface,
  challenge: PaymentChallenge,
  details: Omit<AnswerDetails, 'challenge'> = {},
): PurchaseAnswer {
  return problemAnswer(
    {
      status: problem.status,
      slug: problem.slug,
      base: problem.base,
      title: problem.title,
      detail: details.description ?? problem.condition,
      challenge: problem.challenge,
    },
    surface,
    { ...details, challenge },
  );
}
