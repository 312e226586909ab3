import { paymentChallenges, type ChallengeEcho, type PaymentChallenge } from '../purchase/index.js';
import { HEADERS } from '../spec/headers.js';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import {
  LINK_RELS,
  PAYMENT_CACHE_CONTROL,
  PAYMENT_CREDENTIAL_HEADER,
  PURCHASE_BODY_MEMBERS,
  RETRY_MEMBERS,
  type PaymentProblemRecord,
} from '../spec/payments.js';
import type { PurchaseErrorRecord } from '../spec/types.js';
import type { TargetResponse } from './target.js';

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
  /** The refusal the body names: the problem type's last segment, or the error code. */
  readonly refusal: string | undefined;
}

function json(response: TargetResponse): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(response.body).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function readPaidAnswer(response: TargetResponse): PaidAnswer {
  const body = json(response);
  const www = response.headers[HEADERS.wwwAuthenticate];
  const scan = www === undefined ? { challenges: [], malformed: [] } : paymentChallenges(www);
  const challenges = scan.challenges.flatMap((c) => (c.ok ? [{ challenge: c.challenge, echo: c.echo }] : []));
  const challengeProblems = [
    ...scan.challenges.flatMap((c) => (c.ok ? [] : [`a Payment challenge cannot be read: ${c.detail}`])),
    ...scan.malformed.map((m) => `${HEADERS.wwwAuthenticate} is malformed at ${m.at}: ${m.detail}`),
  ];
  const type = typeof body?.type === 'string' ? body.type : undefined;
  const code = typeof body?.[PURCHASE_BODY_MEMBERS.errorCode] === 'string' ? (body[PURCHASE_BODY_MEMBERS.errorCode] as string) : undefined;
  return {
    status: response.status,
    body,
    challengeCount: scan.challenges.length,
    challenges,
    challengeProblems,
    refusal: type !== undefined ? type.slice(type.lastIndexOf('/') + 1) : code,
  };
}

function mediaType(response: TargetResponse): string {
  return (response.headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Terms headers of 7.4: Link <terms>; rel=terms-of-service and the terms version. */
export function termsHeaderProblems(response: TargetResponse): string[] {
  const problems: string[] = [];
  const link = response.headers[HEADERS.link];
  if (link === undefined || !new RegExp(`^\\s*<[^>]+>\\s*;\\s*rel="?${LINK_RELS.termsOfService}"?`, 'i').test(link)) {
    problems.push(`${HEADERS.link} should be <{terms_url}>; rel=${LINK_RELS.termsOfService}, got ${link === undefined ? 'none' : JSON.stringify(link)}`);
  }
  if (!response.headers[HEADERS.termsVersion]) problems.push(`the answer carries no ${HEADERS.termsVersion} header`);
  return problems;
}

/**
 * Everything 7.4 says about an answer with this refusal: status; for a 402, exactly one Payment challenge
 * (naming header="Payment-Authorization", expiring within the challenge lifetime of `now`), a problem+json
 * body whose type names the refusal, the terms headers and Cache-Control: no-store; for the code rows, no
 * challenge, the code in the body, Retry-After where the row has it, and the retry object on 409s and 503s.
 */
export function purchaseAnswerProblems(response: TargetResponse, expected: PurchaseErrorRecord | PaymentProblemRecord, now: number): string[] {
  const answer = readPaidAnswer(response);
  const slug = 'slug' in expected ? expected.slug : expected.code;
  const problems: string[] = [];
  if (answer.status !== expected.status)
    problems.push(`expected status ${expected.status} (${slug}), got ${answer.status}${answer.refusal ? ` (${answer.refusal})` : ''}`);
  if (answer.body === undefined) return [...problems, 'the body is not a JSON object'];
  if (answer.refusal !== slug) problems.push(`expected the body to name ${slug}, it names ${answer.refusal ?? 'nothing'}`);
  const problem = 'slug' in expected || expected.kind === 'problem';
  if (problem && mediaType(response) !== MEDIA_TYPES.problemJson)
    problems.push(`Content-Type should be ${MEDIA_TYPES.problemJson}, got ${response.headers[HEADERS.contentType] ?? 'none'}`);
  if (expected.challenge) {
    if (answer.challengeCount !== 1) problems.push(`a 402 carries exactly one WWW-Authenticate: Payment challenge, this one carries ${answer.challengeCount}`);
    problems.push(...answer.challengeProblems);
    const challenge = answer.challenges[0]?.challenge;
    if (challenge) {
      if (challenge.header !== PAYMENT_CREDENTIAL_HEADER)
        problems.push(`the challenge should name header="${PAYMENT_CREDENTIAL_HEADER}", it names ${challenge.header ?? 'none'}`);
      const expires = challenge.expires === undefined ? NaN : Date.parse(challenge.expires) / 1000;
      if (!(expires > now - 5 && expires <= now + PAYMENT_CHALLENGE_LIFETIME_S + 5))
        problems.push(`the challenge should expire within ${PAYMENT_CHALLENGE_LIFETIME_S} s, its expires is ${challenge.expires ?? 'absent'}`);
    }
    problems.push(...termsHeaderProblems(response));
    if (response.headers[HEADERS.cacheControl] !== PAYMENT_CACHE_CONTROL)
      problems.push(`a 402 carries Cache-Control: ${PAYMENT_CACHE_CONTROL}, got ${response.headers[HEADERS.cacheControl] ?? 'none'}`);
  } else if (answer.challengeCount > 0) {
    problems.push(`a ${answer.status} answer carries no Payment challenge, this one carries ${answer.challengeCount}`);
  }
  if (!('slug' in expected)) {
    const hasRetryAfter = response.headers[HEADERS.retryAfter] !== undefined;
    if (expected.retryAfter && !hasRetryAfter) problems.push(`${slug} carries Retry-After`);
    if (expected.retry) {
      const want = {
        [RETRY_MEMBERS.sameCredential]: expected.retry.sameCredential,
        ...(expected.retry.sameCredential ? { [RETRY_MEMBERS.credentialHeader]: PAYMENT_CREDENTIAL_HEADER } : {}),
      };
      const got = answer.body[PURCHASE_BODY_MEMBERS.retry];
      if (JSON.stringify(got) !== JSON.stringify(want) && !sameRetry(got, want))
        problems.push(`${slug} carries retry ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return problems;
}

function sameRetry(got: unknown, want: Record<string, unknown>): boolean {
  if (got === null || typeof got !== 'object') return false;
  const g = got as Record<string, unknown>;
  return Object.keys(want).length === Object.keys(g).length && Object.entries(want).every(([k, v]) => g[k] === v);
}
