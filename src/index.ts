/**
 * agent-platform-conformance: the reference verifier, the RFC 9421 toolkit, the catalogue of the spec and the
 * conformance run. Subpaths: `agent-platform-conformance/verifier`, `/httpsig`, `/spec`, `/purchase`, `/sdk-auth`,
 * `/access`, `/widgets`.
 */
export * as spec from './spec/index.js';
export * as httpsig from './httpsig/index.js';
export * from './verifier/index.js';
export { createUndiciFetcher, createMemoryFetcher, type MemoryDocument, type UndiciFetcher } from './fetch/index.js';
export { runCase, type CaseResult, type StepResult } from './cases/run-case.js';
export type { SignedRequestCase, SignedRequestVectors } from './cases/types.js';
export { runConformance, type RunOptions, type RunOutcome, type RunReport, type CheckResult } from './harness/index.js';
export { createReferencePlatform, serveReference, type ReferencePlatform, type ReferencePlatformOptions, type ServedReference } from './reference/index.js';
export * as purchase from './purchase/index.js';
export * as sdkAuth from './sdk-auth/index.js';
export * as access from './access/index.js';
export * as widgets from './widgets/index.js';
export { checkAgent, type AgentCheckReport, type AgentProblem } from './agent-check/index.js';
export { createReferenceAgent, createStandardAgent, type ReferenceAgent } from './reference/agent/index.js';
export { createWidgetService, type WidgetService, type WidgetServiceOptions } from './reference/widgets/index.js';
