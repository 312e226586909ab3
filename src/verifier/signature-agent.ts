import { SIGNATURE_AGENT_TYPES, WELL_KNOWN } from '../spec/wire.js';
import { BoundedMemo } from './memo.js';
import { AGENT_URL_WHY as WHY } from './messages.js';

export type AgentUrlType = (typeof SIGNATURE_AGENT_TYPES)[keyof typeof SIGNATURE_AGENT_TYPES];

/** Where an agent's documents live, derived from the Signature-Agent member (5.2). */
export interface AgentIdentity {
  readonly type: AgentUrlType;
  /** The member value as sent: key set URL, card URL or origin. */
  readonly identifier: string;
  /** The member value minus its suffix (the principal). */
  readonly agentUrl: string;
  readonly cardUrl: string;
  /** The key set URL; null for type=cimd, whose card names it. */
  readonly keySetUrl: string | null;
  /** Key set URLs the card may name in jwks_uri. */
  readonly cardKeySetUrls: readonly string[];
}

export type IdentityResult = { ok: true; identity: AgentIdentity } | { ok: false; why: string };

function withoutSuffix(value: string, suffix: string): string | null {
  return value.endsWith(suffix) ? value.slice(0, -suffix.length) : null;
}

/**
 * Reads the member value: an https key set URL ending in /.well-known/jwks.json (type jwks_uri or no type),
 * a card URL ending in /.well-known/agent.json with type=cimd, or an origin with type=directory.
 */
export function identityFromMember(value: string, type: string | null, allowInsecure: boolean): IdentityResult {
  // A pure function of its three arguments, asked the same question on every request of an agent.
  const key = `${allowInsecure ? 1 : 0}${type === null ? '-' : `${type.length}:${type}`}\n${value}`;
  return identities.get(key, () => readIdentity(value, type, allowInsecure));
}

const identities = new BoundedMemo<IdentityResult>(1024, 2048);

const refused = (why: string): IdentityResult => ({ ok: false, why });

function readIdentity(value: string, type: string | null, allowInsecure: boolean): IdentityResult {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refused(WHY.notAbsolute);
  }
  const insecureAllowed = allowInsecure && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !insecureAllowed) return refused(WHY.notHttps);
  if (url.username || url.password) return refused(WHY.userInfo);
  if (url.search || url.hash || value.includes('?') || value.includes('#')) return refused(WHY.queryOrFragment);

  if (type === SIGNATURE_AGENT_TYPES.directory) {
    // An origin, written with or without its empty path (READING-DIRECTORY-TRAILING-SLASH); with no user information, query or fragment, either spelling has the path /.
    if (value !== url.origin && value !== `${url.origin}/`) {
      return refused(WHY.directoryNotOrigin);
    }
    const agentUrl = url.origin;
    return {
      ok: true,
      identity: {
        type,
        identifier: value,
        agentUrl,
        cardUrl: agentUrl + WELL_KNOWN.agentCard,
        keySetUrl: agentUrl + WELL_KNOWN.keyDirectory,
        cardKeySetUrls: [agentUrl + WELL_KNOWN.jwks, agentUrl + WELL_KNOWN.keyDirectory],
      },
    };
  }
  if (value !== url.href) return refused(WHY.notNormalized(url.href));
  if (type === SIGNATURE_AGENT_TYPES.cimd) {
    const agentUrl = withoutSuffix(value, WELL_KNOWN.agentCard);
    if (!agentUrl) return refused(WHY.notCardUrl);
    return {
      ok: true,
      identity: { type, identifier: value, agentUrl, cardUrl: value, keySetUrl: null, cardKeySetUrls: [agentUrl + WELL_KNOWN.jwks] },
    };
  }
  if (type !== null && type !== SIGNATURE_AGENT_TYPES.jwksUri) {
    return refused(WHY.unknownType(type));
  }
  const agentUrl = withoutSuffix(value, WELL_KNOWN.jwks);
  if (!agentUrl) return refused(WHY.notKeySetUrl);
  return {
    ok: true,
    identity: {
      type: SIGNATURE_AGENT_TYPES.jwksUri,
      identifier: value,
      agentUrl,
      cardUrl: agentUrl + WELL_KNOWN.agentCard,
      keySetUrl: value,
      cardKeySetUrls: [value],
    },
  };
}
