/**
 * `agent-platform-conformance/verifier`: the reference verifier of signed requests (Web Bot Auth over RFC 9421, 5.2-5.3)
 * and platform bearers, its ports with in-memory adapters, and the order of its checks.
 */
export { verifyRequest, isSignedRequest } from './verify-request.js';
export type { VerifierRequest, VerifierConfig, PlatformTokenConfig, Verdict, Refusal, SignatureAcceptance, BearerAcceptance } from './types.js';
export { SIGNED_REQUEST_CHECKS, type Check } from './order.js';
export { acceptSignatureValue, bearerChallenge } from './refusal.js';
export { judgeKeySet, type KeySetJudgement } from './key-set.js';
export { judgeCard, type CardJudgement } from './card.js';
export { identityFromMember, type AgentIdentity, type AgentUrlType, type IdentityResult } from './signature-agent.js';
// The ports, and their in-memory adapters.
export type {
  Awaitable,
  Clock,
  DocumentFetcher,
  FetchOutcome,
  FetchFailureReason,
  NonceStore,
  FailureCounter,
  KeySetCache,
  KeySetCacheEntry,
  PublishedKey,
  Ed25519PublicJwk,
  Ed25519Verifier,
  CardRefusalMemory,
  CardRefusal,
  RegistrationStore,
  Registration,
  RevocationList,
  VerifierPorts,
} from './ports.js';
export { MemoryNonceStore, MemoryFailureCounter, MemoryKeySetCache, MemoryCardRefusals, MemoryRegistrations, MemoryRevocations } from './memory-stores.js';
export { createMemoryPorts, type MemoryPorts } from './memory-ports.js';
