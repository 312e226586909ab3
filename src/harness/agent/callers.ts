import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import {
  createAuthSkill,
  mintSdkToken,
  publicEntryOf,
  signSdkClaims,
  signingKeyFromJwk,
  type AuthSkillConfig,
  type JsonWebKeyEntry,
  type JsonWebKeySet,
  type Random,
  type SdkSigningKey,
} from '../../sdk-auth/index.js';
import type { AccessBlock } from '../../reference/agent/caller.js';
import { CALLER_ACCESS as CONTRACT_CALLER_ACCESS, CALLER_IDS, type CallerRole } from '../../contract/callers.js';
import { keyFromName } from '../../scenarios/identities.js';
import { FIXED_RSA_KEYS } from '../../scenarios/agents/fixed-rsa-keys.js';
import {
  AUTH_SKILL_FIELDS,
  PORTAL_ROUTES,
  SDK_JWT_ALGORITHMS,
  SDK_SCOPES,
  SDK_SCOPE_PREFIXES,
  SDK_SCOPE_WILDCARD_SUFFIX,
  type SdkJwtAlgorithm,
} from '../../spec/sdk-auth.js';
import { WELL_KNOWN } from '../../spec/wire.js';

/** The access block an in-process reference agent is given, placing the callers above (the contract's, src/contract/callers.ts). */
export const CALLER_ACCESS: AccessBlock = CONTRACT_CALLER_ACCESS;

/** Each caller is an SDK agent of its own with a fixed key, its key set at https://<id>.callers.example. */
function callerUrl(role: CallerRole): string {
  return `https://${CALLER_IDS[role]}.callers.example`;
}

/**
 * Issuers of SDK tokens beyond the callers (2.1, 5.1): one the auth skill's deny glob names although its allow glob
 * admits it, one no allow glob admits (its key set is served, so only the allow list keeps it out), a trusted
 * issuer whose keys are at its jwks_uri, and a Portal-mode authority whose keys are at {authority}/api/auth/jwks.
 */
export type SdkIssuerName = CallerRole | 'blocked' | 'stranger' | 'trusted' | 'authority';

const PORTAL_AUTHORITY = 'https://authority.portal.example';
const TRUSTED_ISSUER = 'https://issuer.trusted.example';
const TRUSTED_JWKS_URI = 'https://keys.trusted.example/jwks.json';

interface Issuer {
  readonly iss: string;
  readonly sub: string;
  readonly jwksUrl: string;
}

const own = (iss: string, sub: string): Issuer => ({ iss, sub, jwksUrl: iss + WELL_KNOWN.jwks });

const ISSUERS: Readonly<Record<SdkIssuerName, Issuer>> = Object.freeze({
  ...(Object.fromEntries((Object.keys(CALLER_IDS) as CallerRole[]).map((role) => [role, own(callerUrl(role), CALLER_IDS[role])])) as Record<
    CallerRole,
    Issuer
  >),
  blocked: own('https://blocked.callers.example', 'bert'),
  stranger: own('https://stranger.elsewhere.example', 'stan'),
  trusted: { iss: TRUSTED_ISSUER, sub: 'tess', jwksUrl: TRUSTED_JWKS_URI },
  authority: { iss: PORTAL_AUTHORITY, sub: 'polly', jwksUrl: PORTAL_AUTHORITY + PORTAL_ROUTES.jwks },
});

/** The caller id (sub) an issuer's tokens name. */
export function issuerSubject(name: SdkIssuerName): string {
  return ISSUERS[name].sub;
}

/** Where every issuer lives: an issuer's iss, its caller id and the URL of its key set. */
export type IssuerDirectory = Readonly<Record<SdkIssuerName, Issuer>>;

/**
 * The issuers of a live run, each a self-issued agent under `base` (the run's fixture host, which publishes their key
 * sets): same names, caller ids and keys as the fixed ones, at URLs the agent under test can read.
 */
export function issuersUnder(base: string): IssuerDirectory {
  const root = base.replace(/\/+$/, '');
  return Object.fromEntries(
    (Object.keys(ISSUERS) as SdkIssuerName[]).map((name) => {
      const iss = `${root}/${name}`;
      const jwksUrl = name === 'authority' ? iss + PORTAL_ROUTES.jwks : name === 'trusted' ? `${root}/keys/${name}/jwks.json` : iss + WELL_KNOWN.jwks;
      return [name, { iss, sub: ISSUERS[name].sub, jwksUrl }];
    }),
  ) as Record<SdkIssuerName, Issuer>;
}

/**
 * The embedded reference agent's auth skill (2.1, beyond base_url and agent_id): callers.example agents allowed,
 * blocked.callers.example denied (deny beats allow), a trusted issuer, and allowed_scopes with a `namespace:*` entry.
 */
export const CALLER_AUTH_SKILL: Omit<AuthSkillConfig, 'base_url'> = Object.freeze({
  [AUTH_SKILL_FIELDS.allow]: ['https://*.callers.example'],
  [AUTH_SKILL_FIELDS.deny]: ['https://blocked.*'],
  [AUTH_SKILL_FIELDS.trustedIssuers]: [{ issuer: TRUSTED_ISSUER, jwks_uri: TRUSTED_JWKS_URI, type: 'agent' }],
  [AUTH_SKILL_FIELDS.allowedScopes]: [
    SDK_SCOPES.read,
    SDK_SCOPES.write,
    `${SDK_SCOPE_PREFIXES.namespace.slice(0, -SDK_SCOPE_WILDCARD_SUFFIX.length + 1)}${SDK_SCOPE_WILDCARD_SUFFIX}`,
  ],
}) as Omit<AuthSkillConfig, 'base_url'>;

/** The Portal-mode variant's auth skill (5.1): the authority set, an empty allow list (every caller not denied). */
export const PORTAL_AUTH_SKILL: Omit<AuthSkillConfig, 'base_url'> = Object.freeze({
  [AUTH_SKILL_FIELDS.authority]: PORTAL_AUTHORITY,
  [AUTH_SKILL_FIELDS.deny]: CALLER_AUTH_SKILL.deny,
  [AUTH_SKILL_FIELDS.allowedScopes]: CALLER_AUTH_SKILL.allowed_scopes,
}) as Omit<AuthSkillConfig, 'base_url'>;

/** The name an issuer's fixed keys are made from (src/scenarios/identities.ts, src/scenarios/agents/fixed-rsa-keys.ts). */
function keyName(name: SdkIssuerName): string {
  return name in CALLER_IDS ? `caller/${CALLER_IDS[name as CallerRole]}` : `issuer/${name}`;
}

/** Both algorithms of the keys 5.5 names: EdDSA (the Ed25519 identity) and RS256 (the RSA key), EdDSA first. */
export const SDK_TOKEN_ALGORITHMS: readonly SdkJwtAlgorithm[] = Object.freeze([SDK_JWT_ALGORITHMS.ed25519, SDK_JWT_ALGORITHMS.rsa]);

const signingKeys = new Map<string, Promise<SdkSigningKey>>();

/** The issuer's key of that algorithm: its Ed25519 identity from a fixed seed, or its fixed RSA key; kid the RFC 7638 thumbprint. */
function signingKeyOf(name: SdkIssuerName, algorithm: SdkJwtAlgorithm = SDK_JWT_ALGORITHMS.ed25519): Promise<SdkSigningKey> {
  const id = `${keyName(name)} ${algorithm}`;
  let key = signingKeys.get(id);
  if (!key) {
    if (algorithm === SDK_JWT_ALGORITHMS.rsa) {
      const rsa = FIXED_RSA_KEYS[keyName(name)];
      if (!rsa) throw new Error(`no fixed RSA key for ${keyName(name)}`);
      key = signingKeyFromJwk({ ...rsa });
    } else {
      const ed = keyFromName(keyName(name));
      key = signingKeyFromJwk({ ...ed.privateJwk }, ed.thumbprint);
    }
    signingKeys.set(id, key);
  }
  return key;
}

/** Imports every issuer's keys of both kinds now, so that no check pays for it. */
export async function warmCallerKeys(): Promise<void> {
  await Promise.all((Object.keys(ISSUERS) as SdkIssuerName[]).flatMap((name) => SDK_TOKEN_ALGORITHMS.map((algorithm) => signingKeyOf(name, algorithm))));
}

/** Where the issuer publishes its key set. */
export function issuerKeySetUrl(name: SdkIssuerName): string {
  return ISSUERS[name].jwksUrl;
}

/**
 * Every issuer's key set by URL, for the agent's key-set port (or the fixture host that publishes them): each carries
 * the issuer's Ed25519 key and its RSA key (2.4: "Between SDK agents a key set may also carry an RSA key").
 */
export async function callerKeySets(issuers: IssuerDirectory = ISSUERS): Promise<Record<string, JsonWebKeySet>> {
  const sets: Record<string, JsonWebKeySet> = {};
  for (const name of Object.keys(issuers) as SdkIssuerName[]) {
    const keys: JsonWebKeyEntry[] = [];
    for (const algorithm of SDK_TOKEN_ALGORITHMS) keys.push(publicEntryOf(await signingKeyOf(name, algorithm)));
    sets[issuers[name].jwksUrl] = { keys };
  }
  return sets;
}

/** An SDK token (2.2) as a check wants it: a good one, or one broken in one way. */
export interface SdkTokenRequest {
  readonly issuer: SdkIssuerName;
  /**
   * Which of the issuer's keys signs it (5.5: "the Ed25519 identity and the RSA key"): EdDSA by default, RS256 for its
   * RSA key. A forged token names the issuer's key of this algorithm.
   */
  readonly algorithm?: SdkJwtAlgorithm;
  /** aud; the target's agent URL by default. */
  readonly audience?: string;
  /** read by default. */
  readonly scopes?: readonly string[];
  /** Seconds before now the token was issued (iat = nbf = now - age). */
  readonly age?: number;
  /** Seconds; the issuer's default token_ttl (300) otherwise. */
  readonly lifetime?: number;
  /** Claims replaced (undefined removes one) before signing. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Whose key signs (the issuer's by default), of the same algorithm. */
  readonly signer?: SdkIssuerName;
  /** The header's kid when another key signs: the issuer's (a forged signature) or the signer's own (an unknown key). */
  readonly kid?: 'issuer' | 'signer';
  /** Claims changed after signing, the signature kept (a tampered token). */
  readonly tampered?: Readonly<Record<string, unknown>>;
  /** The token re-made so that no key of the issuer's key set signed it (5.1: the agent signs with the key it publishes). */
  readonly forge?: SdkTokenForgery;
}

/**
 * How a forged token names its issuer's key without that key signing it: unsigned (alg none), an HMAC keyed with the
 * issuer's public key (the classic algorithm confusion), its signature cut off, or signed by a key of its own that
 * its header carries (jwk, RFC 7515 4.1.3) under the issuer's kid, which only a verifier trusting the header accepts.
 */
type SdkTokenForgery = 'alg-none' | 'hmac-with-public-key' | 'signature-removed' | 'embedded-jwk';

async function forged(token: string, key: SdkSigningKey, how: SdkTokenForgery): Promise<string> {
  const claims = decodeJwt(token);
  switch (how) {
    case 'alg-none':
      return new UnsecuredJWT(claims).encode();
    case 'hmac-with-public-key': {
      const { kid: _kid, alg: _alg, use: _use, ...publicJwk } = publicEntryOf(key);
      const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
      return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(token).kid }).sign(secret);
    }
    case 'signature-removed':
      return `${token.slice(0, token.lastIndexOf('.'))}.`;
    case 'embedded-jwk': {
      // A key of the same kind that no key set publishes: the stranger's, carried in the header under the issuer's kid.
      const own = await signingKeyOf('stranger', key.alg);
      const { kid: _kid, alg: _alg, use: _use, ...jwk } = publicEntryOf(own);
      const header = { alg: key.alg, kid: key.kid, typ: 'JWT', jwk };
      return new SignJWT(claims).setProtectedHeader(header).sign(await importJWK(own.privateJwk, own.alg));
    }
  }
}

function withChanges(claims: JWTPayload, changes: Readonly<Record<string, unknown>>): JWTPayload {
  const next: Record<string, unknown> = { ...claims };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete next[name];
    else next[name] = value;
  }
  return next as JWTPayload;
}

/** Mints the token a request describes with sdk-auth, signed with the fixed keys above. */
export async function sdkToken(
  request: SdkTokenRequest,
  audience: string,
  ports: { readonly clock: { now(): number }; readonly random: Random },
  issuers: IssuerDirectory = ISSUERS,
): Promise<string> {
  const issuer = issuers[request.issuer];
  const made = createAuthSkill({ base_url: issuer.iss, agent_id: issuer.sub });
  if (!made.ok) throw new Error(made.message);
  const clock = { now: () => ports.clock.now() - (request.age ?? 0) };
  const key = await signingKeyOf(request.issuer, request.algorithm);
  const minted = await mintSdkToken(
    made.skill,
    {
      audience: request.audience ?? audience,
      scopes: request.scopes ?? [SDK_SCOPES.read],
      key,
      ...(request.lifetime !== undefined ? { lifetime: request.lifetime } : {}),
    },
    { clock, random: ports.random },
  );
  if (!minted.ok) throw new Error(minted.message);
  let token = minted.token;
  if (request.claims || request.signer) {
    const signer = request.signer ? await signingKeyOf(request.signer, request.algorithm) : key;
    token = await signSdkClaims(withChanges(minted.claims, request.claims ?? {}), signer, request.kid === 'signer' ? signer.kid : key.kid);
  }
  if (request.tampered) {
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify(withChanges(decodeJwt(token), request.tampered))).toString('base64url');
    token = `${header}.${payload}.${signature}`;
  }
  return request.forge ? forged(token, key, request.forge) : token;
}

/** A self-issued SDK token (2.2) of the caller for the agent at `audience`, minted with sdk-auth and signed under `algorithm`. */
export function callerToken(
  role: CallerRole,
  audience: string,
  ports: { readonly clock: { now(): number }; readonly random: Random },
  issuers: IssuerDirectory = ISSUERS,
  algorithm?: SdkJwtAlgorithm,
): Promise<string> {
  return sdkToken({ issuer: role, ...(algorithm ? { algorithm } : {}) }, audience, ports, issuers);
}
