/**
 * `agent-platform-conformance/access`: who may call an agent's endpoint. `decideScope` (5.4), `decideAuthMode`, and the
 * declared-endpoint rules of 4.1 and 7.2 (`EndpointTable`, `decideContentType`, `readCappedBody`,
 * `decideEndpointAccess`, SSE framing, socket scope). The list is deliberate (tests/package/public-exports.test.ts
 * pins it).
 */
// Scopes (5.4) and auth modes.
export {
  unauthorizedVerdict,
  forbiddenVerdict,
  allowedVerdict,
  isVerified,
  isOpenDeclaration,
  entryAdmits,
  decideScope,
  accessChallenge,
  type Caller,
  type ScopeDeclaration,
  type AccessVerdict,
  type AccessRefusal,
} from './scope-rules.js';
export { AUTH_MODES, isAuthMode, decideAuthMode, type AuthMode } from './auth-modes.js';
// Declared endpoints (4.1, 7.2): answers, body, content type, declarations, access, paths, routing, sockets, SSE.
export {
  accessRefusalAnswer,
  methodNotAllowedAnswer,
  unsupportedMediaTypeAnswer,
  bodyCapAnswer,
  notFoundAnswer,
  type EndpointAnswer,
  type EndpointErrorBody,
  type BodyCapErrorBody,
} from './endpoint-answers.js';
export { decideDeclaredLength, readCappedBody, type CappedBody } from './endpoint-body.js';
export { mediaTypeEssence, decideContentType } from './endpoint-content-type.js';
export {
  DEFAULT_ACCEPTED_MEDIA_TYPES,
  bodyCapOf,
  methodTakesBody,
  type HttpEndpointDeclaration,
  type SocketEndpointDeclaration,
} from './endpoint-declaration.js';
export { decideEndpointAccess, type CallerIdentity, type AgentAccessFacts } from './endpoint-gate.js';
export { compileDeclaredPath, type PathParams, type DeclaredPathMatcher } from './endpoint-path.js';
export { EndpointTable, type EndpointSelection } from './endpoint-routing.js';
export { bearerCredential, presentsCredential, decideSocketUpgrade } from './endpoint-socket.js';
export { sseHeaders, sseFrame, SSE_DONE_FRAME, sseStream, parseSseFrames, type ParsedSseFrame } from './endpoint-sse.js';
