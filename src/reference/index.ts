export { renderAnswer, errorAnswer, readVerifierRequest, VERIFIER_BODY_LIMIT, type CoreAnswer, type ReadRequest } from './render.js';
export { readBodyUpTo, type ReadBody } from './body.js';
export {
  RouteTable,
  BodyUnreadable,
  PLATFORM_ERROR_CODES,
  type Route,
  type PublicRoute,
  type VerifiedRoute,
  type RouteContext,
  type VerifiedContext,
  type PathMatcher,
  type Acceptance,
} from './routes.js';
export {
  createPlatformTokenIssuer,
  DEFAULT_AGENT_SCOPE,
  PLATFORM_TOKEN_ALG,
  PLATFORM_TOKEN_LIFETIME_S,
  type PlatformTokenIssuer,
  type PlatformTokenIssuerOptions,
  type MintedToken,
} from './platform-token.js';
export { keyDirectoryDocument, keyDirectoryRoute, type HostedAgentKey, type HostedAgentKeys, type KeyDirectoryEntry } from './key-directory.js';
export { cliTokenRoute, type CliTokenResponse } from './cli-token.js';
export { createReferencePlatform, type ReferencePlatform, type ReferencePlatformOptions, type RequestInfo } from './platform.js';
export { serveReference, DEFAULT_SERVE_HOST, SERVE_TIMEOUTS, type ServeOptions, type ServedReference } from './serve.js';
export { normaliseClientAddress, requestUrl, toRequest, writeResponse } from './node-http.js';
