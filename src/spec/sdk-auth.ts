import type { RequirementRecord } from './types.js';

/** 2.2: the claims of an SDK-to-SDK JWT, by their wire names. */
export const SDK_CLAIMS = Object.freeze({
  iss: 'iss',
  sub: 'sub',
  aud: 'aud',
  exp: 'exp',
  iat: 'iat',
  nbf: 'nbf',
  jti: 'jti',
  scope: 'scope',
  clientId: 'client_id',
  tokenType: 'token_type',
  agentPath: 'agent_path',
});

/** 2.2 marks only agent_path optional: every other claim must be present. */
export const SDK_REQUIRED_CLAIMS: readonly string[] = Object.freeze(Object.values(SDK_CLAIMS).filter((claim) => claim !== SDK_CLAIMS.agentPath));

/** 2.2: the token_type claim's value. */
export const SDK_TOKEN_TYPE = 'Bearer';

/** JWS algorithms of the two key kinds 5.5 names (the Ed25519 identity and the RSA key). */
export const SDK_JWT_ALGORITHMS = Object.freeze({ ed25519: 'EdDSA', rsa: 'RS256' } as const);
export type SdkJwtAlgorithm = (typeof SDK_JWT_ALGORITHMS)[keyof typeof SDK_JWT_ALGORITHMS];

/** 2.2 scope strings: the basic ones and the two prefixed families. */
export const SDK_SCOPES = Object.freeze({ read: 'read', write: 'write', admin: 'admin' });
export const SDK_SCOPE_PREFIXES = Object.freeze({ namespace: 'namespace:', tools: 'tools:' });
/** 2.1: an allowed_scopes entry ending in this accepts every scope with the prefix before the `*`. */
export const SDK_SCOPE_WILDCARD_SUFFIX = ':*';
/** The spec gives no default for allowed_scopes; the Python SDK's default (docs/platform-sdk.md e). */
export const SDK_DEFAULT_ALLOWED_SCOPES: readonly string[] = Object.freeze([SDK_SCOPES.read, SDK_SCOPES.write]);

/** 5.1: the auth skill's two modes. */
export const SDK_AUTH_MODES = Object.freeze({ selfIssued: 'self-issued', portal: 'portal' } as const);
export type SdkAuthMode = (typeof SDK_AUTH_MODES)[keyof typeof SDK_AUTH_MODES];

/** 4.3, 5.1: the routes of a self-operated authority in Portal mode (the platform serves neither). */
export const PORTAL_ROUTES = Object.freeze({ jwks: '/api/auth/jwks', token: '/api/auth/token' });

/** 2.3: issuer_type values; a trusted issuer without a type is an agent (docs/platform-sdk.md e). */
export const ISSUER_TYPES = Object.freeze({ portal: 'portal', agent: 'agent', user: 'user' } as const);
export type IssuerType = (typeof ISSUER_TYPES)[keyof typeof ISSUER_TYPES];
export const DEFAULT_ISSUER_TYPE: IssuerType = ISSUER_TYPES.agent;

/** 2.1: the auth skill configuration's members, by their wire names. */
export const AUTH_SKILL_FIELDS = Object.freeze({
  authority: 'authority',
  agentId: 'agent_id',
  baseUrl: 'base_url',
  tokenTtl: 'token_ttl',
  allowedScopes: 'allowed_scopes',
  trustedIssuers: 'trusted_issuers',
  allow: 'allow',
  deny: 'deny',
  /** 2.1 names an "identity provider block" without a key; this is the key the configuration uses. */
  identityProvider: 'identity_provider',
  keysDir: 'keys_dir',
  jwksCacheTtl: 'jwks_cache_ttl',
});

/**
 * Why an inbound SDK-to-SDK token was refused. The spec names no codes for these (the SDK answers with its
 * own); they are this project's reason codes, one per condition, so vectors can pin which check refused.
 */
export const SDK_TOKEN_REFUSALS = Object.freeze({
  config_invalid: 'The auth skill configuration does not validate against 2.1',
  token_malformed: 'Not a three-segment JWS compact JWT with a JSON header and claims',
  algorithm_not_allowed: 'The JWS algorithm is neither EdDSA (Ed25519) nor RS256 (RSA)',
  claims_invalid: 'A claim 2.2 lists is missing or of the wrong type, or token_type is not Bearer',
  issuer_denied: 'The issuer matches a deny pattern (deny takes precedence over allow)',
  issuer_not_allowed: 'The issuer is not a trusted issuer and no allow pattern admits it, or its key set URL is not https',
  issuer_key_set_unreachable: "The issuer's key set could not be read",
  issuer_key_set_invalid: "The issuer's key set is not a JWK Set",
  token_key_unknown: "No key in the issuer's key set matches the token's header",
  token_signature_invalid: "The signature does not verify under the issuer's key",
  token_expired: 'exp is at or before now',
  token_not_yet_valid: 'nbf is after now',
  audience_mismatch: "aud is not this agent's URL",
} as const);
export type SdkTokenRefusalReason = keyof typeof SDK_TOKEN_REFUSALS;
export const SDK_TOKEN_REFUSAL_REASONS = Object.freeze(Object.keys(SDK_TOKEN_REFUSALS)) as readonly SdkTokenRefusalReason[];

/** 5.4: scope keywords of a declared endpoint; any other string is a scope the caller must hold exactly. */
export const ENDPOINT_SCOPES = Object.freeze({ all: 'all', user: 'user', owner: 'owner', admin: 'admin' } as const);
export const ENDPOINT_GROUP_SCOPE_PREFIX = 'group:';

/**
 * The 401 message when the request did carry a credential that does not verify (ENDPOINT_MESSAGES.unauthorized
 * is the fixture's wording for a request that carries none); 7.2 asks only that it say the endpoint needs a
 * caller the agent can verify.
 */
export const ENDPOINT_UNVERIFIED_CREDENTIAL_MESSAGE =
  'This endpoint needs a caller this agent can verify, and the credential the request carries does not verify.';

/** 5.4: TypeScript auth modes on an endpoint; public is the default. */
export const ENDPOINT_AUTH_MODES = Object.freeze({
  public: 'public',
  signature: 'signature',
  session: 'session',
  portalToken: 'portal_token',
  visitorSession: 'visitor_session',
} as const);
export type EndpointAuthMode = (typeof ENDPOINT_AUTH_MODES)[keyof typeof ENDPOINT_AUTH_MODES];
export const DEFAULT_ENDPOINT_AUTH_MODE: EndpointAuthMode = ENDPOINT_AUTH_MODES.public;

const req = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** The rules of 2.1-2.3, 5.1, 5.4 and 5.5 the SDK-auth and access vectors exercise. */
export const SDK_AUTH_REQUIREMENTS = Object.freeze({
  tokenClaims: req(
    'SDK-TOKEN-CLAIMS',
    '2.2',
    'An SDK-to-SDK JWT carries iss, sub, aud, exp, iat, nbf, jti, scope (space-separated), client_id and token_type Bearer; agent_path is optional.',
  ),
  tokenAudience: req('SDK-TOKEN-AUDIENCE', '5.5', "aud is the receiver's URL; a token for another receiver is refused."),
  tokenLifetime: req('SDK-TOKEN-LIFETIME', '5.5', 'The default token lifetime is 300 seconds; an expired or not-yet-valid token is refused.'),
  tokenSignature: req(
    'SDK-TOKEN-SIGNATURE',
    '5.1',
    "A token verifies under a key of its issuer's key set (Ed25519, or RSA between SDK agents, 2.4); a changed claim, another key's signature, an unsigned token (alg none) or one keyed otherwise (an HMAC) is refused.",
  ),
  allowDeny: req('SDK-ALLOW-DENY', '2.1', 'Deny patterns take precedence over allow patterns; an empty allow list admits every caller that is not denied.'),
  trustedIssuers: req('SDK-TRUSTED-ISSUERS', '2.1', "A trusted issuer's tokens verify under its jwks_uri and carry its type as issuer_type."),
  allowedScopes: req(
    'SDK-ALLOWED-SCOPES',
    '2.1',
    'Only scopes allowed_scopes accepts reach the AuthContext; a pattern ending in :* accepts every scope with that prefix.',
  ),
  authContext: req('SDK-AUTH-CONTEXT', '2.3', 'A verified token gives the AuthContext of 2.3, namespaces taken from namespace:* scopes, with hasScope().'),
  portalMode: req('SDK-PORTAL-MODE', '5.1', 'With authority set, tokens the authority signs verify under {authority}/api/auth/jwks.'),
  configValid: req('SDK-AUTH-CONFIG', '2.1', 'The auth skill configuration has the members and types of 2.1.'),
  scopeTable: req('ACCESS-SCOPE-TABLE', '5.4', 'A scoped endpoint admits callers as the scope table of 5.4 says; a list admits anyone one entry admits.'),
  checkedBeforeHandler: req(
    'ACCESS-CHECKED-BEFORE-HANDLER',
    '5.4',
    'A scoped endpoint is checked before its handler runs: a caller it refuses (401 or 403) never reaches the handler.',
  ),
  noVerifier: req('ACCESS-NO-VERIFIER', '5.4', 'An agent with no auth skill and no access block verifies no one, so its scoped endpoints refuse every caller.'),
  issuedTokenClaims: req(
    'AGENT-ISSUED-TOKEN-CLAIMS',
    '4.3',
    "A token an agent issues at POST /auth/token for target @name and a scope is an SDK token of 2.2: every claim 2.2 requires, token_type Bearer, iss the issuing agent, signed with a key it publishes (5.1), aud the named agent's URL (5.5), and no scope beyond those asked.",
  ),
  issuedTokenLifetime: req(
    'AGENT-ISSUED-TOKEN-LIFETIME',
    '4.3',
    'A token an agent issues at POST /auth/token lives its token_ttl (2.1): exp - iat is 300 seconds (5.5) unless token_ttl is configured otherwise.',
  ),
  authModes: req(
    'ACCESS-AUTH-MODES',
    '5.4',
    'The TypeScript auth modes public, signature, session, portal_token and visitor_session admit callers as 5.4 says.',
  ),
});
