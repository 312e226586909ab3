import { SignJWT, type JWTPayload } from 'jose';
import type { AuthContext } from '../../sdk-auth/auth-context.js';
import { publicEntryOf } from '../../sdk-auth/keys.js';
import { seededRandom, FixedClock } from '../../sdk-auth/memory.js';
import { mintSdkToken, signSdkClaims, uuidFromBytes, type SdkSigningKey } from '../../sdk-auth/mint-token.js';
import { createAuthSkill } from '../../sdk-auth/config.js';
import { LIMITS } from '../../spec/limits.js';
import {
  ISSUER_TYPES,
  PORTAL_ROUTES,
  SDK_AUTH_MODES,
  SDK_AUTH_REQUIREMENTS as R,
  SDK_TOKEN_TYPE,
  type IssuerType,
  type SdkAuthMode,
  type SdkTokenRefusalReason,
} from '../../spec/sdk-auth.js';
import { WELL_KNOWN } from '../../spec/wire.js';
import type { SdkVectorKeys } from './sdk-keys.js';

export type TokenExpect =
  | { readonly ok: true; readonly context: AuthContext; readonly has_scope: Readonly<Record<string, boolean>> }
  | { readonly ok: false; readonly reason: SdkTokenRefusalReason };

export interface SdkTokenCase {
  readonly kind: 'token';
  readonly id: string;
  readonly description: string;
  readonly flags: readonly string[];
  readonly requirements: readonly string[];
  readonly now: number;
  readonly config: unknown;
  readonly key_sets: Readonly<Record<string, unknown>>;
  readonly token: string;
  readonly expect: TokenExpect;
}

export type ConfigExpect =
  | {
      readonly ok: true;
      readonly mode: SdkAuthMode;
      readonly agent_url: string;
      readonly token_ttl: number;
      readonly jwks_cache_ttl: number;
      readonly allowed_scopes: readonly string[];
      readonly trusted_issuers: ReadonlyArray<{ readonly issuer: string; readonly jwks_uri: string; readonly type: IssuerType }>;
    }
  | { readonly ok: false; readonly reason: 'config_invalid'; readonly pointers: readonly string[] };

export interface SdkConfigCase {
  readonly kind: 'config';
  readonly id: string;
  readonly description: string;
  readonly flags: readonly string[];
  readonly requirements: readonly string[];
  readonly config: unknown;
  /** Where @name agents live when the configuration has no authority. */
  readonly platform_url?: string;
  readonly expect: ConfigExpect;
}

type SdkAuthCase = SdkTokenCase | SdkConfigCase;

export interface SdkAuthGroup {
  readonly comment: string;
  readonly cases: readonly SdkAuthCase[];
}

const ORIGIN = 'https://agents.example';
const SDK_URLS = Object.freeze({
  alice: `${ORIGIN}/a/alice`,
  bob: `${ORIGIN}/a/bob`,
  dave: `${ORIGIN}/a/dave`,
  erin: `${ORIGIN}/a/erin`,
  carolIssuer: 'https://partners.example/carol',
  carolKeySet: 'https://partners.example/keys/carol.json',
  authority: 'https://authority.example',
  platform: 'https://platform.example',
});
const keySetOf = (agentUrl: string) => `${agentUrl}${WELL_KNOWN.jwks}`;

const NAMESPACE_ACME = 'namespace:acme';
const TOOLS_SEARCH = 'tools:search';

/** The receiver (bob) in self-issued mode accepting basic, namespace and tools scopes. */
const receiver = (more: Record<string, unknown> = {}) => ({
  agent_id: 'bob',
  base_url: SDK_URLS.bob,
  allowed_scopes: ['read', 'write', 'namespace:*', 'tools:*'],
  ...more,
});

export function sdkAuthFlags(): Readonly<Record<string, string>> {
  return Object.freeze({
    Accepted: 'The token verifies: the expected AuthContext is attached.',
    Refused: 'The token is refused with the given reason code.',
    Ed25519: 'Signed with an Ed25519 key (EdDSA).',
    Rsa: 'Signed with an RSA key (RS256).',
    Portal: 'Portal mode: authority set; the authority signs and its key set is at {authority}/api/auth/jwks.',
    Tampered: 'A claim was changed after signing, the signature kept.',
    OtherKey: "Signed by a key other than the issuer's.",
    AllowDeny: 'Decided by the allow and deny glob patterns.',
    ScopeFilter: 'allowed_scopes drops scopes it does not accept.',
    Config: 'An auth skill configuration in; the resolved skill or the JSON pointers of its problems out.',
  });
}

/** Every SDK-token and auth-skill configuration case, at a fixed time with fixed keys. */
export async function sdkAuthGroups(keys: SdkVectorKeys, now: number): Promise<SdkAuthGroup[]> {
  const aliceSets = { [keySetOf(SDK_URLS.alice)]: { keys: [publicEntryOf(keys.aliceEd), publicEntryOf(keys.aliceRsa)] } };
  const carolSets = { [SDK_URLS.carolKeySet]: { keys: [publicEntryOf(keys.carolEd)] } };
  const portalSets = { [`${SDK_URLS.authority}${PORTAL_ROUTES.jwks}`]: { keys: [publicEntryOf(keys.authorityEd)] } };
  const issued = now - 10;

  /** alice's claims for bob, issued 10 s ago for the default lifetime; `over` replaces (undefined removes) claims. */
  const claims = (id: string, over: Record<string, unknown> = {}): JWTPayload => {
    const base: Record<string, unknown> = {
      iss: SDK_URLS.alice,
      sub: 'alice',
      aud: SDK_URLS.bob,
      iat: issued,
      nbf: issued,
      exp: issued + LIMITS.sdkTokenLifetime.value,
      jti: `jti-${id}`,
      scope: 'read',
      client_id: 'alice',
      token_type: SDK_TOKEN_TYPE,
      ...over,
    };
    return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined)) as JWTPayload;
  };
  const context = (c: JWTPayload, scopes: string[], namespaces: string[], issuerType: IssuerType): AuthContext => ({
    user_id: null,
    agent_id: c.sub!,
    source_agent: c.sub!,
    authenticated: true,
    scopes,
    namespaces,
    issuer: c.iss!,
    issuer_type: issuerType,
    raw_claims: c,
  });
  const token = (
    id: string,
    description: string,
    flags: string[],
    requirements: string[],
    config: unknown,
    sets: Record<string, unknown>,
    jwt: string,
    expect: TokenExpect,
  ): SdkTokenCase => ({
    kind: 'token',
    id,
    description,
    flags,
    requirements,
    now,
    config,
    key_sets: sets,
    token: jwt,
    expect,
  });
  const refused = (reason: SdkTokenRefusalReason): TokenExpect => ({ ok: false, reason });
  const sign = (c: JWTPayload, key: SdkSigningKey, kid?: string) => signSdkClaims(c, key, kid);

  // Accepted tokens.
  const edClaims = claims('ed25519', { scope: `read write ${TOOLS_SEARCH} ${NAMESPACE_ACME}` });
  const rsaClaims = claims('rsa', { scope: `read ${NAMESPACE_ACME}` });
  const filterClaims = claims('filter', { scope: `read admin ${NAMESPACE_ACME} other:thing` });
  const nestedClaims = claims('nested', { scope: 'namespace:acme:team namespace:' });
  const carolClaims = claims('carol', { iss: SDK_URLS.carolIssuer, sub: 'carol', client_id: 'carol', scope: 'write' });
  const portalClaims = claims('portal', { iss: SDK_URLS.authority, sub: 'alice', scope: `read ${NAMESPACE_ACME} namespace:beta` });
  const pathClaims = claims('agent-path', { agent_path: '/a' });

  // A token alice's skill mints with its defaults (lifetime 300 s), from a seeded random jti.
  const aliceSkill = createAuthSkill({ agent_id: 'alice', base_url: SDK_URLS.alice });
  if (!aliceSkill.ok) throw new Error(aliceSkill.message);
  const minted = await mintSdkToken(
    aliceSkill.skill,
    { audience: SDK_URLS.bob, scopes: ['read', TOOLS_SEARCH], key: keys.aliceEd },
    { clock: new FixedClock(issued), random: seededRandom(5) },
  );
  if (!minted.ok) throw new Error(minted.message);
  const mintedClaims = claims('minted', { jti: uuidFromBytes(seededRandom(5).bytes(16)), scope: `read ${TOOLS_SEARCH}` });

  const accepted: SdkAuthCase[] = [
    token(
      'ed25519-self-issued',
      "alice's Ed25519 token for bob, key read from alice's own key set",
      ['Accepted', 'Ed25519'],
      [R.tokenClaims.id, R.authContext.id, R.allowedScopes.id],
      receiver(),
      aliceSets,
      await sign(edClaims, keys.aliceEd),
      {
        ok: true,
        context: context(edClaims, ['read', 'write', TOOLS_SEARCH, NAMESPACE_ACME], ['acme'], ISSUER_TYPES.agent),
        has_scope: { read: true, [TOOLS_SEARCH]: true, admin: false },
      },
    ),
    token(
      'rsa-self-issued',
      "alice's RSA token for bob (an SDK key set may carry an RSA key)",
      ['Accepted', 'Rsa'],
      [R.tokenClaims.id, R.authContext.id],
      receiver(),
      aliceSets,
      await sign(rsaClaims, keys.aliceRsa),
      { ok: true, context: context(rsaClaims, ['read', NAMESPACE_ACME], ['acme'], ISSUER_TYPES.agent), has_scope: { read: true, write: false } },
    ),
    token(
      'minted-default-lifetime',
      'a token minted with the defaults: iat = nbf = now, exp = now + 300, scope space-separated, token_type Bearer',
      ['Accepted', 'Ed25519'],
      [R.tokenLifetime.id, R.tokenClaims.id],
      receiver(),
      aliceSets,
      minted.token,
      { ok: true, context: context(mintedClaims, ['read', TOOLS_SEARCH], [], ISSUER_TYPES.agent), has_scope: { [TOOLS_SEARCH]: true } },
    ),
    token(
      'agent-path-carried',
      'the optional agent_path claim is accepted and kept in raw_claims',
      ['Accepted', 'Ed25519'],
      [R.tokenClaims.id],
      receiver(),
      aliceSets,
      await sign(pathClaims, keys.aliceEd),
      { ok: true, context: context(pathClaims, ['read'], [], ISSUER_TYPES.agent), has_scope: { read: true } },
    ),
    token(
      'scopes-not-allowed-dropped',
      'with the default allowed_scopes (read, write) admin, namespace:acme and other:thing are dropped, not refused',
      ['Accepted', 'ScopeFilter'],
      [R.allowedScopes.id],
      { base_url: SDK_URLS.bob },
      aliceSets,
      await sign(filterClaims, keys.aliceEd),
      { ok: true, context: context(filterClaims, ['read'], [], ISSUER_TYPES.agent), has_scope: { read: true, admin: false, [NAMESPACE_ACME]: false } },
    ),
    token(
      'namespace-wildcard-edges',
      'namespace:* accepts namespace:acme:team (namespace acme) and namespace: (empty namespace)',
      ['Accepted', 'ScopeFilter'],
      [R.allowedScopes.id, R.authContext.id],
      receiver(),
      aliceSets,
      await sign(nestedClaims, keys.aliceEd),
      {
        ok: true,
        context: context(nestedClaims, ['namespace:acme:team', 'namespace:'], ['acme', ''], ISSUER_TYPES.agent),
        has_scope: { 'namespace:acme:team': true, [NAMESPACE_ACME]: false },
      },
    ),
    token(
      'trusted-issuer-user',
      "a trusted issuer's token verifies under its jwks_uri and carries its type",
      ['Accepted', 'Ed25519'],
      [R.trustedIssuers.id],
      receiver({ trusted_issuers: [{ issuer: SDK_URLS.carolIssuer, jwks_uri: SDK_URLS.carolKeySet, type: ISSUER_TYPES.user }] }),
      carolSets,
      await sign(carolClaims, keys.carolEd),
      { ok: true, context: context(carolClaims, ['write'], [], ISSUER_TYPES.user), has_scope: { write: true } },
    ),
    token(
      'portal-mode',
      "Portal mode: the authority's token verifies under {authority}/api/auth/jwks and is a portal issuer's",
      ['Accepted', 'Portal'],
      [R.portalMode.id, R.authContext.id],
      receiver({ authority: SDK_URLS.authority }),
      portalSets,
      await sign(portalClaims, keys.authorityEd),
      {
        ok: true,
        context: context(portalClaims, ['read', NAMESPACE_ACME, 'namespace:beta'], ['acme', 'beta'], ISSUER_TYPES.portal),
        has_scope: { 'namespace:beta': true },
      },
    ),
    token(
      'allow-glob-admits',
      "allow ['@ali*'] admits alice (the pattern globs the last segment of iss)",
      ['Accepted', 'AllowDeny'],
      [R.allowDeny.id],
      receiver({ allow: ['@ali*'] }),
      aliceSets,
      await sign(claims('allow'), keys.aliceEd),
      { ok: true, context: context(claims('allow'), ['read'], [], ISSUER_TYPES.agent), has_scope: { read: true } },
    ),
    token(
      'allow-glob-full-url',
      "allow ['https://agents.example/*'] admits alice (* crosses /)",
      ['Accepted', 'AllowDeny'],
      [R.allowDeny.id],
      receiver({ allow: ['https://agents.example/*'] }),
      aliceSets,
      await sign(claims('allow-url'), keys.aliceEd),
      { ok: true, context: context(claims('allow-url'), ['read'], [], ISSUER_TYPES.agent), has_scope: { read: true } },
    ),
  ];

  // Refused: changed claims, time, audience, form.
  const good = await sign(claims('tampered'), keys.aliceEd);
  const tamperedCases = (
    [
      ['scope', { scope: 'read admin' }],
      ['aud', { aud: SDK_URLS.erin }],
      ['exp', { exp: issued + 86_400 }],
      ['sub', { sub: 'mallory' }],
      ['jti', { jti: 'jti-replayed' }],
      ['agent-path-added', { agent_path: '/x' }],
    ] as const
  ).map(([name, change]) =>
    token(
      `claim-changed-${name}`,
      `a claim changed after signing (${Object.keys(change).join(', ')}): the signature no longer verifies`,
      ['Refused', 'Tampered'],
      [R.tokenSignature.id],
      receiver(),
      aliceSets,
      tamper(good, change),
      refused('token_signature_invalid'),
    ),
  );
  const hmac = await new SignJWT(claims('hs256'))
    .setProtectedHeader({ alg: 'HS256', kid: keys.aliceEd.kid })
    .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
  const claimsRefused: SdkAuthCase[] = [
    ...tamperedCases,
    token(
      'wrong-audience',
      "a token alice made for erin is not bob's (aud is the receiver's URL)",
      ['Refused'],
      [R.tokenAudience.id],
      receiver(),
      aliceSets,
      await sign(claims('aud', { aud: SDK_URLS.erin }), keys.aliceEd),
      refused('audience_mismatch'),
    ),
    token(
      'audience-with-trailing-slash',
      'aud must be exactly the receiver URL: a trailing slash is another URL',
      ['Refused'],
      [R.tokenAudience.id],
      receiver(),
      aliceSets,
      await sign(claims('aud-slash', { aud: `${SDK_URLS.bob}/` }), keys.aliceEd),
      refused('audience_mismatch'),
    ),
    token(
      'expired',
      'exp one second ago',
      ['Refused'],
      [R.tokenLifetime.id],
      receiver(),
      aliceSets,
      await sign(claims('expired', { iat: now - 301, nbf: now - 301, exp: now - 1 }), keys.aliceEd),
      refused('token_expired'),
    ),
    token(
      'expires-now',
      'exp equal to now is expired',
      ['Refused'],
      [R.tokenLifetime.id],
      receiver(),
      aliceSets,
      await sign(claims('exp-now', { iat: now - 300, nbf: now - 300, exp: now }), keys.aliceEd),
      refused('token_expired'),
    ),
    token(
      'nbf-in-future',
      'nbf one second ahead',
      ['Refused'],
      [R.tokenLifetime.id],
      receiver(),
      aliceSets,
      await sign(claims('nbf', { nbf: now + 1 }), keys.aliceEd),
      refused('token_not_yet_valid'),
    ),
    token(
      'missing-jti',
      'jti missing (2.2 lists it)',
      ['Refused'],
      [R.tokenClaims.id],
      receiver(),
      aliceSets,
      await sign(claims('no-jti', { jti: undefined }), keys.aliceEd),
      refused('claims_invalid'),
    ),
    token(
      'missing-exp',
      'exp missing',
      ['Refused'],
      [R.tokenClaims.id],
      receiver(),
      aliceSets,
      await sign(claims('no-exp', { exp: undefined }), keys.aliceEd),
      refused('claims_invalid'),
    ),
    token(
      'token-type-not-bearer',
      'token_type is not Bearer',
      ['Refused'],
      [R.tokenClaims.id],
      receiver(),
      aliceSets,
      await sign(claims('dpop', { token_type: 'DPoP' }), keys.aliceEd),
      refused('claims_invalid'),
    ),
    token(
      'scope-not-a-string',
      'scope is a list, not a space-separated string',
      ['Refused'],
      [R.tokenClaims.id],
      receiver(),
      aliceSets,
      await sign(claims('scope-list', { scope: ['read'] }), keys.aliceEd),
      refused('claims_invalid'),
    ),
    token(
      'not-three-segments',
      'a bearer that is not a three-segment JWT',
      ['Refused'],
      [R.tokenClaims.id],
      receiver(),
      aliceSets,
      good.split('.').slice(0, 2).join('.'),
      refused('token_malformed'),
    ),
    token(
      'hmac-algorithm',
      'HS256 (a shared secret) is neither EdDSA nor RS256',
      ['Refused'],
      [R.tokenSignature.id],
      receiver(),
      aliceSets,
      hmac,
      refused('algorithm_not_allowed'),
    ),
  ];

  // Refused: keys.
  const keysRefused: SdkAuthCase[] = [
    token(
      'resigned-by-other-key',
      "alice's claims signed by mallory's key under alice's kid",
      ['Refused', 'OtherKey'],
      [R.tokenSignature.id],
      receiver(),
      aliceSets,
      await sign(claims('resigned'), keys.malloryEd, keys.aliceEd.kid),
      refused('token_signature_invalid'),
    ),
    token(
      'rsa-kid-other-key',
      "alice's claims signed by mallory under alice's RSA kid (the algorithm does not match the key)",
      ['Refused', 'OtherKey'],
      [R.tokenSignature.id],
      receiver(),
      aliceSets,
      await sign(claims('rsa-kid'), keys.malloryEd, keys.aliceRsa.kid),
      refused('token_key_unknown'),
    ),
    token(
      'key-not-in-set',
      "signed by mallory under mallory's own kid: alice's key set has no such key",
      ['Refused', 'OtherKey'],
      [R.tokenSignature.id],
      receiver(),
      aliceSets,
      await sign(claims('unknown-kid'), keys.malloryEd),
      refused('token_key_unknown'),
    ),
    token(
      'portal-token-other-key',
      "a token claiming the authority as issuer, signed by mallory under the authority's kid",
      ['Refused', 'Portal', 'OtherKey'],
      [R.portalMode.id, R.tokenSignature.id],
      receiver({ authority: SDK_URLS.authority }),
      portalSets,
      await sign(portalClaims, keys.malloryEd, keys.authorityEd.kid),
      refused('token_signature_invalid'),
    ),
    token(
      'key-set-unreachable',
      "dave's key set cannot be read",
      ['Refused'],
      [R.tokenSignature.id],
      receiver(),
      aliceSets,
      await sign(claims('dave', { iss: SDK_URLS.dave, sub: 'dave', client_id: 'dave' }), keys.malloryEd),
      refused('issuer_key_set_unreachable'),
    ),
    token(
      'key-set-invalid',
      "alice's key set is not a JWK Set",
      ['Refused'],
      [R.tokenSignature.id],
      receiver(),
      { [keySetOf(SDK_URLS.alice)]: { keys: 'none' } },
      await sign(claims('bad-set'), keys.aliceEd),
      refused('issuer_key_set_invalid'),
    ),
  ];

  // Refused: issuers.
  const issuersRefused: SdkAuthCase[] = [
    token(
      'denied-by-glob',
      "deny ['@ali*'] refuses alice",
      ['Refused', 'AllowDeny'],
      [R.allowDeny.id],
      receiver({ deny: ['@ali*'] }),
      aliceSets,
      await sign(claims('deny'), keys.aliceEd),
      refused('issuer_denied'),
    ),
    token(
      'deny-wins-over-allow',
      "allow ['@alice'] and deny ['https://agents.example/*']: deny takes precedence",
      ['Refused', 'AllowDeny'],
      [R.allowDeny.id],
      receiver({ allow: ['@alice'], deny: ['https://agents.example/*'] }),
      aliceSets,
      await sign(claims('deny-allow'), keys.aliceEd),
      refused('issuer_denied'),
    ),
    token(
      'deny-wins-over-trusted',
      'a trusted issuer that a deny pattern matches is refused (deny first)',
      ['Refused', 'AllowDeny'],
      [R.allowDeny.id, R.trustedIssuers.id],
      receiver({ deny: ['carol'], trusted_issuers: [{ issuer: SDK_URLS.carolIssuer, jwks_uri: SDK_URLS.carolKeySet }] }),
      carolSets,
      await sign(carolClaims, keys.carolEd),
      refused('issuer_denied'),
    ),
    token(
      'untrusted-issuer',
      "allow ['@carol'] only: alice is neither trusted nor allowed",
      ['Refused', 'AllowDeny'],
      [R.allowDeny.id, R.trustedIssuers.id],
      receiver({ allow: ['@carol'] }),
      aliceSets,
      await sign(claims('untrusted'), keys.aliceEd),
      refused('issuer_not_allowed'),
    ),
    token(
      'glob-is-case-sensitive',
      "allow ['@Alice']: patterns are case-sensitive",
      ['Refused', 'AllowDeny'],
      [R.allowDeny.id],
      receiver({ allow: ['@Alice'] }),
      aliceSets,
      await sign(claims('case'), keys.aliceEd),
      refused('issuer_not_allowed'),
    ),
    token(
      'issuer-not-https',
      "an untrusted issuer's key set is read only over https",
      ['Refused'],
      [R.trustedIssuers.id],
      receiver(),
      { ...aliceSets, 'http://agents.example/a/alice/.well-known/jwks.json': aliceSets[keySetOf(SDK_URLS.alice)] },
      await sign(claims('http', { iss: 'http://agents.example/a/alice' }), keys.aliceEd),
      refused('issuer_not_allowed'),
    ),
    token(
      'portal-issuer-untrusted-elsewhere',
      "without authority configured, the authority's token is read from {iss}/.well-known/jwks.json, which it does not serve",
      ['Refused', 'Portal'],
      [R.portalMode.id],
      receiver(),
      portalSets,
      await sign(portalClaims, keys.authorityEd),
      refused('issuer_key_set_unreachable'),
    ),
  ];

  return [
    { comment: 'Accepted tokens: the AuthContext of 2.3', cases: accepted },
    { comment: 'Refused: changed claims, time, audience and form (2.2, 5.5)', cases: claimsRefused },
    { comment: 'Refused: keys and key sets (5.1)', cases: keysRefused },
    { comment: 'Refused: issuers, allow and deny (2.1)', cases: issuersRefused },
    { comment: 'Auth skill configuration (2.1, 5.1): the resolved skill, or the JSON pointers of every problem', cases: configCases() },
  ];
}

/** A compact JWS with its claims segment replaced, header and signature kept. */
export function tamper(jwt: string, change: Readonly<Record<string, unknown>>): string {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), ...change };
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

function configCases(): SdkConfigCase[] {
  const req = [R.configValid.id];
  const ok = (id: string, description: string, config: unknown, expect: Extract<ConfigExpect, { ok: true }>, platformUrl?: string): SdkConfigCase => ({
    kind: 'config',
    id,
    description,
    flags: ['Config'],
    requirements: [...req, ...(expect.mode === SDK_AUTH_MODES.portal ? [R.portalMode.id] : [])],
    config,
    ...(platformUrl ? { platform_url: platformUrl } : {}),
    expect,
  });
  const bad = (id: string, description: string, config: unknown, pointers: string[]): SdkConfigCase => ({
    kind: 'config',
    id,
    description,
    flags: ['Config'],
    requirements: req,
    config,
    expect: { ok: false, reason: 'config_invalid', pointers },
  });
  const portalJwks = `${SDK_URLS.authority}${PORTAL_ROUTES.jwks}`;
  return [
    ok(
      'config-self-issued-defaults',
      'no authority: self-issued, token_ttl 300, jwks_cache_ttl 3600, allowed_scopes read and write',
      { base_url: SDK_URLS.bob },
      {
        ok: true,
        mode: SDK_AUTH_MODES.selfIssued,
        agent_url: SDK_URLS.bob,
        token_ttl: LIMITS.sdkTokenLifetime.value,
        jwks_cache_ttl: LIMITS.sdkKeySetCache.value,
        allowed_scopes: ['read', 'write'],
        trusted_issuers: [],
      },
    ),
    ok(
      'config-portal',
      'authority set: Portal mode, the authority trusted at {authority}/api/auth/jwks',
      { base_url: SDK_URLS.bob, authority: SDK_URLS.authority, token_ttl: 60, jwks_cache_ttl: 0, allowed_scopes: ['namespace:*'] },
      {
        ok: true,
        mode: SDK_AUTH_MODES.portal,
        agent_url: SDK_URLS.bob,
        token_ttl: 60,
        jwks_cache_ttl: 0,
        allowed_scopes: ['namespace:*'],
        trusted_issuers: [{ issuer: SDK_URLS.authority, jwks_uri: portalJwks, type: ISSUER_TYPES.portal }],
      },
    ),
    ok(
      'config-at-name-portal',
      '@bob with an authority is {authority}/agents/bob',
      { base_url: '@bob', authority: SDK_URLS.authority },
      {
        ok: true,
        mode: SDK_AUTH_MODES.portal,
        agent_url: `${SDK_URLS.authority}/agents/bob`,
        token_ttl: LIMITS.sdkTokenLifetime.value,
        jwks_cache_ttl: LIMITS.sdkKeySetCache.value,
        allowed_scopes: ['read', 'write'],
        trusted_issuers: [{ issuer: SDK_URLS.authority, jwks_uri: portalJwks, type: ISSUER_TYPES.portal }],
      },
    ),
    ok(
      'config-at-name-platform',
      '@bob without an authority lives on the platform',
      { base_url: '@bob', trusted_issuers: [{ issuer: SDK_URLS.carolIssuer, jwks_uri: SDK_URLS.carolKeySet }] },
      {
        ok: true,
        mode: SDK_AUTH_MODES.selfIssued,
        agent_url: `${SDK_URLS.platform}/agents/bob`,
        token_ttl: LIMITS.sdkTokenLifetime.value,
        jwks_cache_ttl: LIMITS.sdkKeySetCache.value,
        allowed_scopes: ['read', 'write'],
        trusted_issuers: [{ issuer: SDK_URLS.carolIssuer, jwks_uri: SDK_URLS.carolKeySet, type: ISSUER_TYPES.agent }],
      },
      SDK_URLS.platform,
    ),
    ok(
      'config-every-member',
      'every member of 2.1 at once',
      {
        authority: SDK_URLS.authority,
        agent_id: 'bob',
        base_url: SDK_URLS.bob,
        token_ttl: 120,
        allowed_scopes: ['read', 'tools:*'],
        trusted_issuers: [{ issuer: SDK_URLS.carolIssuer, jwks_uri: SDK_URLS.carolKeySet, type: ISSUER_TYPES.user }],
        allow: ['@carol', 'https://partners.example/*'],
        deny: ['@mallory*'],
        // biome-ignore lint/suspicious/noTemplateCurlyInString: 2.1 lets these reference environment variables, written as ${NAME}.
        identity_provider: { client_id: '${IDP_CLIENT_ID}', client_secret: '${IDP_CLIENT_SECRET}', hosted_domain: 'example.com' },
        keys_dir: './keys',
        jwks_cache_ttl: 600,
      },
      {
        ok: true,
        mode: SDK_AUTH_MODES.portal,
        agent_url: SDK_URLS.bob,
        token_ttl: 120,
        jwks_cache_ttl: 600,
        allowed_scopes: ['read', 'tools:*'],
        trusted_issuers: [
          { issuer: SDK_URLS.carolIssuer, jwks_uri: SDK_URLS.carolKeySet, type: ISSUER_TYPES.user },
          { issuer: SDK_URLS.authority, jwks_uri: portalJwks, type: ISSUER_TYPES.portal },
        ],
      },
    ),
    bad('config-negative-ttl', 'token_ttl -5', { base_url: SDK_URLS.bob, token_ttl: -5 }, ['/token_ttl']),
    bad('config-ttl-not-integer', 'jwks_cache_ttl as a string, token_ttl fractional', { base_url: SDK_URLS.bob, jwks_cache_ttl: '3600', token_ttl: 1.5 }, [
      '/jwks_cache_ttl',
      '/token_ttl',
    ]),
    bad('config-negative-cache-ttl', 'jwks_cache_ttl -1', { base_url: SDK_URLS.bob, jwks_cache_ttl: -1 }, ['/jwks_cache_ttl']),
    bad('config-authority-not-url', 'authority is not an absolute http(s) URL', { base_url: SDK_URLS.bob, authority: 'authority.example' }, ['/authority']),
    bad('config-base-url-bad', 'base_url neither a URL nor an @name', { base_url: 'bob agent' }, ['/base_url']),
    bad('config-base-url-missing', 'base_url missing', { agent_id: 'bob' }, ['/base_url']),
    bad('config-at-name-nowhere', '@bob with neither authority nor platform URL cannot become a URL', { base_url: '@bob' }, ['/base_url']),
    bad('config-unknown-member', 'an unknown member (a misspelt allow)', { base_url: SDK_URLS.bob, alow: ['@carol'] }, ['/alow']),
    bad('config-allow-not-list', 'allow as one string', { base_url: SDK_URLS.bob, allow: '@carol' }, ['/allow']),
    bad('config-scope-with-space', 'an allowed_scopes entry with a space in it', { base_url: SDK_URLS.bob, allowed_scopes: ['read write'] }, [
      '/allowed_scopes/0',
    ]),
    bad(
      'config-trusted-issuer-bad',
      'a trusted issuer with an unknown type, a bad jwks_uri and no issuer',
      { base_url: SDK_URLS.bob, trusted_issuers: [{ jwks_uri: 'keys.json', type: 'robot' }] },
      ['/trusted_issuers/0/issuer', '/trusted_issuers/0/jwks_uri', '/trusted_issuers/0/type'],
    ),
    bad('config-not-object', 'a list instead of an object', [SDK_URLS.bob], ['']),
  ];
}
