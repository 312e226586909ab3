import { HEADERS } from '../spec/headers.js';
import { createHash } from 'node:crypto';
import { generateEd25519Jwk, jwkThumbprint, type Ed25519PrivateJwk } from '../httpsig/index.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { ED25519_JWK, WELL_KNOWN } from '../spec/wire.js';
import type { CaseDocument, CaseDocuments } from '../cases/types.js';

export interface KeyPair {
  readonly privateJwk: Ed25519PrivateJwk;
  /** The public key as published in a key set. */
  readonly publicJwk: { readonly kty: string; readonly crv: string; readonly x: string; readonly use: string };
  readonly thumbprint: string;
}

/** A deterministic key from a name, so vectors regenerate byte for byte. */
export function keyFromName(name: string): KeyPair {
  const seed = createHash('sha256').update(`agent-platform-conformance/key/${name}`).digest();
  const { privateJwk, publicJwk } = generateEd25519Jwk(new Uint8Array(seed));
  return { privateJwk, publicJwk: { ...publicJwk, use: ED25519_JWK.use }, thumbprint: jwkThumbprint({ ...publicJwk }) };
}

export interface AgentIdentity {
  readonly agentUrl: string;
  readonly keySetUrl: string;
  readonly cardUrl: string;
}

export function agentAt(agentUrl: string): AgentIdentity {
  return { agentUrl, keySetUrl: agentUrl + WELL_KNOWN.jwks, cardUrl: agentUrl + WELL_KNOWN.agentCard };
}

const json = (value: unknown, mediaType: string = MEDIA_TYPES.json): CaseDocument => ({
  status: 200,
  headers: { [HEADERS.contentType]: mediaType },
  body: JSON.stringify(value),
});

export function keySetDocument(keys: readonly unknown[], mediaType?: string): CaseDocument {
  return json({ keys }, mediaType);
}

export function cardDocument(identity: AgentIdentity, overrides: Record<string, unknown> = {}): CaseDocument {
  return json({ client_id: identity.cardUrl, url: identity.agentUrl, jwks_uri: identity.keySetUrl, name: 'conformance agent', ...overrides });
}

/** The documents a well-behaved agent publishes: its key set and its card. */
export function agentDocuments(identity: AgentIdentity, keys: readonly KeyPair[]): CaseDocuments {
  return {
    [identity.keySetUrl]: keySetDocument(keys.map((k) => k.publicJwk)),
    [identity.cardUrl]: cardDocument(identity),
  };
}
