export { createReferenceAgent, type ReferenceAgent, type ReferenceAgentOptions, type TokenVerifier, type AgentUpgradeDecision } from './agent.js';
export { callerOf, type AccessBlock, type VerifiedToken } from './caller.js';
export { agentCard, agentDocumentUrls, agentKeySet, openidConfiguration, type AgentDocumentUrls } from './documents.js';
export { conformanceEndpoints, conformanceSockets } from './conformance-endpoints.js';
export type { AgentHttpEndpoint, AgentSocketEndpoint, EndpointAuth, EndpointContext, EndpointResult } from './endpoint-context.js';
export {
  createFileKeyStore,
  createMemoryKeyStore,
  generateAgentKeys,
  loadOrCreateAgentKeys,
  publicEd25519,
  publicRsa,
  KEY_FILES,
  KEY_FILE_MODE,
  KEYS_DIR_MODE,
  type AgentKeys,
  type AgentKeyStore,
} from './keys.js';
export { tokenEndpointResponse, type TokenEndpointOptions, type TokenMinter, type TokenMintRequest, type MintedAgentToken } from './token-endpoint.js';
export { sdkTokenMinter, sdkTokenVerifier } from './sdk-auth-adapter.js';
export { createStandardAgent, type StandardAgentOptions, type StandardAgent } from './standard-agent.js';
export { createMountedAgent, agentRoute, DEFAULT_SERVED_AGENT_NAME, type ServedAgentOptions } from './mount.js';
