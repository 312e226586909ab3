import {
  mintSdkToken,
  signingKeyFromJwk,
  verifySdkToken,
  type AuthSkill,
  type MintRequest,
  type Random,
  type SdkAuthPorts,
  type TokenVerdict,
} from '../../sdk-auth/index.js';
import type { TokenVerifier } from './agent.js';
import type { AgentKeys } from './keys.js';
import type { TokenMinter } from './token-endpoint.js';

/** What a verification fault sees: the token, the core's verdict, and a way to verify again under changed rules. */
export interface VerdictFaultInput {
  readonly token: string;
  readonly verdict: TokenVerdict;
  readonly skill: AuthSkill;
  /** Verifies the token again with another skill and/or another clock second. */
  verifyWith(changes: { readonly skill?: AuthSkill; readonly now?: number }): Promise<TokenVerdict>;
}

/** A fault of the inbound check (self-test mutants only): answers the verdict the agent acts on instead of the core's. */
export type VerdictFault = (input: VerdictFaultInput) => TokenVerdict | Promise<TokenVerdict>;

/** The auth skill's inbound check (5.1 on_connection): a Bearer SDK token verified into its AuthContext (2.3). */
export function sdkTokenVerifier(skill: AuthSkill, ports: SdkAuthPorts, fault?: VerdictFault): TokenVerifier {
  return async (token) => {
    let verdict = await verifySdkToken(token, skill, ports);
    if (fault) {
      const verifyWith = (changes: { readonly skill?: AuthSkill; readonly now?: number }) =>
        verifySdkToken(token, changes.skill ?? skill, changes.now === undefined ? ports : { ...ports, clock: { now: () => changes.now! } });
      verdict = await fault({ token, verdict, skill, verifyWith });
    }
    return verdict.ok ? verdict.context : null;
  };
}

/** A fault of the token endpoint's minting (self-test mutants only): the mint request the agent signs instead of its own. */
export type MintFault = (input: { readonly request: MintRequest; readonly skill: AuthSkill }) => MintRequest | Promise<MintRequest>;

/** Tokens the agent mints at /auth/token: self-issued, signed with its Ed25519 identity, aud the target agent. */
export function sdkTokenMinter(
  skill: AuthSkill,
  keys: AgentKeys,
  ports: Pick<SdkAuthPorts, 'clock'> & { readonly random: Random },
  fault?: MintFault,
): TokenMinter {
  const signing = signingKeyFromJwk({ ...keys.ed25519 }, keys.ed25519.kid);
  return async (request) => {
    const asked: MintRequest = { audience: request.audience, scopes: request.scope.split(/\s+/).filter(Boolean), key: await signing };
    const minted = await mintSdkToken(skill, fault ? await fault({ request: asked, skill }) : asked, ports);
    if (!minted.ok) throw new Error(minted.message);
    return { token: minted.token, expiresIn: Number(minted.claims.exp) - Number(minted.claims.iat) };
  };
}
