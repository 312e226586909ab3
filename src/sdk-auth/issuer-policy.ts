import { WELL_KNOWN } from '../spec/wire.js';
import { AGENT_NAME_SIGIL } from '../spec/agent-endpoints.js';
import { DEFAULT_ISSUER_TYPE, type IssuerType } from '../spec/sdk-auth.js';
import type { AuthSkill } from './config.js';
import { globMatches } from './glob.js';
import { isLoopbackAddress } from '../net/addresses.js';
import { refusal, type SdkAuthRefusal } from './refusal.js';

/** Where an admitted issuer's keys are read, and what kind of issuer it is. */
export interface IssuerAdmission {
  readonly ok: true;
  readonly jwksUri: string;
  readonly issuerType: IssuerType;
  readonly trusted: boolean;
}

/** The issuer's own name for pattern matching: the last `/` segment of iss (docs/platform-sdk.md e). */
export function issuerAgentId(iss: string): string {
  const trimmed = iss.replace(/\/+$/, '');
  return trimmed.includes('/') ? trimmed.slice(trimmed.lastIndexOf('/') + 1) : trimmed;
}

/** A pattern matches when it globs the full iss or its last segment; a leading @ on the pattern is ignored. */
export function issuerMatches(pattern: string, iss: string): boolean {
  const p = pattern.startsWith(AGENT_NAME_SIGIL) ? pattern.slice(AGENT_NAME_SIGIL.length) : pattern;
  return globMatches(p, iss) || globMatches(p, issuerAgentId(iss));
}

/** Deny first, then an empty allow list admits everyone, then any allow pattern. */
export function allowDenyAdmits(iss: string, allow: readonly string[], deny: readonly string[]): boolean {
  if (deny.some((p) => issuerMatches(p, iss))) return false;
  return allow.length === 0 || allow.some((p) => issuerMatches(p, iss));
}

/**
 * Which issuers a receiver accepts, and where their keys are (2.1, 5.1). Order:
 * 1. deny: a denied issuer is refused, even a trusted one. 2.1 says deny takes precedence over allow; the
 *    Python SDK looks trusted issuers up before its deny list, but its documented order (deny, trusted,
 *    allow, empty allow) puts deny first, and so does this core (docs/platform-sdk.md e).
 * 2. trusted_issuers (exact iss): its jwks_uri, its type (default agent). Portal mode adds the authority.
 * 3. allow (empty = every issuer not denied): an issuer's own key set at {iss}/.well-known/jwks.json (2.4),
 *    issuer_type agent. That URL comes from the unverified token, so it must be https with no credentials,
 *    query or fragment (or plain http on loopback when the options allow it, for local conformance runs).
 */
export function admitIssuer(iss: string, skill: AuthSkill): IssuerAdmission | SdkAuthRefusal {
  if (skill.deny.some((p) => issuerMatches(p, iss))) return refusal('issuer_denied', `${iss} matches a deny pattern`);
  const trusted = skill.trustedIssuers.find((t) => t.issuer === iss);
  if (trusted) return { ok: true, jwksUri: trusted.jwksUri, issuerType: trusted.type, trusted: true };
  if (!allowDenyAdmits(iss, skill.allow, skill.deny)) return refusal('issuer_not_allowed', `${iss} is not a trusted issuer and no allow pattern matches it`);
  const jwksUri = ownKeySetUrl(iss, skill.allowInsecureLoopbackIssuers);
  if (!jwksUri) return refusal('issuer_not_allowed', `${iss} is not an https URL without credentials, query or fragment, so its key set is not read`);
  return { ok: true, jwksUri, issuerType: DEFAULT_ISSUER_TYPE, trusted: false };
}

function ownKeySetUrl(iss: string, allowInsecureLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(iss);
  } catch {
    return null;
  }
  const secure = url.protocol === 'https:' || (allowInsecureLoopback && url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure || url.username || url.password || url.search || url.hash || iss.includes('#') || iss.includes('?')) return null;
  return `${iss.replace(/\/+$/, '')}${WELL_KNOWN.jwks}`;
}

/** A URL's host that names this machine: a loopback address literal (IPv6 in brackets) or localhost. */
function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || isLoopbackAddress(bare);
}
