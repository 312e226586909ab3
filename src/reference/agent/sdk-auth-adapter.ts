import { mintSdkToken, signingKeyFromJwk, verifySdkToken, type AuthSkill, type Random, type SdkAuthPorts } from '../../sdk-auth/index.js';
import type { TokenVerifier } from './agent.js';
import type { AgentKeys } from './keys.js';
import type { TokenMinter } from './token-endpoint.js';

/** The auth skill's inbound check (5.1 on_connection): a Bearer SDK token verified into its AuthContext (2.3). */
export function sdkTokenVerifier(skill: AuthSkill, ports: SdkAuthPorts): TokenVerifier {
  return async (token) => {
    const verdict = await verifySdkToken(token, skill, ports);
    return verdict.ok ? verdict.context : null;
  };
}

/** Tokens the agent mints at /auth/token: self-issued, signed with its Ed25519 identity, aud the target agent. */
export function sdkTokenMinter(skill: AuthSkill, keys: AgentKeys, ports: Pick<SdkAuthPorts, 'clock'> & { readonly random: Random }): TokenMinter {
  const signing = signingKeyFromJwk({ ...keys.ed25519 }, keys.ed25519.kid);
  return async (request) => {
    const minted = await mintSdkToken(skill, { audience: request.audience, scopes: request.scope.split(/\s+/).filter(Boolean), key: await signing }, ports);
    if (!minted.ok) throw new Error(minted.message);
    return { token: minted.token, expiresIn: Number(minted.claims.exp) - Number(minted.claims.iat) };
  };
}
