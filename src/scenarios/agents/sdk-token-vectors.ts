import { createAuthSkill } from '../../sdk-auth/config.js';
import { FixedClock, MemoryKeySetCache, memoryKeySets } from '../../sdk-auth/memory.js';
import { verifySdkToken } from '../../sdk-auth/verify-token.js';
import { VECTOR_ENV } from '../kit.js';
import { sdkVectorKeys } from './sdk-keys.js';
import {
  sdkAuthFlags,
  sdkAuthGroups,
  type ConfigExpect,
  type SdkAuthGroup,
  type SdkConfigCase,
  type SdkTokenCase,
  type TokenExpect,
} from './sdk-token-scenarios.js';

const SDK_TOKEN_GENERATOR_VERSION = '1';
const SDK_TOKEN_SCHEMA = 'sdk-tokens.schema.json';

export interface SdkTokenVectors {
  readonly algorithm: string;
  readonly schema: string;
  readonly generatorVersion: string;
  readonly numberOfTests: number;
  readonly notes: Readonly<Record<string, string>>;
  readonly testGroups: readonly SdkAuthGroup[];
}

/** Builds vectors/sdk-tokens.json: deterministic (fixed time VECTOR_ENV.now, keys from fixed seeds, a fixed RSA key). */
export async function sdkTokenVectors(now: number = VECTOR_ENV.now): Promise<SdkTokenVectors> {
  const testGroups = await sdkAuthGroups(await sdkVectorKeys(), now);
  return {
    algorithm: 'SDK-to-SDK JWTs (EdDSA over Ed25519, RS256) and the auth skill configuration (spec 2.1-2.3, 5.1, 5.5)',
    schema: SDK_TOKEN_SCHEMA,
    generatorVersion: SDK_TOKEN_GENERATOR_VERSION,
    numberOfTests: testGroups.reduce((n, g) => n + g.cases.length, 0),
    notes: sdkAuthFlags(),
    testGroups,
  };
}

/** What our core answers for a token case, in the vector's terms (has_scope for the scopes the case asks about). */
export async function runSdkTokenCase(c: SdkTokenCase): Promise<TokenExpect> {
  const created = createAuthSkill(c.config);
  if (!created.ok) return { ok: false, reason: created.reason };
  const verdict = await verifySdkToken(c.token, created.skill, {
    clock: new FixedClock(c.now),
    fetchKeySet: memoryKeySets(c.key_sets),
    keySetCache: new MemoryKeySetCache(),
  });
  if (!verdict.ok) return { ok: false, reason: verdict.reason };
  const asked = c.expect.ok ? Object.keys(c.expect.has_scope) : [];
  return { ok: true, context: verdict.context, has_scope: Object.fromEntries(asked.map((s) => [s, verdict.hasScope(s)])) };
}

/** What our core answers for a configuration case. */
export function runSdkConfigCase(c: SdkConfigCase): ConfigExpect {
  const created = createAuthSkill(c.config, c.platform_url ? { platformUrl: c.platform_url } : {});
  if (!created.ok) return { ok: false, reason: 'config_invalid', pointers: [...new Set((created.problems ?? []).map((p) => p.pointer))].sort() };
  const s = created.skill;
  return {
    ok: true,
    mode: s.mode,
    agent_url: s.agentUrl,
    token_ttl: s.tokenTtl,
    jwks_cache_ttl: s.jwksCacheTtl,
    allowed_scopes: s.allowedScopes,
    trusted_issuers: s.trustedIssuers.map((t) => ({ issuer: t.issuer, jwks_uri: t.jwksUri, type: t.type })),
  };
}
