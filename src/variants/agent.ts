import { jsonAnswer, jsonOf, rewrite, setJson } from '../mutants/answer.js';
import { A2A, AGENT_TOKEN_ROUTE } from '../spec/agent-endpoints.js';
import { ENDPOINT_ERROR_LIST, ENDPOINT_ERRORS as E } from '../spec/endpoint-errors.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS as R } from '../spec/requirements.js';
import { SDK_AUTH_REQUIREMENTS as S, SDK_JWT_ALGORITHMS } from '../spec/sdk-auth.js';
import type { Variant } from './types.js';
import type { UpgradeAnswer } from '../mutants/types.js';

/** Sections 4.1-4.3, 5.4, 5.5 and 7.2: the reference agent making another choice the spec allows. */

/** Every check of the agent's declared endpoints and their refusals (7.2, 5.4) runs against a variant of their bodies. */
const ENDPOINT_REFUSALS = [...ENDPOINT_ERROR_LIST.map((r) => r.id), S.scopeTable.id, S.authModes.id, S.noVerifier.id, R.endpointSocketScope.id];
const STREAMS = [R.endpointSseFraming.id, R.agentTransportEndpoints.id];
const SDK_TOKENS = [S.tokenLifetime.id, LIMITS.sdkTokenLifetime.id, S.tokenClaims.id, S.tokenSignature.id, S.tokenAudience.id, LIMITS.sdkKeySetCache.id];
/** Every check that presents a caller's token: 5.5's, and those of 5.4 and 7.2 (4.1's sockets) whose callers carry one. */
const TOKEN_CALLERS = [
  ...SDK_TOKENS,
  S.allowDeny.id,
  S.trustedIssuers.id,
  S.allowedScopes.id,
  S.portalMode.id,
  S.scopeTable.id,
  S.authModes.id,
  E.unauthorized.id,
  E.forbidden.id,
  E.accessBlock.id,
  R.endpointSocketScope.id,
  R.endpointSocketTokenParam.id,
];

/** A refusal body with a member beyond those 2.6 and 7.3 name, at the top and inside the error object. */
function withExtraMembers(body: Record<string, unknown>): Record<string, unknown> {
  const error = body.error;
  const inner = error !== null && typeof error === 'object' && !Array.isArray(error) ? { error: { ...error, help: 'https://agents.example/docs/errors' } } : {};
  return { ...body, ...inner, request_id: 'req_0123456789' };
}

/** The socket checks of 4.1 and 7.2: a socket's scope, its ?token=, and the 7.2 answers of a refused upgrade. */
const SOCKETS = [R.endpointSocketScope.id, R.endpointSocketTokenParam.id, E.unauthorized.id, E.forbidden.id];

/** An upgrade at a path no socket is declared at answered a bare 403, as ASGI servers (Starlette) answer it, not 404. */
const undeclaredUpgradeAs403 = (_r: unknown, decided: UpgradeAnswer): UpgradeAnswer =>
  !decided.opened && decided.response.status === 404 ? { opened: false, response: new Response(null, { status: 403 }) } : decided;

/**
 * POST /auth/token answering shapes of its own (4.3: "Response body: not shown"): a grant 201 with the token under
 * data.jwt, a refusal 422 (403 for the client) with the 2.6 error object.
 */
const tokenEndpointOwnShape = rewrite(
  (_a, r) => new URL(r.url).pathname.endsWith(AGENT_TOKEN_ROUTE),
  (a) => {
    const body = jsonOf(a) ?? {};
    if (a.status === 200) return void jsonAnswer(a, 201, { data: { jwt: body.access_token, lifetime: body.expires_in } });
    jsonAnswer(a, body.error === 'invalid_client' ? 403 : 422, { error: { code: String(body.error), message: String(body.error_description) } });
  },
);

export const AGENT_VARIANTS: readonly Variant[] = [
  {
    id: 'token-endpoint-own-shape',
    description: 'answers POST /auth/token in shapes of its own: a grant 201 { data: { jwt } }, a refusal 403 or 422 { error: { code, message } }',
    readings: ['tokenEndpointAnswers'],
    requirements: [R.agentTokenEndpointForm.id, S.issuedTokenClaims.id, S.issuedTokenLifetime.id],
    agent: { answer: tokenEndpointOwnShape },
  },
  {
    id: 'socket-undeclared-403',
    description: 'answers an upgrade at a path it declares no socket at with a bare 403 (as ASGI servers do), not 404',
    readings: ['probeNotDeclared'],
    requirements: SOCKETS,
    agent: { upgrade: undeclaredUpgradeAs403 },
  },
  {
    id: 'sockets-not-declared-403',
    description: 'declares no socket at all and answers every upgrade with a bare 403',
    readings: ['probeNotDeclared'],
    requirements: SOCKETS,
    agent: { options: (o) => ({ ...o, sockets: [] }), upgrade: undeclaredUpgradeAs403 },
  },
  {
    id: 'sse-crlf-comments',
    description: 'writes server-sent events with CRLF line ends and a comment line before every frame',
    readings: ['sseFraming'],
    requirements: STREAMS,
    agent: { options: (o) => ({ ...o, sseFraming: { lineEnd: '\r\n', comment: ' keep-alive' } }) },
  },
  {
    id: 'sse-cr-no-space',
    description: 'writes server-sent events with CR line ends, an empty comment line before every frame, and no space after data:',
    readings: ['sseFraming'],
    requirements: STREAMS,
    agent: { options: (o) => ({ ...o, sseFraming: { lineEnd: '\r', comment: '', space: false } }) },
  },
  {
    id: 'sdk-token-leeway-30-seconds',
    description: 'the auth skill grants SDK tokens 30 s of clock leeway on exp and nbf',
    readings: ['sdkTokenLeeway'],
    requirements: SDK_TOKENS,
    agent: { options: (o) => ({ ...o, tokenLeewaySeconds: 30 }) },
  },
  {
    id: 'sdk-tokens-rs256-only',
    description: 'the auth skill verifies SDK tokens signed RS256 (an RSA key) only, as the TypeScript SDK does, and refuses EdDSA ones',
    readings: ['sdkTokenAlgorithm'],
    requirements: TOKEN_CALLERS,
    agent: { options: (o) => ({ ...o, tokenAlgorithms: [SDK_JWT_ALGORITHMS.rsa] }) },
  },
  {
    id: 'sdk-tokens-eddsa-only',
    description: 'the auth skill verifies SDK tokens signed EdDSA (an Ed25519 identity) only, and refuses RS256 ones',
    readings: ['sdkTokenAlgorithm'],
    requirements: TOKEN_CALLERS,
    agent: { options: (o) => ({ ...o, tokenAlgorithms: [SDK_JWT_ALGORITHMS.ed25519] }) },
  },
  {
    id: 'unauthorized-own-words',
    description: 'words its 401 message its own way: "Sign in with a key this agent trusts first."',
    readings: ['unauthorizedMessage'],
    requirements: [E.unauthorized.id],
    agent: { options: (o) => ({ ...o, unauthorizedMessage: 'Sign in with a key this agent trusts first.' }) },
  },
  {
    id: 'endpoint-errors-extra-members',
    description: 'answers every refusal of its endpoints with members beyond those the spec names (request_id, error.help)',
    readings: ['openBodies'],
    requirements: ENDPOINT_REFUSALS,
    agent: {
      answer: rewrite(
        (a) => a.status >= 400 && jsonOf(a) !== undefined,
        (a) => setJson(a, withExtraMembers(jsonOf(a)!)),
      ),
    },
  },
  {
    id: 'a2a-v1-only',
    description: 'serves A2A 1.0 alone at POST /a2a (SendMessage), answering -32601 to message/send and tasks/send',
    readings: ['a2aGeneration'],
    requirements: [R.agentA2aEndpoint.id],
    agent: { options: (o) => ({ ...o, a2aMethods: [A2A.sendMethods.v1] }) },
  },
];
