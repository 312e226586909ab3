import { HEADERS } from '../../spec/headers.js';
import {
  DELEGATE_MEMBERS,
  DELEGATE_STATUSES,
  FRAME_MEMBERS,
  FUNDED_FRAME_TYPES,
  INBAND_FRAME_TYPES,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  POINTER_BODY_MEMBERS,
  SCHEME_ENTRY_MEMBERS,
  type InbandFrameType,
} from '../../spec/inband.js';
import { PAYMENT_CREDENTIAL_HEADER, TERMS_OBJECT_MEMBERS } from '../../spec/payments.js';
import { paymentChallenges, singlePaymentChallenge } from '../wire/challenge-parse.js';
import { isJsonObject, type JsonObject } from '../wire/json.js';
import { at, checkType, describe, frameObject, Problems, type InbandCheck } from '../wire/inband/problems.js';

/*
 * The judge's checks of the frames and bodies a deployment sends (suite 6 calls them). They are held by their
 * own unit tests: a conformant target never sends the bad frame that would show a loosened check.
 */

/**
 * Which mpp entry requirements must hold: `challenge` (payment.required on a signed socket), `pointer`
 * (scheme and purchase_url only), `absent` (a deployment that sells no usage), `any` (either form, or none).
 */
export type MppExpectation = 'challenge' | 'pointer' | 'absent' | 'any';

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function checkNonEmptyString(value: unknown, pointer: string, problems: Problems): value is string {
  if (typeof value === 'string' && value !== '') return true;
  problems.add(pointer, `must be a non-empty string, is ${describe(value)}`);
  return false;
}

function checkUrl(value: unknown, pointer: string, problems: Problems): void {
  if (checkNonEmptyString(value, pointer, problems) && !isHttpUrl(value)) problems.add(pointer, `must be an absolute http(s) URL, is ${describe(value)}`);
}

/** A terms object: `url` an absolute URL and `version` a non-empty string (other members are allowed). */
function checkTerms(value: unknown, pointer: string, problems: Problems): void {
  if (!isJsonObject(value))
    return problems.add(pointer, `must be a terms object {${TERMS_OBJECT_MEMBERS.url}, ${TERMS_OBJECT_MEMBERS.version}}, is ${describe(value)}`);
  checkUrl(value[TERMS_OBJECT_MEMBERS.url], at(pointer, TERMS_OBJECT_MEMBERS.url), problems);
  checkNonEmptyString(value[TERMS_OBJECT_MEMBERS.version], at(pointer, TERMS_OBJECT_MEMBERS.version), problems);
}

function checkChallengeValue(value: unknown, pointer: string, problems: Problems): void {
  if (!checkNonEmptyString(value, pointer, problems)) return;
  const parsed = singlePaymentChallenge(value);
  if (!parsed.ok) return problems.add(pointer, `must be one Payment challenge as WWW-Authenticate carries it: ${parsed.detail}`);
  if (parsed.challenge.header !== PAYMENT_CREDENTIAL_HEADER) problems.add(pointer, `the challenge must name header="${PAYMENT_CREDENTIAL_HEADER}"`);
}

function checkMppEntry(entry: JsonObject, pointer: string, expect: MppExpectation, problems: Problems): void {
  const challenge = entry[SCHEME_ENTRY_MEMBERS.challenge];
  const isPointer = challenge === undefined;
  if (expect === 'absent') return problems.add(pointer, 'no mpp entry is due where the deployment sells no usage');
  checkUrl(entry[SCHEME_ENTRY_MEMBERS.purchaseUrl], at(pointer, SCHEME_ENTRY_MEMBERS.purchaseUrl), problems);
  if (expect === 'challenge' && isPointer)
    return problems.add(at(pointer, SCHEME_ENTRY_MEMBERS.challenge), 'the mpp entry must carry the Payment challenge, and it is missing');
  if (isPointer) {
    const extra = Object.keys(entry).filter((name) => name !== SCHEME_ENTRY_MEMBERS.scheme && name !== SCHEME_ENTRY_MEMBERS.purchaseUrl);
    for (const name of extra)
      problems.add(at(pointer, name), `a pointer's mpp entry holds only ${SCHEME_ENTRY_MEMBERS.purchaseUrl}; ${name} must not be there`);
    return;
  }
  if (expect === 'pointer')
    return problems.add(
      at(pointer, SCHEME_ENTRY_MEMBERS.challenge),
      `a pointer carries no challenge; the mpp entry must hold only ${SCHEME_ENTRY_MEMBERS.purchaseUrl}`,
    );
  checkChallengeValue(challenge, at(pointer, SCHEME_ENTRY_MEMBERS.challenge), problems);
  checkTerms(entry[SCHEME_ENTRY_MEMBERS.terms], at(pointer, SCHEME_ENTRY_MEMBERS.terms), problems);
}

function checkRequirements(value: unknown, pointer: string, expect: MppExpectation, problems: Problems): void {
  if (!isJsonObject(value)) return problems.add(pointer, `must be the requirements object, is ${describe(value)}`);
  const schemesAt = at(pointer, PAYMENT_REQUIREMENTS_MEMBERS.schemes);
  const schemes = value[PAYMENT_REQUIREMENTS_MEMBERS.schemes];
  if (!Array.isArray(schemes) || schemes.length === 0) return problems.add(schemesAt, `must be a non-empty array of scheme entries, is ${describe(schemes)}`);
  const first: unknown = schemes[0];
  const firstScheme = isJsonObject(first) ? first[SCHEME_ENTRY_MEMBERS.scheme] : undefined;
  if (firstScheme !== INBAND_SCHEMES.token)
    problems.add(at(schemesAt, 0, SCHEME_ENTRY_MEMBERS.scheme), `must be "${INBAND_SCHEMES.token}" (the token entry comes first), is ${describe(firstScheme)}`);
  let mppEntries = 0;
  schemes.forEach((entry: unknown, index) => {
    const entryAt = at(schemesAt, index);
    if (!isJsonObject(entry)) {
      problems.add(entryAt, `must be a scheme entry object, is ${describe(entry)}`);
      return;
    }
    if (typeof entry[SCHEME_ENTRY_MEMBERS.scheme] !== 'string')
      problems.add(at(entryAt, SCHEME_ENTRY_MEMBERS.scheme), `must be a scheme name, is ${describe(entry[SCHEME_ENTRY_MEMBERS.scheme])}`);
    if (entry[SCHEME_ENTRY_MEMBERS.scheme] !== INBAND_SCHEMES.mpp) return;
    mppEntries += 1;
    checkMppEntry(entry, entryAt, expect, problems);
  });
  if (mppEntries === 0 && (expect === 'challenge' || expect === 'pointer')) {
    problems.add(
      schemesAt,
      `must hold an "${INBAND_SCHEMES.mpp}" entry (${expect === 'challenge' ? 'challenge, purchase_url and terms' : 'purchase_url only'}), and holds none`,
    );
  }
}

/** 6: payment.required; requirements.schemes[0] is token; the mpp entry as `mpp` expects (any form by default). */
export function checkPaymentRequiredFrame(value: unknown, options: { readonly mpp?: MppExpectation } = {}): InbandCheck {
  const problems = new Problems();
  if (frameObject(value, problems) && checkType(value, [INBAND_FRAME_TYPES.paymentRequired], problems)) {
    checkRequirements(value[FRAME_MEMBERS.requirements], at('', FRAME_MEMBERS.requirements), options.mpp ?? 'any', problems);
  }
  return problems.result();
}

/** 6: payment.accepted, response.done or response.error of a funded turn, with a terms object {url, version}. */
export function checkFundedFrame(value: unknown, options: { readonly type?: InbandFrameType } = {}): InbandCheck {
  const problems = new Problems();
  if (frameObject(value, problems) && checkType(value, options.type ? [options.type] : FUNDED_FRAME_TYPES, problems)) {
    checkTerms(value[FRAME_MEMBERS.terms], at('', FRAME_MEMBERS.terms), problems);
  }
  return problems.result();
}

/** The pointer body of an LLM rail: requirements with the token entry first and an mpp entry holding only purchase_url (or none, `sellsUsage: false`). */
export function checkPurchasePointerBody(value: unknown, options: { readonly sellsUsage?: boolean } = {}): InbandCheck {
  const problems = new Problems();
  if (!isJsonObject(value)) problems.add('', `the pointer body must be a JSON object, is ${describe(value)}`);
  else
    checkRequirements(
      value[POINTER_BODY_MEMBERS.requirements],
      at('', POINTER_BODY_MEMBERS.requirements),
      options.sellsUsage === false ? 'absent' : 'pointer',
      problems,
    );
  return problems.result();
}

/** Header lookup over a Fetch Headers or a plain record (any case); repeated fields as a list. */
export type HeaderSource = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

function headerValues(headers: HeaderSource, name: string): string[] {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(name);
    return value === null ? [] : [value];
  }
  const found: string[] = [];
  for (const [key, value] of Object.entries(headers as Readonly<Record<string, string | readonly string[] | undefined>>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    found.push(...(typeof value === 'string' ? [value] : value));
  }
  return found;
}

/**
 * The whole rail answer: no `WWW-Authenticate: Payment`, and the pointer body. Its status is not judged: section 6 gives
 * none (READING-POINTER-STATUS).
 */
export function checkPointerResponse(
  response: { readonly status?: number; readonly headers: HeaderSource; readonly body: unknown },
  options: { readonly sellsUsage?: boolean } = {},
): InbandCheck {
  const problems = new Problems();
  const scan = paymentChallenges(headerValues(response.headers, HEADERS.wwwAuthenticate));
  if (scan.challenges.length > 0) problems.add('', `a pointer carries no challenge, and WWW-Authenticate holds ${scan.challenges.length} Payment challenge(s)`);
  const body = checkPurchasePointerBody(response.body, options);
  if (!body.ok) problems.list.push(...body.problems);
  return problems.result();
}

/** 4.7: the MCP delegate's answer when the balance does not cover the call: status balance_required. */
export function checkBalanceRequired(value: unknown): InbandCheck {
  const problems = new Problems();
  if (!isJsonObject(value)) problems.add('', `the delegate answer must be a JSON object, is ${describe(value)}`);
  else if (value[DELEGATE_MEMBERS.status] !== DELEGATE_STATUSES.balanceRequired) {
    problems.add(at('', DELEGATE_MEMBERS.status), `must be "${DELEGATE_STATUSES.balanceRequired}", is ${describe(value[DELEGATE_MEMBERS.status])}`);
  }
  return problems.result();
}
