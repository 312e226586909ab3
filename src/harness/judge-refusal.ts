import { parseDictionary } from 'structured-headers';
import { AUTH_ERRORS, AUTH_ERROR_BODY_ERROR, isAuthErrorCode } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import type { ServiceNaming } from '../spec/naming.js';
import { BEARER_CHALLENGE, COMPONENTS, WEB_BOT_AUTH_TAG } from '../spec/wire.js';
import { parseAuthenticate, type AuthChallenge } from '../purchase/wire/auth-params-parse.js';
import { realmProblem } from './naming.js';
import type { TargetResponse } from './target.js';

/**
 * Reads one challenge `Scheme a=b, c="d"` (RFC 9110 auth-params: token or quoted-string values) with the one
 * WWW-Authenticate reader the purchase judge uses too; null for a malformed value, a token68, or other than one
 * challenge. A parameter written twice keeps its last value.
 */
export function parseChallenge(value: string): { scheme: string; params: Map<string, string> } | null {
  const parsed = parseAuthenticate(value);
  if (!parsed.ok || parsed.challenges.length !== 1) return null;
  const [challenge] = parsed.challenges as [AuthChallenge];
  if (challenge.token68 !== undefined) return null;
  return { scheme: challenge.scheme, params: new Map(challenge.params) };
}

/** 7.3 / 5.2: the covered components Accept-Signature must name, with content-digest when the request has a body. */
export function acceptSignatureProblems(value: string | undefined, hasBody: boolean): string[] {
  if (value === undefined) return [`the answer carries no ${HEADERS.acceptSignature} header`];
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(value);
  } catch {
    return [`${HEADERS.acceptSignature} is not a structured-field dictionary: ${JSON.stringify(value)}`];
  }
  const problems: string[] = [];
  for (const [label, [items, params]] of dictionary) {
    if (!Array.isArray(items)) continue;
    const names = items.map(([name, p]) => `${String(name)}${p.has('key') ? ';key' : ''}`);
    const required = [COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path, COMPONENTS.query, `${HEADERS.signatureAgent};key`];
    const digest = names.includes(HEADERS.contentDigest);
    const memberProblems = [
      ...required.filter((r) => !names.includes(r)).map((r) => `${label} does not name ${r}`),
      ...(hasBody && !digest ? [`${label} does not name ${HEADERS.contentDigest} although the request has a body`] : []),
      ...(!hasBody && digest ? [`${label} names ${HEADERS.contentDigest} although the request has no body`] : []),
      ...(params.get('tag') !== WEB_BOT_AUTH_TAG ? [`${label} does not carry tag="${WEB_BOT_AUTH_TAG}"`] : []),
    ];
    if (memberProblems.length === 0) return [];
    problems.push(...memberProblems);
  }
  return problems.length ? problems : [`${HEADERS.acceptSignature} has no member: ${JSON.stringify(value)}`];
}

/** application/json or a structured +json type (RFC 6839), with any parameters. */
function isJsonMediaType(value: string | undefined): boolean {
  const type = (value ?? '').split(';')[0]!.trim().toLowerCase();
  return type === MEDIA_TYPES.json || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(type);
}

export interface RefusalJudgement {
  readonly code: string | null;
  readonly description: string | null;
  readonly problems: readonly string[];
}

/**
 * Everything 7.3 says of a 401: the Bearer challenge (its realm the deployment's name for Service, `naming`), the
 * body, Accept-Signature where due, no Retry-After.
 */
export function judgeRefusal(response: TargetResponse, hasBody: boolean, naming?: ServiceNaming): RefusalJudgement {
  const problems: string[] = [];
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(Buffer.from(response.body).toString('utf8')) as Record<string, unknown>;
  } catch {
    problems.push('the 401 body is not JSON');
  }
  const code = typeof body.error_code === 'string' ? body.error_code : null;
  const description = typeof body.error_description === 'string' ? body.error_description : null;
  // Section 4: "Bodies are JSON unless stated"; 7.3 names no media type, so any JSON one (application/json or a +json type).
  if (!isJsonMediaType(response.headers[HEADERS.contentType]))
    problems.push(`Content-Type is ${JSON.stringify(response.headers[HEADERS.contentType] ?? null)}, not a JSON media type (${MEDIA_TYPES.json})`);
  if (body.error !== AUTH_ERROR_BODY_ERROR) problems.push(`body.error is ${JSON.stringify(body.error)}, not "${AUTH_ERROR_BODY_ERROR}"`);
  if (!isAuthErrorCode(code)) problems.push(`body.error_code ${JSON.stringify(code)} is not an error_code of 7.3`);
  if (!description) problems.push('body.error_description is missing or empty');

  const challenge = parseChallenge(response.headers[HEADERS.wwwAuthenticate] ?? '');
  if (!challenge) problems.push(`WWW-Authenticate is missing or unreadable: ${JSON.stringify(response.headers[HEADERS.wwwAuthenticate] ?? null)}`);
  else {
    if (challenge.scheme.toLowerCase() !== BEARER_CHALLENGE.scheme.toLowerCase())
      problems.push(`WWW-Authenticate scheme is ${challenge.scheme}, not ${BEARER_CHALLENGE.scheme}`);
    const realm = realmProblem(challenge.params.get('realm'), naming);
    if (realm !== undefined) problems.push(realm);
    if (challenge.params.get('error') !== BEARER_CHALLENGE.error)
      problems.push(`WWW-Authenticate error is ${JSON.stringify(challenge.params.get('error') ?? null)}, not ${BEARER_CHALLENGE.error}`);
    if (!challenge.params.get('error_description')) problems.push('WWW-Authenticate carries no error_description');
  }
  if (isAuthErrorCode(code)) {
    const record = AUTH_ERRORS[code];
    const accept = response.headers[HEADERS.acceptSignature];
    if (record.acceptSignature) problems.push(...acceptSignatureProblems(accept, hasBody));
    if (record.noRetryAfter && response.headers[HEADERS.retryAfter] !== undefined) problems.push(`${code} carries Retry-After, which 7.3 says it does not`);
  }
  return { code, description, problems };
}
