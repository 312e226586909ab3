import { createAuthSkill, MemoryKeySetCache, type AuthSkillConfig, type Clock, type KeySetFetcher, type Random } from '../../sdk-auth/index.js';
import { AGENT_MOUNT_PREFIX } from '../../spec/agent-endpoints.js';
import { AUTH_SKILL_FIELDS, type SdkJwtAlgorithm } from '../../spec/sdk-auth.js';
import { createReferenceAgent, type ReferenceAgent, type ReferenceAgentOptions } from './agent.js';
import type { AccessBlock } from './caller.js';
import { loadOrCreateAgentKeys, type AgentKeyStore } from './keys.js';
import { sdkTokenMinter, sdkTokenVerifier, type MintFault, type VerdictFault } from './sdk-auth-adapter.js';
import { UNREACHABLE_DOCUMENTS, webBotAuthCheck } from './signatures.js';
import type { DocumentFetcher } from '../../verifier/ports.js';

export interface StandardAgentOptions {
  /** e.g. http://127.0.0.1:8787/agents/alice */
  readonly agentUrl: string;
  readonly name: string;
  /** Where the keys live (a file store in a 0700 keys directory for serve); null for a server with no signing identity. */
  readonly keyStore: AgentKeyStore | null;
  /**
   * The auth skill (2.1) beyond base_url and agent_id, which come from agentUrl and name; null for an agent with no
   * auth skill (it verifies no one, so its scoped endpoints refuse every caller, 5.4).
   */
  readonly authSkill: Omit<AuthSkillConfig, 'base_url'> | null;
  readonly access?: AccessBlock;
  /** Reads a caller's key set (the fetch rules are the adapter's). */
  readonly fetchKeySet: KeySetFetcher;
  readonly clock: Clock;
  readonly random: Random;
  /** Clients of POST /auth/token (client_id to client_secret); none by default. */
  readonly clients?: Readonly<Record<string, string>>;
  /** false: no token endpoint (4.3; a TypeScript agent has none), as without a signing identity. */
  readonly tokenEndpoint?: false;
  /** The URL of @name; by default a sibling under /agents/ on this agent's origin. */
  readonly resolveTarget?: (name: string) => string | null;
  readonly serveKeyDirectory?: boolean;
  readonly publishRsaKey?: boolean;
  readonly endpoints?: ReferenceAgentOptions['endpoints'];
  readonly sockets?: ReferenceAgentOptions['sockets'];
  /**
   * Web Bot Auth signatures on inbound requests (7.2): verified with the reference verifier, reading the signing
   * agents' documents through `fetcher` (by default none is reachable, so no signature verifies); false: the agent
   * does not verify signatures (a signature is then a credential it cannot verify).
   */
  readonly signatures?: { readonly fetcher?: DocumentFetcher; readonly allowInsecureAgentUrls?: boolean } | false;
  /** Seconds of clock leeway the auth skill grants SDK tokens (READING-SDK-TOKEN-LEEWAY); none by default. */
  readonly tokenLeewaySeconds?: number;
  /** The algorithms inbound SDK tokens are verified under (READING-SDK-TOKEN-ALGORITHM); EdDSA and RS256 by default. */
  readonly tokenAlgorithms?: readonly SdkJwtAlgorithm[];
  /** Self-issued callers at plain-http loopback URLs are admitted too (serve --allow-insecure-fixtures, local runs only). */
  readonly allowInsecureLoopbackIssuers?: boolean;
  readonly sseFraming?: ReferenceAgentOptions['sseFraming'];
  readonly a2aMethods?: ReferenceAgentOptions['a2aMethods'];
  /** A fault of the inbound token check; only self-test mutants set it. */
  readonly verdictFault?: VerdictFault;
  /** A fault of the tokens POST /auth/token mints; only self-test mutants set it. */
  readonly mintFault?: MintFault;
  readonly onError?: ReferenceAgentOptions['onError'];
  readonly realm?: ReferenceAgentOptions['realm'];
  readonly unauthorizedMessage?: ReferenceAgentOptions['unauthorizedMessage'];
  readonly oversizedAnswer?: ReferenceAgentOptions['oversizedAnswer'];
}

export interface StandardAgent extends ReferenceAgent {
  readonly keys: ReferenceAgentOptions['keys'];
}

/** The reference agent composed with its auth skill (src/sdk-auth), its keys from the store and its ports. */
export async function createStandardAgent(options: StandardAgentOptions): Promise<StandardAgent> {
  const keys = options.keyStore ? await loadOrCreateAgentKeys(options.keyStore) : null;
  const agentUrl = options.agentUrl.replace(/\/+$/, '');
  let verifyToken: ReferenceAgentOptions['verifyToken'];
  let tokenEndpoint: ReferenceAgentOptions['tokenEndpoint'];
  if (options.authSkill) {
    const made = createAuthSkill(
      { [AUTH_SKILL_FIELDS.agentId]: options.name, ...options.authSkill, [AUTH_SKILL_FIELDS.baseUrl]: agentUrl },
      {
        ...(options.tokenLeewaySeconds ? { clockToleranceSeconds: options.tokenLeewaySeconds } : {}),
        ...(options.allowInsecureLoopbackIssuers ? { allowInsecureLoopbackIssuers: true } : {}),
        ...(options.tokenAlgorithms ? { algorithms: options.tokenAlgorithms } : {}),
      },
    );
    if (!made.ok) throw new TypeError(`the reference agent's auth skill is not valid: ${made.message}`);
    const ports = { clock: options.clock, fetchKeySet: options.fetchKeySet, keySetCache: new MemoryKeySetCache() };
    verifyToken = sdkTokenVerifier(made.skill, ports, options.verdictFault);
    if (keys && options.tokenEndpoint !== false) {
      const origin = new URL(agentUrl).origin;
      tokenEndpoint = {
        clients: options.clients ?? {},
        resolveTarget: options.resolveTarget ?? ((name) => (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) ? `${origin}${AGENT_MOUNT_PREFIX}${name}` : null)),
        mint: sdkTokenMinter(made.skill, keys, { clock: options.clock, random: options.random }, options.mintFault),
      };
    }
  }
  const agent = createReferenceAgent({
    agentUrl,
    name: options.name,
    keys,
    ...(verifyToken ? { verifyToken } : {}),
    ...(tokenEndpoint ? { tokenEndpoint } : {}),
    ...(options.access ? { access: options.access } : {}),
    ...(options.serveKeyDirectory ? { serveKeyDirectory: true } : {}),
    ...(options.publishRsaKey ? { publishRsaKey: true } : {}),
    ...(options.endpoints ? { endpoints: options.endpoints } : {}),
    ...(options.sockets ? { sockets: options.sockets } : {}),
    now: () => options.clock.now(),
    ...(options.signatures === false
      ? {}
      : {
          checkSignature: webBotAuthCheck({
            agentUrl,
            clock: options.clock,
            fetcher: options.signatures?.fetcher ?? UNREACHABLE_DOCUMENTS,
            ...(options.signatures?.allowInsecureAgentUrls ? { allowInsecureAgentUrls: true } : {}),
          }),
        }),
    ...(options.sseFraming ? { sseFraming: options.sseFraming } : {}),
    ...(options.a2aMethods ? { a2aMethods: options.a2aMethods } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.realm ? { realm: options.realm } : {}),
    ...(options.unauthorizedMessage !== undefined ? { unauthorizedMessage: options.unauthorizedMessage } : {}),
    ...(options.oversizedAnswer ? { oversizedAnswer: options.oversizedAnswer } : {}),
  });
  return { ...agent, keys };
}
