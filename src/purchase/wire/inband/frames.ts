import {
  FRAME_MEMBERS,
  INBAND_FRAME_TYPES,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  PAYMENT_SUBMIT_MEMBERS,
  RESPONSE_MEMBERS,
  RESPONSE_STATUS_COMPLETED,
  SCHEME_ENTRY_MEMBERS,
  SOCKET_ERROR_MEMBERS,
} from '../../../spec/inband.js';
import { TERMS_OBJECT_MEMBERS } from '../../../spec/payments.js';
import type { TermsNotice } from '../wire.js';
import { serializeChallenge, type PaymentChallenge } from '../challenge.js';
import { parsePaymentChallenge } from '../challenge-parse.js';
import type { JsonObject, JsonValue } from '../json.js';

/** The terms object of a funded frame and of an mpp entry: `{url, version}`. */
export interface TermsObject {
  readonly url: string;
  readonly version: string;
}

export interface TokenSchemeEntry {
  readonly scheme: typeof INBAND_SCHEMES.token;
}

/** An mpp entry with a challenge: the Payment challenge value exactly as `WWW-Authenticate` would carry it. */
export interface MppChallengeEntry {
  readonly scheme: typeof INBAND_SCHEMES.mpp;
  readonly challenge: string;
  readonly purchase_url: string;
  readonly terms: TermsObject;
}

/** The purchase pointer: an mpp entry holding only purchase_url (no challenge). */
export interface MppPointerEntry {
  readonly scheme: typeof INBAND_SCHEMES.mpp;
  readonly purchase_url: string;
}

export type SchemeEntry = TokenSchemeEntry | MppChallengeEntry | MppPointerEntry;

export interface PaymentRequirements {
  /** The price of what waits, as a decimal string in `currency`. */
  readonly amount: string;
  readonly currency: string;
  /** The token entry at index 0, then at most one mpp entry. */
  readonly schemes: readonly SchemeEntry[];
  readonly reason?: string;
}

export interface PaymentRequiredFrame {
  readonly type: typeof INBAND_FRAME_TYPES.paymentRequired;
  readonly event_id: string;
  readonly requirements: PaymentRequirements;
}

export interface PaymentSubmitFrame {
  readonly type: typeof INBAND_FRAME_TYPES.paymentSubmit;
  readonly event_id: string;
  readonly payment: { readonly scheme: typeof INBAND_SCHEMES.balance; readonly amount: string };
}

export interface PaymentAcceptedFrame {
  readonly type: typeof INBAND_FRAME_TYPES.paymentAccepted;
  readonly event_id: string;
  readonly payment_id: string;
  /** What is left of the balance after the turn was funded, in nano units. */
  readonly balance_remaining?: string;
  readonly terms: TermsObject;
}

export interface ResponseDoneFrame {
  readonly type: typeof INBAND_FRAME_TYPES.responseDone;
  readonly event_id: string;
  readonly response: { readonly id: string; readonly status: string; readonly output: readonly JsonValue[] };
  /** Every turn that runs was funded (6). */
  readonly terms: TermsObject;
}

export interface ResponseErrorFrame {
  readonly type: typeof INBAND_FRAME_TYPES.responseError;
  readonly event_id: string;
  readonly error: { readonly code: string; readonly message: string };
  /** Present on a funded turn (6). */
  readonly terms?: TermsObject;
}

/** What a client sends to start a turn on the reference socket (UAMP's `response.create`; not shown in the spec). */
export interface ResponseCreateFrame {
  readonly type: typeof INBAND_FRAME_TYPES.responseCreate;
  readonly event_id: string;
  readonly input?: string;
}

export type InbandFrame = PaymentRequiredFrame | PaymentSubmitFrame | PaymentAcceptedFrame | ResponseDoneFrame | ResponseErrorFrame | ResponseCreateFrame;

export function termsObject(terms: TermsNotice): TermsObject {
  if (terms.url === '' || terms.version === '') throw new TypeError('a terms object needs a url and a version');
  return Object.freeze({ [TERMS_OBJECT_MEMBERS.url]: terms.url, [TERMS_OBJECT_MEMBERS.version]: terms.version });
}

function absolutePurchaseUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') return text;
  } catch {
    // fall through
  }
  throw new TypeError(`purchase_url ${JSON.stringify(text)} is not an absolute http(s) URL`);
}

export function tokenSchemeEntry(): TokenSchemeEntry {
  return Object.freeze({ [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.token });
}

/**
 * The mpp entry of payment.required: the challenge (a PaymentChallenge, or a `WWW-Authenticate` value as the
 * purchase machine wrote it, which must hold exactly one Payment challenge), where to pay it, and the terms.
 */
export function mppChallengeEntry(challenge: PaymentChallenge | string, purchaseUrl: string, terms: TermsNotice): MppChallengeEntry {
  let value: string;
  if (typeof challenge === 'string') {
    const parsed = parsePaymentChallenge(challenge);
    if (!parsed.ok) throw new TypeError(`the challenge value is not one Payment challenge: ${parsed.detail}`);
    value = challenge;
  } else {
    value = serializeChallenge(challenge);
  }
  return Object.freeze({
    [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.mpp,
    [SCHEME_ENTRY_MEMBERS.challenge]: value,
    [SCHEME_ENTRY_MEMBERS.purchaseUrl]: absolutePurchaseUrl(purchaseUrl),
    [SCHEME_ENTRY_MEMBERS.terms]: termsObject(terms),
  });
}

/** The purchase pointer entry: `{scheme: "mpp", purchase_url}` and nothing else. */
export function mppPointerEntry(purchaseUrl: string): MppPointerEntry {
  return Object.freeze({ [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.mpp, [SCHEME_ENTRY_MEMBERS.purchaseUrl]: absolutePurchaseUrl(purchaseUrl) });
}

export interface RequirementsInput {
  readonly amount: string;
  readonly currency: string;
  /** The mpp entry; none where the deployment sells no usage (then the token entry stands alone). */
  readonly mpp?: MppChallengeEntry | MppPointerEntry | null;
  readonly reason?: string;
}

/** `requirements`: the token entry at index 0, then the mpp entry when there is one. */
export function paymentRequirements(input: RequirementsInput): PaymentRequirements {
  return Object.freeze({
    [PAYMENT_REQUIREMENTS_MEMBERS.amount]: input.amount,
    [PAYMENT_REQUIREMENTS_MEMBERS.currency]: input.currency,
    [PAYMENT_REQUIREMENTS_MEMBERS.schemes]: Object.freeze([tokenSchemeEntry(), ...(input.mpp ? [input.mpp] : [])]),
    ...(input.reason === undefined ? {} : { [PAYMENT_REQUIREMENTS_MEMBERS.reason]: input.reason }),
  });
}

export function paymentRequiredFrame(eventId: string, requirements: PaymentRequirements): PaymentRequiredFrame {
  return Object.freeze({
    [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.paymentRequired,
    [FRAME_MEMBERS.eventId]: eventId,
    [FRAME_MEMBERS.requirements]: requirements,
  });
}

/** The client's frame after paying at purchase_url: `payment.scheme` balance, so the socket re-reads the balance. */
export function paymentSubmitFrame(eventId: string, amount: string): PaymentSubmitFrame {
  return Object.freeze({
    [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.paymentSubmit,
    [FRAME_MEMBERS.eventId]: eventId,
    [FRAME_MEMBERS.payment]: Object.freeze({ [PAYMENT_SUBMIT_MEMBERS.scheme]: INBAND_SCHEMES.balance, [PAYMENT_SUBMIT_MEMBERS.amount]: amount }),
  });
}

export function paymentAcceptedFrame(
  eventId: string,
  input: { readonly paymentId: string; readonly balanceRemaining?: string; readonly terms: TermsNotice },
): PaymentAcceptedFrame {
  return Object.freeze({
    [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.paymentAccepted,
    [FRAME_MEMBERS.eventId]: eventId,
    [FRAME_MEMBERS.paymentId]: input.paymentId,
    ...(input.balanceRemaining === undefined ? {} : { [FRAME_MEMBERS.balanceRemaining]: input.balanceRemaining }),
    [FRAME_MEMBERS.terms]: termsObject(input.terms),
  });
}

/** response.done with the turn's text output and the terms object: a turn runs only once it is funded (6). */
export function responseDoneFrame(
  eventId: string,
  input: { readonly responseId: string; readonly output: readonly JsonValue[]; readonly terms: TermsNotice },
): ResponseDoneFrame {
  return Object.freeze({
    [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.responseDone,
    [FRAME_MEMBERS.eventId]: eventId,
    [FRAME_MEMBERS.response]: Object.freeze({
      [RESPONSE_MEMBERS.id]: input.responseId,
      [RESPONSE_MEMBERS.status]: RESPONSE_STATUS_COMPLETED,
      [RESPONSE_MEMBERS.output]: Object.freeze([...input.output]),
    }),
    [FRAME_MEMBERS.terms]: termsObject(input.terms),
  });
}

/** response.error; `terms` on a funded turn, null on a refusal before anything was funded. */
export function responseErrorFrame(
  eventId: string,
  input: { readonly code: string; readonly message: string; readonly terms: TermsNotice | null },
): ResponseErrorFrame {
  return Object.freeze({
    [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.responseError,
    [FRAME_MEMBERS.eventId]: eventId,
    [FRAME_MEMBERS.error]: Object.freeze({ [SOCKET_ERROR_MEMBERS.code]: input.code, [SOCKET_ERROR_MEMBERS.message]: input.message }),
    ...(input.terms === null ? {} : { [FRAME_MEMBERS.terms]: termsObject(input.terms) }),
  });
}

export function responseCreateFrame(eventId: string, input?: string): ResponseCreateFrame {
  return Object.freeze({
    [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.responseCreate,
    [FRAME_MEMBERS.eventId]: eventId,
    ...(input === undefined ? {} : { [FRAME_MEMBERS.input]: input }),
  });
}

/** A frame as it goes on the socket: one JSON text message. */
export function serializeFrame(frame: InbandFrame | JsonObject): string {
  return JSON.stringify(frame);
}
