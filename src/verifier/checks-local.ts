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
import { isRefused, perLabel, refused, type In, type Label, type LabelParams, type NonEmpty, type Refused } from './context.js';
import { MESSAGES } from './messages.js';
import { BoundedMemo } from './memo.js';
import { identityFromMember, type AgentIdentity } from './signature-agent.js';

/** Parsed Signature-Agent fields and the hosts of agent URLs, which repeat request after request (memo.ts). */
const agentDictionaries = new BoundedMemo<Dictionary>(1024, 2048);
const agentHosts = new BoundedMemo<string>(1024, 2048);

const THUMBPRINT = new RegExp(`^[A-Za-z0-9_-]{${LIMITS.thumbprintLength.value}}$`);
const REQUIRED_DERIVED = [COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path, COMPONENTS.query];

/** Signature-Input and Signature are dictionaries naming the same labels; Signature members are byte sequences. */
export function checkHeadersParse(input: In<never>): Refused | { labels: NonEmpty<Label> } {
  const inputRaw = fieldValue(input.message.headers, HEADERS.signatureInput);
  const signatureRaw = fieldValue(input.message.headers, HEADERS.signature);
  // Stryker disable next-line ConditionalExpression: the parsers answer null for an absent field too; the test only spares the call
  const inputs = inputRaw === undefined ? null : parseSignatureInputSharingEmptyMaps(inputRaw);
  // Stryker disable next-line ConditionalExpression: as above
  const signatures = signatureRaw === undefined ? null : parseSignatureHeader(signatureRaw);
  if (!inputs || !signatures) return refused(AUTH_CODES.signature_malformed, MESSAGES.notDictionaries);
  if (!sameKeys(inputs, signatures)) return refused(AUTH_CODES.signature_malformed, MESSAGES.labelsDiffer(inputs, signatures));
  // Only members tagged web-bot-auth (a string, not a token) are this profile's; others are left alone.
  const labels: Label[] = [];
  for (const [label, member] of inputs) {
    if (member.params.get('tag') !== WEB_BOT_AUTH_TAG || member.paramKinds.get('tag') !== 'string') continue;
    // The member's received text, which parseSignatureInput already lexed (the same text splitDictionaryMembers gives).
    labels.push({ label, member, paramsText: member.text, signature: signatures.get(label)! });
  }
  const [first, ...others] = labels;
  if (first === undefined) return refused(AUTH_CODES.signature_malformed, MESSAGES.noTag);
  if (labels.length > MAX_SIGNATURE_LABELS) return refused(AUTH_CODES.signature_malformed, MESSAGES.tooManyLabels(labels.length, MAX_SIGNATURE_LABELS));
  return { labels: [first, ...others] };
}

/** Whether both maps have the same keys (in any order). */
function sameKeys(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  if (a.size !== b.size) return false;
  for (const key of a.keys()) if (!b.has(key)) return false;
  return true;
}

/** The label's parameters, or what is wrong with them. */
function readParams(l: Label): LabelParams | string {
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
  return { created, expires, keyid, nonce };
}

/**
 * What the profile lets a label cover. signatureBase (checkBases) refuses a derived component it does not know, a
 * derived component with parameters and a field parameter other than key with the same code, before anything is
 * fetched, so this function states the profile's rule whole for its callers (its words name the component), and only
 * a covered item that is not a String and a key parameter on another field are refused here alone.
 */
function componentProblem(l: Label): string | null {
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
export function checkLabels(input: In<'labels'>): Refused | { params: NonEmpty<LabelParams> } {
  const params = perLabel(input.labels, (l) => {
    const read = readParams(l);
    if (typeof read === 'string') return refused(AUTH_CODES.signature_params_invalid, read);
    if (l.signature.length !== LIMITS.signatureSize.value) return refused(AUTH_CODES.signature_malformed, MESSAGES.signatureSize(l.label, l.signature.length));
    const component = componentProblem(l);
    if (component) return refused(AUTH_CODES.signature_malformed, component);
    const skew = LIMITS.clockSkew.value;
    if (read.created > input.now + skew) return refused(AUTH_CODES.signature_expired, MESSAGES.createdAhead(read.created, input.now));
    if (read.expires < input.now - skew) return refused(AUTH_CODES.signature_expired, MESSAGES.expired(read.expires, input.now));
    return read;
  });
  return isRefused(params) ? params : { params };
}

export function checkAuthority(input: In<never>): Refused | undefined {
  const expected = input.config.authority;
  if (input.target === null) return refused(AUTH_CODES.signature_authority_mismatch, MESSAGES.authority(input.message.url, expected));
  const authority = deriveAuthority(input.target);
  return authority === expected ? undefined : refused(AUTH_CODES.signature_authority_mismatch, MESSAGES.authority(authority, expected));
}

export function checkBodySize(input: In<never>): Refused | undefined {
  return input.body.length > LIMITS.signedRequestBody.value ? refused(AUTH_CODES.signature_body_too_large, MESSAGES.bodyTooLarge()) : undefined;
}

function isAgentMember(c: CoveredComponent): boolean {
  return c.name === HEADERS.signatureAgent && c.params.has('key');
}

/**
 * Each label covers @method @authority @path @query, content-digest when there is a body, and its own agent member once.
 * A covered whole Signature-Agent field counts as config.agentFieldCovered says (READING-AGENT-FIELD-COVERED-WHOLE).
 */
export function checkCoverage(input: In<'labels' | 'agentDictionary'>): Refused | { agentKeys: NonEmpty<string> } {
  const fieldCounts = input.config.agentFieldCovered ?? 'field';
  const agentKeys = perLabel(input.labels, (l) => {
    const covered = l.member.covered;
    let member: CoveredComponent | undefined;
    let members = 0;
    for (const c of covered) if (isAgentMember(c) && members++ === 0) member = c;
    const wholeField = fieldCounts !== 'field' && coversPlain(covered, HEADERS.signatureAgent);
    if (members > 1 || (wholeField && member && fieldCounts === 'item'))
      return refused(AUTH_CODES.signature_coverage_insufficient, MESSAGES.coverageAgentTwice(l.label));
    let missing: string[] | undefined;
    for (const n of REQUIRED_DERIVED) if (!coversPlain(covered, n)) (missing ??= []).push(n);
    const fieldAsMember = !member && wholeField && fieldCounts === 'member' && input.agentDictionary.has(l.label);
    const memberMissing = fieldAsMember ? false : !member || member.params.get('key') !== l.label;
    if (missing || memberMissing) return refused(AUTH_CODES.signature_coverage_insufficient, MESSAGES.coverageMissing(l.label, missing ?? [], memberMissing));
    if (input.hasBody && !coversPlain(covered, HEADERS.contentDigest))
      return refused(AUTH_CODES.signature_coverage_insufficient, MESSAGES.coverageBody(l.label));
    return l.label;
  });
  return isRefused(agentKeys) ? agentKeys : { agentKeys };
}

/** Whether `name` is covered without parameters. */
function coversPlain(covered: readonly CoveredComponent[], name: string): boolean {
  for (const c of covered) if (c.params.size === 0 && c.name === name) return true;
  return false;
}

/** Signature-Agent is present and parses as a dictionary. */
export function checkSignatureAgentHeader(input: In<never>): Refused | { agentDictionary: Dictionary } {
  const raw = fieldValue(input.message.headers, HEADERS.signatureAgent);
  if (raw === undefined) return refused(AUTH_CODES.signature_agent_invalid, MESSAGES.agentHeaderMissing);
  try {
    // Agents send the same Signature-Agent on every request; the parse is remembered (see memo.ts).
    return { agentDictionary: agentDictionaries.get(raw, () => parseDictionary(raw)) };
  } catch {
    return refused(AUTH_CODES.signature_malformed, MESSAGES.agentHeaderNotDictionary);
  }
}

/** The agent a label's covered member names, in one of the profile's forms; `agentUrl` is the one earlier labels named. */
function memberIdentity(input: In<'agentDictionary'>, key: string, agentUrl?: string): Refused | AgentIdentity {
  const entry = input.agentDictionary.get(key);
  if (!entry) return refused(AUTH_CODES.signature_agent_invalid, MESSAGES.memberMissing(key), agentUrl);
  const [value, params] = entry;
  if (typeof value !== 'string') return refused(AUTH_CODES.signature_agent_invalid, MESSAGES.memberNotString(key), agentUrl);
  const typeParam = params.get('type');
  const type = typeParam === undefined ? null : typeParam instanceof Token ? typeParam.toString() : `"${String(typeParam)}"`;
  const result = identityFromMember(value, type, input.config.allowInsecureAgentUrls === true);
  return result.ok ? result.identity : refused(AUTH_CODES.signature_agent_invalid, MESSAGES.memberUrl(key, result.why), agentUrl);
}

/** Each label's covered member is a string naming the same agent in one of the profile's forms. */
export function checkSignatureAgentMembers(input: In<'agentDictionary' | 'agentKeys'>): Refused | { identity: AgentIdentity } {
  const [firstKey, ...otherKeys] = input.agentKeys;
  const identity = memberIdentity(input, firstKey);
  if (isRefused(identity)) return identity;
  for (const key of otherKeys) {
    // A refusal on a later label names the agent the first one named.
    const other = memberIdentity(input, key, identity.agentUrl);
    if (isRefused(other)) return other;
    if (other.agentUrl !== identity.agentUrl)
      return refused(AUTH_CODES.signature_agent_invalid, MESSAGES.agentsDiffer([identity.agentUrl, other.agentUrl]), identity.agentUrl);
  }
  return { identity };
}

/** Agents this platform will not admit, and agents claiming the platform's own host, are refused without saying which. */
export function checkPolicy(input: In<'identity'>): Refused | undefined {
  const agentUrl = input.identity.agentUrl;
  const blocked = input.config.blockedAgents?.includes(agentUrl) === true;
  const ownHost = agentHosts.get(agentUrl, () => new URL(agentUrl).host) === input.config.authority;
  return blocked || ownHost ? refused(AUTH_CODES.credential_refused, MESSAGES.refusedAgent) : undefined;
}

/** RFC 9421 7.2.8: a covered content-digest protects only the header, so the body is hashed and compared here. */
export function checkDigest(input: In<'labels'>): Refused | undefined {
  if (!input.labels.some((l) => coversPlain(l.member.covered, HEADERS.contentDigest))) return undefined;
  const header = fieldValue(input.message.headers, HEADERS.contentDigest);
  if (header === undefined) return refused(AUTH_CODES.content_digest_mismatch, MESSAGES.digestMissing);
  const result = checkContentDigest(header, input.body);
  return result.ok ? undefined : refused(AUTH_CODES.content_digest_mismatch, MESSAGES.digestMismatch(result.detail));
}

/** Builds each signature base from the received @signature-params text; a covered field the request lacks cannot be checked. */
export function checkBases(input: In<'labels' | 'agentDictionary'>): Refused | { bases: NonEmpty<string> } {
  // The bases reuse what was parsed from this very message: the target URI and the Signature-Agent field.
  // Stryker disable ObjectLiteral,ArrayDeclaration: without them signatureBase parses the same message itself (the work, not the base, changes)
  const prepared: PreparedMessage = {
    targetUrl: input.target ?? undefined,
    dictionaries: new Map([[HEADERS.signatureAgent, input.agentDictionary]]),
  };
  // Stryker restore ObjectLiteral,ArrayDeclaration
  const bases = perLabel(input.labels, (l) => {
    try {
      return signatureBase(input.message, l.member.covered, l.paramsText, prepared);
    } catch (error) {
      if (error instanceof ComponentError) return refused(AUTH_CODES.signature_malformed, MESSAGES.coveredFieldAbsent(l.label, error.message));
      throw error;
    }
  });
  return isRefused(bases) ? bases : { bases };
}
