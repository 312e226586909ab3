/** The reference agent (4.2-4.3, 5.4-5.5): its documents, endpoints, keys and tokens. */
export { createReferenceAgent, type ReferenceAgent, type ReferenceAgentOptions } from './agent.js';
export { createStandardAgent, type StandardAgent, type StandardAgentOptions } from './standard-agent.js';
export { createMemoryKeyStore, generateAgentKeys } from './keys.js';
