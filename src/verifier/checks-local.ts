import { AUTH_CODES } from '../spec/auth-errors.js';
import { Token, type Dictionary } from 'structured-headers';
import {
  checkContentDigest,
  ComponentError,
  fieldValue,
  deriveAuthority,
  parseSignatureHeader,
  serializeComponentId,
  signatureBase,
  type CoveredComponent,
} from '../httpsig/index.js';
import type { PreparedMessage } from '../httpsig/component-value.js';
import { parseDictionary } from '../httpsig/sf-parse.js';
import { parseSignatureInputSharingEmptyMaps } from '../httpsig/signature-input.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { ALLOWED_DERIVED_COMPONENTS, COMPONENTS, ED25519_ALG, MAX_SIGNATURE_LABELS, WEB_BOT_AUTH_TAG } from '../spec/wire.js';
import { refusal, type CheckResult, type LabelState, type SignedContext } from './context.js';
import { MESSAGES } from './messages.js';
import { BoundedMemo } from './memo.js';
import { identityFromMember } from './signature-agent.js';

/** Parsed Signature-Agent fields and the hosts of agent URLs, which repeat request after request (memo.ts). */
const agentDictionaries = new BoundedMemo<Dictionary>(1024, 2048);
const agentHosts = new BoundedMemo<string>(1024, 2048);

const THUMBPRINT = new RegExp(`^[A-Za-z0-9_-]{${LIMITS.thumbprintLength.value}}$`);
const REQUIRED_DERIVED = [COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path, COMPONENTS.query];

/** Signature-Input and Signature are dictionaries naming the same labels; Signature members are byte sequences. */
export function checkHeadersParse(ctx: SignedContext): CheckResult {
  const inputRaw = fieldValue(ctx.message.headers, HEADERS.signatureInput);
  const signatureRaw = fieldValue(ctx.message.headers, HEADERS.signature);
  // Stryker disable next-line ConditionalExpression: the parsers answer null for an absent field too; the test only spares the call
  const inputs = inputRaw === undefined ? null : parseSignatureInputSharingEmptyMaps(inputRaw);
  // Stryker disable next-line ConditionalExpression: as above
  const signatures = signatureRaw === undefined ? null : parseSignatureHeader(signatureRaw);
  if (!inputs || !signatures) return refusal(ctx, AUTH_CODES.signature_malformed, MESSAGES.notDictionaries);
  if (!sameKeys(inputs, signatures)) return refusal(ctx, AUTH_CODES.signature_malformed, MESSAGES.labelsDiffer(inputs, signatures));
  // Only members tagged web-bot-auth (a string, not a token) are this profile's; others are left alone.
  const labels: LabelState[] = [];
  for (const [label, member] of inputs) {
    if (member.params.get('tag') !== WEB_BOT_AUTH_TAG || member.paramKinds.get('tag') !== 'string') continue;
    labels.push({
      label,
      member,
      // The member's received text, which parseSignatureInput already lexed (the same text splitDictionaryMembers gives).
      paramsText: member.text,
      signature: signatures.get(label)!,
      // Stryker disable StringLiteral: placeholders, each written by a later check before anything reads it
      created: 0,
      expires: 0,
      keyid: '',
      nonce: '',
      agentKey: '',
      base: '',
      // Stryker restore StringLiteral
      key: undefined,
    });
  }
  if (labels.length === 0) return refusal(ctx, AUTH_CODES.signature_malformed, MESSAGES.noTag);
  if (labels.length > MAX_SIGNATURE_LABELS) return refusal(ctx, AUTH_CODES.signature_malformed, MESSAGES.tooManyLabels(labels.length, MAX_SIGNATURE_LABELS));
  ctx.labels = labels;
  return undefined;
}

/** Whether both maps have the same keys (in any order). */
function sameKeys(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  if (a.size !== b.size) return false;
  for (const key of a.keys()) if (!b.has(key)) return false;
  return true;
}

function paramProblem(l: LabelState): string | null {
  const { params, paramKinds } = l.member;
  if (paramKinds.get('created') !== 'integer') return MESSAGES.paramCreated;
  if (paramKinds.get('expires') !== 'integer') return MESSAGES.paramExpires;
  // A String parameter's value is a string (signature-input.ts), so its kind alone says what the value is.
  const keyid = paramKinds.get('keyid') === 'string' ? (params.get('keyid') as string) : undefined;
  if (keyid === undefined || !THUMBPRINT.test(keyid)) return MESSAGES.paramKeyid;
  const alg = params.get('alg');
  if (alg !== undefined && (paramKinds.get('alg') !== 'string' || alg !== ED25519_ALG)) return MESSAGES.paramAlg(String(alg));
  const nonce = paramKinds.get('nonce') === 'string' ? (params.get('nonce') as string) : undefined;
  if (nonce === undefined || nonce.length < LIMITS.nonceMinLength.value || nonce.length > LIMITS.nonceMaxLength.value) return MESSAGES.paramNonce;
  const created = params.get('created') as number;
  const expires = params.get('expires') as number;
  if (expires <= created) return MESSAGES.paramOrder;
  if (expires - created > LIMITS.signatureValidity.value) return MESSAGES.paramWindow(created, expires);
  l.created = created;
  l.expires = expires;
  l.keyid = keyid;
  l.nonce = nonce;
  return null;
}

/**
 * What the profile lets a label cover. signatureBase (checkBases) refuses a derived component it does not know, a
 * derived component with parameters and a field parameter other than key with the same code, before anything is
 * fetched, so this function states the profile's rule whole for its callers (its words name the component), and only
 * a covered item that is not a String and a key parameter on another field are refused here alone.
 */
function componentProblem(l: LabelState): string | null {
  if (!l.member.coveredAreStrings) return MESSAGES.componentNotString(l.label);
  for (const c of l.member.covered) {
    const derived = c.name.startsWith('@');
    const allowed = derived
      ? ALLOWED_DERIVED_COMPONENTS.includes(c.name) && c.params.size === 0
      : c.params.size === 0 || (c.name === HEADERS.signatureAgent && c.params.size === 1 && typeof c.params.get('key') === 'string');
    if (!allowed) return MESSAGES.componentNotAllowed(l.label, serializeComponentId(c));
  }
  return null;
}

/** Per label, as the platform's SDK orders them: parameters, signature size, covered components, then time. */
export function checkLabels(ctx: SignedContext): CheckResult {
  for (const l of ctx.labels) {
    const params = paramProblem(l);
    if (params) return refusal(ctx, AUTH_CODES.signature_params_invalid, params);
    if (l.signature.length !== LIMITS.signatureSize.value)
      return refusal(ctx, AUTH_CODES.signature_malformed, MESSAGES.signatureSize(l.label, l.signature.length));
    const component = componentProblem(l);
    if (component) return refusal(ctx, AUTH_CODES.signature_malformed, component);
    const skew = LIMITS.clockSkew.value;
    if (l.created > ctx.now + skew) return refusal(ctx, AUTH_CODES.signature_expired, MESSAGES.createdAhead(l.created, ctx.now));
    if (l.expires < ctx.now - skew) return refusal(ctx, AUTH_CODES.signature_expired, MESSAGES.expired(l.expires, ctx.now));
  }
  return undefined;
}

export function checkAuthority(ctx: SignedContext): CheckResult {
  let authority: string;
  try {
    // Parsed once here and handed to the signature bases, whose derived components read the same URL.
    const url = new URL(ctx.message.url);
    authority = deriveAuthority(url);
    ctx.targetUrl = url;
  } catch {
    return refusal(ctx, AUTH_CODES.signature_authority_mismatch, MESSAGES.authority(ctx.message.url, ctx.config.authority));
  }
  return authority === ctx.config.authority
    ? undefined
    : refusal(ctx, AUTH_CODES.signature_authority_mismatch, MESSAGES.authority(authority, ctx.config.authority));
}

export function checkBodySize(ctx: SignedContext): CheckResult {
  const size = ctx.body.length;
  return size > LIMITS.signedRequestBody.value ? refusal(ctx, AUTH_CODES.signature_body_too_large, MESSAGES.bodyTooLarge()) : undefined;
}

function isAgentMember(c: CoveredComponent): boolean {
  return c.name === HEADERS.signatureAgent && c.params.has('key');
}

/**
 * Each label covers @method @authority @path @query, content-digest when there is a body, and its own agent member once.
 * A covered whole Signature-Agent field counts as config.agentFieldCovered says (READING-AGENT-FIELD-COVERED-WHOLE).
 */
export function checkCoverage(ctx: SignedContext): CheckResult {
  const fieldCounts = ctx.config.agentFieldCovered ?? 'field';
  for (const l of ctx.labels) {
    const covered = l.member.covered;
    let member: CoveredComponent | undefined;
    let members = 0;
    for (const c of covered) if (isAgentMember(c) && members++ === 0) member = c;
    const wholeField = fieldCounts !== 'field' && coversPlain(covered, HEADERS.signatureAgent);
    if (members > 1 || (wholeField && member && fieldCounts === 'item'))
      return refusal(ctx, AUTH_CODES.signature_coverage_insufficient, MESSAGES.coverageAgentTwice(l.label));
    let missing: string[] | undefined;
    for (const n of REQUIRED_DERIVED) if (!coversPlain(covered, n)) (missing ??= []).push(n);
    const fieldAsMember = !member && wholeField && fieldCounts === 'member' && ctx.agentDictionary?.has(l.label) === true;
    const memberMissing = fieldAsMember ? false : !member || member.params.get('key') !== l.label;
    if (missing || memberMissing)
      return refusal(ctx, AUTH_CODES.signature_coverage_insufficient, MESSAGES.coverageMissing(l.label, missing ?? [], memberMissing));
    if (ctx.hasBody && !coversPlain(covered, HEADERS.contentDigest))
      return refusal(ctx, AUTH_CODES.signature_coverage_insufficient, MESSAGES.coverageBody(l.label));
    l.agentKey = l.label;
  }
  return undefined;
}

/** Whether `name` is covered without parameters. */
function coversPlain(covered: readonly CoveredComponent[], name: string): boolean {
  for (const c of covered) if (c.params.size === 0 && c.name === name) return true;
  return false;
}

/** Signature-Agent is present and parses as a dictionary. */
export function checkSignatureAgentHeader(ctx: SignedContext): CheckResult {
  const raw = fieldValue(ctx.message.headers, HEADERS.signatureAgent);
  if (raw === undefined) return refusal(ctx, AUTH_CODES.signature_agent_invalid, MESSAGES.agentHeaderMissing);
  try {
    // Agents send the same Signature-Agent on every request; the parse is remembered (see memo.ts).
    ctx.agentDictionary = agentDictionaries.get(raw, () => parseDictionary(raw));
  } catch {
    return refusal(ctx, AUTH_CODES.signature_malformed, MESSAGES.agentHeaderNotDictionary);
  }
  return undefined;
}

/** Each label's covered member is a string naming the same agent in one of the profile's forms. */
export function checkSignatureAgentMembers(ctx: SignedContext): CheckResult {
  for (const l of ctx.labels) {
    const entry = ctx.agentDictionary!.get(l.agentKey);
    if (!entry) return refusal(ctx, AUTH_CODES.signature_agent_invalid, MESSAGES.memberMissing(l.agentKey));
    const [value, params] = entry;
    if (typeof value !== 'string') return refusal(ctx, AUTH_CODES.signature_agent_invalid, MESSAGES.memberNotString(l.agentKey));
    const typeParam = params.get('type');
    const type = typeParam === undefined ? null : typeParam instanceof Token ? typeParam.toString() : `"${String(typeParam)}"`;
    const result = identityFromMember(value, type, ctx.config.allowInsecureAgentUrls === true);
    if (!result.ok) return refusal(ctx, AUTH_CODES.signature_agent_invalid, MESSAGES.memberUrl(l.agentKey, result.why));
    if (ctx.identity && ctx.identity.agentUrl !== result.identity.agentUrl) {
      return refusal(ctx, AUTH_CODES.signature_agent_invalid, MESSAGES.agentsDiffer([ctx.identity.agentUrl, result.identity.agentUrl]));
    }
    ctx.identity ??= result.identity;
  }
  return undefined;
}

/** Agents this platform will not admit, and agents claiming the platform's own host, are refused without saying which. */
export function checkPolicy(ctx: SignedContext): CheckResult {
  const agentUrl = ctx.identity!.agentUrl;
  const blocked = ctx.config.blockedAgents?.includes(agentUrl) === true;
  const ownHost = agentHosts.get(agentUrl, () => new URL(agentUrl).host) === ctx.config.authority;
  return blocked || ownHost ? refusal(ctx, AUTH_CODES.credential_refused, MESSAGES.refusedAgent) : undefined;
}

/** RFC 9421 7.2.8: a covered content-digest protects only the header, so the body is hashed and compared here. */
export function checkDigest(ctx: SignedContext): CheckResult {
  if (!ctx.labels.some((l) => coversPlain(l.member.covered, HEADERS.contentDigest))) return undefined;
  const header = fieldValue(ctx.message.headers, HEADERS.contentDigest);
  if (header === undefined) return refusal(ctx, AUTH_CODES.content_digest_mismatch, MESSAGES.digestMissing);
  const result = checkContentDigest(header, ctx.body);
  return result.ok ? undefined : refusal(ctx, AUTH_CODES.content_digest_mismatch, MESSAGES.digestMismatch(result.detail));
}

/** Builds each signature base from the received @signature-params text; a covered field the request lacks cannot be checked. */
export function checkBases(ctx: SignedContext): CheckResult {
  // The bases reuse what earlier checks parsed from this very message: the target URI (checkAuthority) and
  // the Signature-Agent field (checkSignatureAgentHeader).
  // Stryker disable ObjectLiteral,ArrayDeclaration: without them signatureBase parses the same message itself (the work, not the base, changes)
  const prepared: PreparedMessage = {
    targetUrl: ctx.targetUrl,
    dictionaries: ctx.agentDictionary ? new Map([[HEADERS.signatureAgent, ctx.agentDictionary]]) : undefined,
  };
  // Stryker restore ObjectLiteral,ArrayDeclaration
  for (const l of ctx.labels) {
    try {
      l.base = signatureBase(ctx.message, l.member.covered, l.paramsText, prepared);
    } catch (error) {
      if (error instanceof ComponentError) return refusal(ctx, AUTH_CODES.signature_malformed, MESSAGES.coveredFieldAbsent(l.label, error.message));
      throw error;
    }
  }
  return undefined;
}
