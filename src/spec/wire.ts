/** Fixed tokens of the signed-request profile (2.4, 5.2, 7.3) and of the platform's routes. */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
export const ED25519_ALG = 'ed25519';

/** The components a signed request covers (5.2), in the order the platform's SDK emits them. */
export const COMPONENTS = Object.freeze({
  method: '@method',
  authority: '@authority',
  path: '@path',
  query: '@query',
  signatureParams: '@signature-params',
});

/** Derived components that may be covered (5.2); header fields may be covered too. */
export const ALLOWED_DERIVED_COMPONENTS: readonly string[] = Object.freeze([COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path, COMPONENTS.query]);

/** Signature-Agent member `type` parameter values (5.2). */
export const SIGNATURE_AGENT_TYPES = Object.freeze({
  jwksUri: 'jwks_uri',
  cimd: 'cimd',
  directory: 'directory',
});

export const WELL_KNOWN = Object.freeze({
  jwks: '/.well-known/jwks.json',
  agentCard: '/.well-known/agent.json',
  keyDirectory: '/.well-known/http-message-signatures-directory',
  openidConfiguration: '/.well-known/openid-configuration',
  mcpWidgets: '/.well-known/mcp/widgets.json',
});

export const PLATFORM_ROUTES = Object.freeze({
  cliToken: '/api/auth/cli/token',
  mppCredits: '/api/mpp/credits',
  llmChatCompletions: '/api/llm/chat/completions',
  mcp: '/mcp',
});

/** The Bearer challenge of a refused signed request (7.3). */
export const BEARER_CHALLENGE = Object.freeze({
  scheme: 'Bearer',
  realm: 'service',
  error: 'invalid_token',
});

export const AUTH_SCHEMES = Object.freeze({ bearer: 'Bearer', payment: 'Payment' });

/** Supported Content-Digest algorithms (RFC 9530 active entries; 5.2 names both). */
export const DIGEST_ALGORITHMS = Object.freeze(['sha-256', 'sha-512'] as const);
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];

/** The three labels a one- or two-key signer uses (docs/platform-sdk.md a: a second held key signs as sig2). */
export const SIGNATURE_LABELS = Object.freeze(['sig1', 'sig2'] as const);
export const MAX_SIGNATURE_LABELS = SIGNATURE_LABELS.length;

/** 2.4: the agent card fields that must name the card itself. */
export const CARD_FIELDS = Object.freeze({ clientId: 'client_id', url: 'url', jwksUri: 'jwks_uri', jwks: 'jwks' });

/** 2.4: the key set entries the profile admits. */
export const ED25519_JWK = Object.freeze({ kty: 'OKP', crv: 'Ed25519', use: 'sig' });

/**
 * RFC 9421 Appendix B test keys (2.4: "none of the RFC 9421 test keys"), whose private halves the RFC publishes: the
 * B.1.4 Ed25519 key by its public x, and every Appendix B.1 key by its RFC 7638 thumbprint (test-key-ed25519,
 * test-key-rsa-pss, test-key-rsa, test-key-ecc-p256), since a key set may also carry an RSA key.
 */
export const RFC9421_TEST_KEYS = Object.freeze({
  ed25519X: ['JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs'],
  thumbprints: [
    'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U',
    'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA',
    'BHj8s0GPnMEQtkaULIM-PLgEhLBbuGUQ1vMxmBWZzEo',
    'ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI',
  ],
});
