/**
 * `agent-platform-conformance/sdk-auth`: SDK-to-SDK tokens (2.1-2.3, 5.5). `createAuthSkill` (the 2.1 configuration,
 * validated with a JSON Schema), `mintSdkToken`, `verifySdkToken` (the AuthContext of 2.3 with `hasScope`, or a
 * refusal with a reason), the key-set cache port with in-memory adapters, issuer glob allow/deny lists and
 * `allowed_scopes`. The list is deliberate (tests/package/public-exports.test.ts pins it).
 */
// Ports and in-memory adapters.
export type { Awaitable, Clock, Random, KeySetFetcher, CachedKeySet, KeySetCachePort, JsonWebKeySet, JsonWebKeyEntry, SdkAuthPorts } from './ports.js';
export { MemoryKeySetCache, FixedClock, memoryKeySets, seededRandom } from './memory.js';
// Refusals, and the auth skill (2.1): its configuration, issuers, scopes and key sets.
export { refusal, type ConfigProblem, type SdkAuthRefusal } from './refusal.js';
export { AUTH_SKILL_CONFIG_SCHEMA, type AuthSkillConfig, type TrustedIssuerConfig } from './config-schema.js';
export { createAuthSkill, type ResolvedTrustedIssuer, type AuthSkill, type AuthSkillOptions, type AuthSkillResult } from './config.js';
export { globMatches, globToRegExp } from './glob.js';
export { issuerAgentId, issuerMatches, allowDenyAdmits, admitIssuer, type IssuerAdmission } from './issuer-policy.js';
export { scopeAllowed, grantedScopes, namespacesOf } from './scopes.js';
export { readKeySet, isJwkSet, type KeySetRead } from './key-sets.js';
// Tokens (2.2-2.3): the AuthContext, verification, minting and signing keys.
export { hasScope, type AuthContext } from './auth-context.js';
export { verifySdkToken, type VerifiedToken, type TokenVerdict } from './verify-token.js';
export { mintSdkToken, signSdkClaims, uuidFromBytes, type SdkSigningKey, type MintRequest, type MintResult } from './mint-token.js';
export { algorithmOf, signingKeyFromJwk, publicEntryOf, privateJwkOf } from './keys.js';
