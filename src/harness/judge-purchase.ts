import LinkHeader from 'http-link-header';
import { paymentChallenges, type ChallengeEcho, type PaymentChallenge } from '../purchase/index.js';
import { HTTP_DATE_FIELD } from '../purchase/wire/wire.js';
import { HEADERS } from '../spec/headers.js';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { deployedHeader, type ServiceNaming } from '../spec/naming.js';
import {
  LINK_RELS,
  PAYMENT_CACHE_CONTROL,
  PAYMENT_CREDENTIAL_HEADER,
  PURCHASE_BODY_MEMBERS,
  RETRY_MEMBERS,
  type PaymentProblemRecord,
} from '../spec/payments.js';
import type { ProblemBases } from '../spec/problem-types.js';
import { CHALLENGE_EXPIRY_TOLERANCE_S, DAILY_CAP_RETRY_AFTER_MAX_S, READINGS } from '../spec/readings.js';
import type { PurchaseErrorRecord } from '../spec/types.js';
import { missingNamedHeader } from './naming.js';
import type { TargetResponse } from './target.js';
import { rfc3339Seconds } from '../purchase/wire/rfc3339.js';

/** What a paid surface answered, read the way a buyer reads it. */
export interface PaidAnswer {
  readonly status: number;
  /** The JSON body, or undefined when it is not JSON. */
  readonly body: Record<string, unknown> | undefined;
  /** How many Payment challenges the answer carries, readable or not (7.4: a 402 carries exactly one). */
  readonly challengeCount: number;
  /** The readable ones, each with the members exactly as they arrived (what a credential echoes). */
  readonly challenges: readonly { readonly challenge: PaymentChallenge; readonly echo: ChallengeEcho }[];
  /** Why a Payment challenge (or a WWW-Authenticate value) could not be read. */
  readonly challengeProblems: readonly string[];
  /** The refusal the body names, for messages: the problem type's last segment, or the error code. */
  readonly refusal: string | undefined;
  /** The terms version the answer names (Service-Terms-Version, under the deployment's name), or undefined. */
  readonly termsVersion: string | undefined;
}

function json(response: TargetResponse): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(response.body).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stable error code a 403, 409, 429 or 503 body carries. 7.4 says "a stable error code in the body" without
 * naming the member (READING-PURCHASE-BODY-MEMBERS): error_code (the name 7.3 gives), error as a string (what the
 * platform's SDK reads), or error.code (the 2.6 shape of the platform's other errors).
 */
export function errorCodeOf(body: Record<string, unknown> | undefined): string | undefined {
  if (body === undefined) return undefined;
  const code = body[PURCHASE_BODY_MEMBERS.errorCode];
  if (typeof code === 'string') return code;
  const error = body[PURCHASE_BODY_MEMBERS.error];
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object' && typeof (error as Record<string, unknown>).code === 'string') return (error as { code: string }).code;
  return undefined;
}

/** The answer as a buyer reads it; `naming` is the deployment's names for Service (the terms-version header). */
export function readPaidAnswer(response: TargetResponse, naming?: ServiceNaming): PaidAnswer {
  const body = json(response);
  const www = response.headers[HEADERS.wwwAuthenticate];
  const scan = www === undefined ? { challenges: [], malformed: [] } : paymentChallenges(www);
  const challenges = scan.challenges.flatMap((c) => (c.ok ? [{ challenge: c.challenge, echo: c.echo }] : []));
  const challengeProblems = [
    ...scan.challenges.flatMap((c) => (c.ok ? [] : [`a Payment challenge cannot be read: ${c.detail}`])),
    ...scan.malformed.map((m) => `${HEADERS.wwwAuthenticate} is malformed at ${m.at}: ${m.detail}`),
  ];
  const type = typeof body?.type === 'string' ? body.type : undefined;
  return {
    status: response.status,
    body,
    challengeCount: scan.challenges.length,
    challenges,
    challengeProblems,
    refusal: type !== undefined ? type.slice(type.lastIndexOf('/') + 1) : errorCodeOf(body),
    termsVersion: response.headers[deployedHeader(HEADERS.termsVersion, naming)],
  };
}

/**
 * Where a deployment's problem types live ({problems_url} and {payment_problems_url}), as far as the run knows: the
 * embedded reference's are known; a live deployment's are learned from the first type of each kind it answers with,
 * and every later type of that kind must stand under the same address (READING-PROBLEM-TYPE-ADDRESS).
 */
export class ProblemTypeAddresses {
  private readonly known: Partial<Record<keyof ProblemBases, string>>;

  constructor(known: Partial<ProblemBases> = {}) {
    this.known = Object.fromEntries(Object.entries(known).map(([base, url]) => [base, stripSlashes(url)]));
  }

  /**
   * Problems with a problem type that should be `{base}/{slug}`: the whole URL is judged, after resolving a relative
   * reference against the request's URL (RFC 9457 section 3.1.1).
   */
  problems(type: unknown, base: keyof ProblemBases, slug: string, requestUrl?: string): string[] {
    const wanted = this.known[base];
    const shape = `{${base === 'problems' ? 'problems_url' : 'payment_problems_url'}}/${slug}`;
    if (typeof type !== 'string')
      return [`the problem body's type should be ${wanted === undefined ? shape : `${wanted}/${slug}`}, it is ${JSON.stringify(type)}`];
    let resolved: URL;
    try {
      resolved = requestUrl === undefined ? new URL(type) : new URL(type, requestUrl);
    } catch {
      return [`the problem type ${JSON.stringify(type)} is not a URL`];
    }
    const href = resolved.href;
    if (!href.endsWith(`/${slug}`) || (resolved.protocol !== 'https:' && resolved.protocol !== 'http:'))
      return [`the problem type should be ${wanted === undefined ? shape : `${wanted}/${slug}`}, it is ${JSON.stringify(type)}`];
    const at = stripSlashes(href.slice(0, -slug.length - 1));
    if (wanted === undefined) {
      this.known[base] = at;
      return [];
    }
    return at === wanted ? [] : [`the problem type should be ${wanted}/${slug} (${shape}), it is ${JSON.stringify(type)}`];
  }
}

function stripSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * What a check knows about one exchange besides the answer: when it was made by the run's clock for this target
 * (the target's own clock in-process, which checks may move; the wall clock live, with the skew 5.2 tolerates), the
 * request's URL, where the deployment's problem types live and its {terms_url} when the run knows it.
 */
export interface PaidExchangeFacts {
  readonly clock: { readonly now: number; readonly skewS: number };
  readonly requestUrl?: string;
  readonly problemTypes: ProblemTypeAddresses;
  readonly termsUrl?: string;
  /** The deployment's names for Service (`run --service-name`); the spec's neutral ones when absent. */
  readonly naming?: ServiceNaming;
}

function mediaType(response: TargetResponse): string {
  return (response.headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The terms headers of 7.4: a Link to {terms_url} whose relation types include terms-of-service, read as RFC 8288
 * reads a Link field (links in any order, link-params in any order, rel as a token or a quoted string holding one or
 * more relation types, compared case-insensitively; READING-TERMS-LINK), and a non-empty Service-Terms-Version.
 */
export function termsHeaderProblems(response: TargetResponse, facts: Pick<PaidExchangeFacts, 'termsUrl' | 'requestUrl' | 'naming'> = {}): string[] {
  const problems: string[] = [];
  const field = response.headers[HEADERS.link];
  const shape = `<${facts.termsUrl ?? '{terms_url}'}>; rel=${LINK_RELS.termsOfService}`;
  if (field === undefined) problems.push(`the answer carries no ${HEADERS.link} header (${shape})`);
  else {
    let links: ReturnType<LinkHeader['rel']> = [];
    try {
      links = LinkHeader.parse(field).rel(LINK_RELS.termsOfService);
    } catch (error) {
      problems.push(`${HEADERS.link} ${JSON.stringify(field)} is not an RFC 8288 Link field: ${error instanceof Error ? error.message : String(error)}`);
    }
    const targets = links.flatMap((link) => {
      try {
        return [facts.requestUrl === undefined ? new URL(link.uri).href : new URL(link.uri, facts.requestUrl).href];
      } catch {
        return [];
      }
    });
    if (links.length > 0 && targets.length === 0) problems.push(`${HEADERS.link} names the terms with a URI that is not a URL: ${JSON.stringify(field)}`);
    else if (links.length === 0 && problems.length === 0)
      problems.push(`${HEADERS.link} should hold ${shape}, it holds no link with that relation: ${JSON.stringify(field)}`);
    else if (facts.termsUrl !== undefined && !targets.includes(new URL(facts.termsUrl).href))
      problems.push(`${HEADERS.link} should name the terms at ${facts.termsUrl}, it names ${targets.join(', ')}`);
  }
  if (!response.headers[deployedHeader(HEADERS.termsVersion, facts.naming)])
    problems.push(missingNamedHeader(response.headers, HEADERS.termsVersion, facts.naming));
  return problems;
}

/**
 * Whether a Cache-Control field's directives include no-store (RFC 9111 section 5.2: a comma-separated list of
 * directives, names case-insensitive, each maybe with an argument); other directives may stand beside it
 * (READING-PAYMENT-CHALLENGE-SYNTAX).
 */
export function hasNoStore(field: string | undefined): boolean {
  if (field === undefined) return false;
  return field.split(',').some((directive) => directive.split('=')[0]!.trim().toLowerCase() === PAYMENT_CACHE_CONTROL);
}

/**
 * When the answer was made, as a challenge's expiry is judged from it (READING-CHALLENGE-EXPIRY): its Date header when
 * it carries one, else the run's clock for this target, with the skew 5.2 tolerates where that is the wall clock.
 */
function answerTime(response: TargetResponse, clock: PaidExchangeFacts['clock']): { at: number; tolerance: number; basis: string } {
  const date = response.headers[HTTP_DATE_FIELD];
  const parsed = date === undefined ? Number.NaN : Date.parse(date) / 1000;
  if (Number.isFinite(parsed)) return { at: parsed, tolerance: CHALLENGE_EXPIRY_TOLERANCE_S, basis: `its Date header (${date})` };
  return { at: clock.now, tolerance: CHALLENGE_EXPIRY_TOLERANCE_S + clock.skewS, basis: "the run's clock (the answer carries no Date)" };
}

/** A challenge's expires against the answer that carried it: the challenge lifetime (300 s) after the answer, within the tolerance. */
export function challengeExpiryProblems(
  challenge: Pick<PaymentChallenge, 'expires'> | undefined,
  response: TargetResponse,
  clock: PaidExchangeFacts['clock'],
): string[] {
  if (challenge === undefined) return [];
  const expires = challenge.expires === undefined ? Number.NaN : rfc3339Seconds(challenge.expires);
  const { at, tolerance, basis } = answerTime(response, clock);
  const due = at + PAYMENT_CHALLENGE_LIFETIME_S;
  if (Number.isFinite(expires) && Math.abs(expires - due) <= tolerance) return [];
  const said = Number.isFinite(expires) ? `${challenge.expires} (${Math.round(expires - at)} s after the answer)` : (challenge.expires ?? 'absent');
  return [`the challenge should expire ${PAYMENT_CHALLENGE_LIFETIME_S} s after the answer (by ${basis}, within ${tolerance} s), its expires is ${said}`];
}

/** Whether the retry object carries what 2.6 and 7.4 give: sameCredential, and when true credentialHeader naming Payment-Authorization; any other member is allowed (READING-OPEN-JSON-BODIES). */
/** READING-DAILY-CAP-RETRY-AFTER: a daily cap's Retry-After in seconds is at most a day of 25 hours (an HTTP-date is not judged). */
export function dailyCapRetryAfterProblems(response: TargetResponse): string[] {
  const field = response.headers[HEADERS.retryAfter]?.trim();
  if (field === undefined || !/^\d+$/.test(field)) return [];
  return Number(field) <= DAILY_CAP_RETRY_AFTER_MAX_S
    ? []
    : [`a daily limit asks for Retry-After ${field} s, over the ${DAILY_CAP_RETRY_AFTER_MAX_S} s of a day (${READINGS.dailyCapRetryAfter.id})`];
}

function retryProblems(got: unknown, sameCredential: boolean, code: string): string[] {
  const want = `{"${RETRY_MEMBERS.sameCredential}":${sameCredential}${sameCredential ? `,"${RETRY_MEMBERS.credentialHeader}":"${PAYMENT_CREDENTIAL_HEADER}"` : ''}}`;
  if (got === null || typeof got !== 'object' || Array.isArray(got)) return [`${code} carries the retry object ${want}, got ${JSON.stringify(got)}`];
  const retry = got as Record<string, unknown>;
  const header = retry[RETRY_MEMBERS.credentialHeader];
  const headerOk = !sameCredential || (typeof header === 'string' && header.toLowerCase() === PAYMENT_CREDENTIAL_HEADER.toLowerCase());
  return retry[RETRY_MEMBERS.sameCredential] === sameCredential && headerOk ? [] : [`${code} carries the retry object ${want}, got ${JSON.stringify(got)}`];
}

/**
 * Everything 7.4 says about an answer with this refusal: status; for a 402, exactly one Payment challenge (expiring
 * 300 s after the answer; the header parameter is judged apart, at SHOULD: READING-CHALLENGE-HEADER-PARAM), a problem+json body whose type is the whole
 * {problems_url} or {payment_problems_url} address of the refusal, the terms headers and Cache-Control with no-store;
 * for the code rows, no challenge, the code in the body, Retry-After where the row has it, and the retry object where
 * the row has one. Members the spec does not name are allowed anywhere.
 */
export function purchaseAnswerProblems(response: TargetResponse, expected: PurchaseErrorRecord | PaymentProblemRecord, facts: PaidExchangeFacts): string[] {
  const answer = readPaidAnswer(response, facts.naming);
  const slug = 'slug' in expected ? expected.slug : expected.code;
  const problems: string[] = [];
  if (answer.status !== expected.status)
    problems.push(`expected status ${expected.status} (${slug}), got ${answer.status}${answer.refusal ? ` (${answer.refusal})` : ''}`);
  if (answer.body === undefined) return [...problems, 'the body is not a JSON object'];
  const base = 'slug' in expected ? expected.base : expected.kind === 'problem' ? expected.problemBase! : undefined;
  if (base !== undefined) {
    problems.push(...facts.problemTypes.problems(answer.body.type, base, slug, facts.requestUrl));
    if (mediaType(response) !== MEDIA_TYPES.problemJson)
      problems.push(`Content-Type should be ${MEDIA_TYPES.problemJson}, got ${response.headers[HEADERS.contentType] ?? 'none'}`);
  } else if (errorCodeOf(answer.body) !== slug) problems.push(`expected the body to carry the code ${slug}, it carries ${answer.refusal ?? 'none'}`);
  if (expected.challenge) {
    if (answer.challengeCount !== 1) problems.push(`a 402 carries exactly one WWW-Authenticate: Payment challenge, this one carries ${answer.challengeCount}`);
    problems.push(...answer.challengeProblems);
    const challenge = answer.challenges[0]?.challenge;
    problems.push(...challengeExpiryProblems(challenge, response, facts.clock));
    problems.push(...termsHeaderProblems(response, facts));
    if (!hasNoStore(response.headers[HEADERS.cacheControl]))
      problems.push(`a 402 carries Cache-Control with ${PAYMENT_CACHE_CONTROL} among its directives, got ${response.headers[HEADERS.cacheControl] ?? 'none'}`);
  } else if (answer.challengeCount > 0) {
    problems.push(`a ${answer.status} answer carries no Payment challenge, this one carries ${answer.challengeCount}`);
  }
  if (!('slug' in expected)) {
    if (expected.retryAfter && response.headers[HEADERS.retryAfter] === undefined) problems.push(`${slug} carries Retry-After`);
    if (expected.retry) problems.push(...retryProblems(answer.body[PURCHASE_BODY_MEMBERS.retry], expected.retry.sameCredential, slug));
  }
  return problems;
}

/**
 * READING-CHALLENGE-HEADER-PARAM: whether a challenge selects Payment-Authorization for its credential (a header name,
 * compared without case), as a client following the Payment scheme draft needs to send it there.
 */
export function challengeHeaderProblems(challenge: { readonly header?: string | undefined } | undefined): string[] {
  if (challenge === undefined) return ['no Payment challenge to judge'];
  if (challenge.header?.toLowerCase() === PAYMENT_CREDENTIAL_HEADER.toLowerCase()) return [];
  return [
    `the challenge names ${challenge.header === undefined ? 'no header parameter' : `header="${challenge.header}"`}: a client following the Payment scheme draft sends its credential in ${PAYMENT_CREDENTIAL_HEADER} only when the challenge says header="${PAYMENT_CREDENTIAL_HEADER}"`,
  ];
}
