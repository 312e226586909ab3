import { SIGNATURE_AGENT_TYPES, WELL_KNOWN } from '../spec/wire.js';
import { BoundedMemo } from './memo.js';

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

function readIdentity(value: string, type: string | null, allowInsecure: boolean): IdentityResult {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, why: 'the value must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) return { ok: false, why: 'the value must use https' };
  if (url.username || url.password) return { ok: false, why: 'the URL must not carry user information' };
  if (url.search || url.hash || value.includes('?') || value.includes('#')) return { ok: false, why: 'the URL must not carry a query or fragment' };

  if (type === SIGNATURE_AGENT_TYPES.directory) {
    if (url.pathname !== '/' || (value !== url.origin && value !== `${url.origin}/`)) {
      return { ok: false, why: 'with type=directory the value must be an origin such as https://agent.example' };
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
  if (value !== url.href) return { ok: false, why: `the URL must be written in normalized form (${url.href})` };
  if (type === SIGNATURE_AGENT_TYPES.cimd) {
    const agentUrl = withoutSuffix(value, WELL_KNOWN.agentCard);
    if (!agentUrl) return { ok: false, why: `with type=cimd the value must be a card URL ending in ${WELL_KNOWN.agentCard}` };
    return {
      ok: true,
      identity: { type, identifier: value, agentUrl, cardUrl: value, keySetUrl: null, cardKeySetUrls: [agentUrl + WELL_KNOWN.jwks] },
    };
  }
  if (type !== null && type !== SIGNATURE_AGENT_TYPES.jwksUri) {
    return { ok: false, why: `the type ${JSON.stringify(type)} is not one of jwks_uri, cimd or directory` };
  }
  const agentUrl = withoutSuffix(value, WELL_KNOWN.jwks);
  if (!agentUrl) return { ok: false, why: `the value must be a key set URL ending in ${WELL_KNOWN.jwks}` };
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
