/**
 * agent-platform-conformance: the reference verifier, the RFC 9421 toolkit, the catalogue of the spec and the
 * conformance run. Subpaths: `agent-platform-conformance/verifier`, `/httpsig`, `/spec`, `/purchase`, `/sdk-auth`,
 * `/access`, `/widgets`; each is also here as a namespace, the verifier's names flat.
 *
 * The list is deliberate: tests/package/public-exports.test.ts pins it.
 */
export * as spec from './spec/index.js';
export * as httpsig from './httpsig/index.js';
export * as purchase from './purchase/index.js';
export * as sdkAuth from './sdk-auth/index.js';
export * as access from './access/index.js';
export * as widgets from './widgets/index.js';

// The reference verifier (also `agent-platform-conformance/verifier`).
export {
  verifyRequest,
  SIGNED_REQUEST_CHECKS,
  judgeKeySet,
  judgeCard,
  acceptSignatureValue,
  bearerChallenge,
  createMemoryPorts,
  MemoryNonceStore,
  MemoryFailureCounter,
  MemoryKeySetCache,
  MemoryCardRefusals,
  MemoryRegistrations,
  MemoryRevocations,
  type VerifierRequest,
  type VerifierConfig,
  type PlatformTokenConfig,
  type Verdict,
  type Refusal,
  type SignatureAcceptance,
  type BearerAcceptance,
  type Check,
  type KeySetJudgement,
  type CardJudgement,
  type VerifierPorts,
  type MemoryPorts,
  type Clock,
  type DocumentFetcher,
  type FetchOutcome,
  type FetchFailureReason,
  type NonceStore,
  type FailureCounter,
  type KeySetCache,
  type KeySetCacheEntry,
  type PublishedKey,
  type Ed25519PublicJwk,
  type CardRefusalMemory,
  type CardRefusal,
  type RegistrationStore,
  type Registration,
  type RevocationList,
} from './verifier/index.js';

// Document fetchers: the fetch rules of 5.2 on the wire, and documents held in memory.
export {
  createUndiciFetcher,
  createMemoryFetcher,
  type UndiciFetcher,
  type UndiciFetcherOptions,
  type MemoryFetcher,
  type MemoryFetcherOptions,
  type MemoryDocument,
} from './fetch/index.js';

// Signed-request cases (vectors/) and the conformance run.
export { runCase, type CaseResult, type StepResult } from './cases/run-case.js';
export type { SignedRequestCase, SignedRequestVectors } from './cases/types.js';
export { runConformance, type RunOptions, type RunOutcome } from './harness/run.js';
export type { RunReport, CheckResult } from './harness/results.js';

// The reference platform, agent and widget service, and the agent checker.
export {
  createReferencePlatform,
  serveReference,
  type PlatformAnswer,
  type ReferencePlatform,
  type ReferencePlatformOptions,
  type RenderedAnswer,
  type ServeOptions,
  type ServedReference,
} from './reference/index.js';
export {
  createReferenceAgent,
  createStandardAgent,
  type ReferenceAgent,
  type ReferenceAgentOptions,
  type StandardAgent,
  type StandardAgentOptions,
} from './reference/agent/index.js';
export { createWidgetService, type WidgetService, type WidgetServiceOptions } from './reference/widgets/index.js';
export { checkAgent, type AgentCheckReport, type AgentProblem } from './agent-check/index.js';
