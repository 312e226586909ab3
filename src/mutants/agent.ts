import { PLATFORM_ERROR_CODES, type Route } from '../reference/routes.js';
import { OWNER_SOCKET_PROBE, PROBES, PROBE_SMALL_CAP, SOCKET_PROBE } from '../contract/probes.js';
import { AGENT_TOKEN_ROUTE, AGENT_TRANSPORT_ROUTES, CLIENT_CREDENTIALS_GRANT, SOCKET_TOKEN_PARAM, TOKEN_FORM_FIELDS } from '../spec/agent-endpoints.js';
import { bodyCapAnswer } from '../access/endpoint-answers.js';
import { sseHeaders } from '../access/endpoint-sse.js';
import { holdAnswerToCap } from '../access/endpoint-answer-cap.js';
import { conformanceEndpoints, conformanceSockets } from '../reference/agent/conformance-endpoints.js';
import type { AgentHttpEndpoint } from '../reference/agent/endpoint-context.js';
import { createMemoryKeyStore } from '../reference/agent/keys.js';
import type { StandardAgentOptions } from '../reference/agent/standard-agent.js';
import { renderAnswer } from '../reference/render.js';
import { PORTAL_ROUTES, SDK_AUTH_REQUIREMENTS as SDK, SDK_SCOPES, SDK_TOKEN_TYPE } from '../spec/sdk-auth.js';
import { signingKeyFromJwk } from '../sdk-auth/index.js';
import { generateEd25519Jwk } from '../httpsig/index.js';
import { ENDPOINT_ERRORS as E } from '../spec/endpoint-errors.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { REQUIREMENTS as R } from '../spec/requirements.js';
import { WELL_KNOWN } from '../spec/wire.js';
import { jsonAnswer, jsonOf, pathOf, rewrite, setJson, setText, textOf, type OpenAnswer } from './answer.js';
import type { FaultRequest, Mutant } from './types.js';

/** Sections 7.2, 4.1-4.3 and the agent's documents of 2.4: faults of the reference agent. */

const at = (path: string) => (_a: OpenAnswer, r: FaultRequest) => pathOf(r).endsWith(path);
const status = (code: number) => (a: OpenAnswer) => a.status === code;
const both =
  (...tests: Array<(a: OpenAnswer, r: FaultRequest) => boolean>) =>
  (a: OpenAnswer, r: FaultRequest) =>
    tests.every((t) => t(a, r));
const errorCode = (a: OpenAnswer) => (jsonOf(a)?.error as { code?: unknown } | undefined)?.code;

function renameError(a: OpenAnswer, code: string): void {
  const body = jsonOf(a)!;
  setJson(a, { ...body, error: { ...(body.error as object), code } });
}

const refusalOf = (code: string | null) => (a: OpenAnswer) => errorCode(a) === code;

const rows: Mutant[] = [
  {
    id: 'endpoint-401-renamed',
    description: `a scoped endpoint without a verified caller names ${E.forbidden.code} instead of ${E.unauthorized.code}`,
    requirements: [E.unauthorized.id],
    agent: { answer: rewrite(refusalOf(E.unauthorized.code), (a) => renameError(a, E.forbidden.code!)) },
  },
  {
    id: 'endpoint-401-as-403',
    description: 'a scoped endpoint without a verified caller answers 403',
    requirements: [E.unauthorized.id],
    agent: { answer: rewrite(refusalOf(E.unauthorized.code), (a) => void (a.status = 403)) },
  },
  {
    id: 'endpoint-401-without-bearer-challenge',
    description: 'a 401 of a declared endpoint carries no WWW-Authenticate',
    requirements: [E.unauthorized.id],
    agent: { answer: rewrite(status(401), (a) => a.headers.delete(HEADERS.wwwAuthenticate)) },
  },
  {
    id: 'endpoint-401-error-not-object',
    description: 'the 401 body is { "error": "<code>" } instead of the 2.6 error object',
    requirements: [E.unauthorized.id],
    agent: { answer: rewrite(refusalOf(E.unauthorized.code), (a) => setJson(a, { error: E.unauthorized.code })) },
  },
  {
    id: 'endpoint-403-renamed',
    description: `a caller outside the scope is refused with ${E.unauthorized.code}`,
    requirements: [E.forbidden.id],
    agent: { answer: rewrite(refusalOf(E.forbidden.code), (a) => renameError(a, E.unauthorized.code!)) },
  },
  {
    id: 'endpoint-403-as-401',
    description: 'a caller outside the scope is answered 401',
    requirements: [E.forbidden.id],
    agent: {
      answer: rewrite(
        both(status(403), (a) => errorCode(a) === E.forbidden.code),
        (a) => void (a.status = 401),
      ),
    },
  },
  {
    id: 'endpoint-401-message-empty',
    description: 'the 401 unauthorized of a scoped endpoint carries an empty error.message',
    requirements: [E.unauthorized.id],
    agent: { options: (o) => ({ ...o, unauthorizedMessage: '' }) },
  },
  {
    id: 'endpoint-owner-counts-as-admin',
    description: 'the owner is admitted to admin endpoints',
    requirements: [E.forbidden.id],
    agent: {
      options: (o) => ({
        ...o,
        ...(o.access ? { access: { ...o.access, admins: [...(o.access.admins ?? []), ...(o.access.owner ? [o.access.owner] : [])] } } : {}),
      }),
    },
  },
  {
    id: 'endpoint-group-members-refused',
    description: 'members of an access group are refused',
    requirements: [E.forbidden.id],
    agent: { options: (o) => ({ ...o, ...(o.access ? { access: { ...o.access, groups: {} } } : {}) }) },
  },
  {
    id: 'endpoint-bad-signature-admitted',
    description: 'a signed request whose signature does not verify reaches the handler',
    requirements: [E.signatureFailure.id],
    agent: {
      answer: rewrite(
        (a, r) => a.status === 401 && r.headers.has(HEADERS.signatureInput),
        (a) => jsonAnswer(a, 200, { caller: null }),
      ),
    },
  },
  {
    id: 'endpoint-access-block-ignored',
    description: "the access block's deny list is ignored",
    requirements: [E.accessBlock.id],
    agent: { options: (o) => ({ ...o, ...(o.access ? { access: { ...o.access, deny: [] } } : {}) }) },
  },
  {
    id: 'endpoint-405-as-404',
    description: 'a method the path is not declared for answers 404',
    requirements: [E.methodNotAllowed.id],
    agent: { answer: rewrite(status(E.methodNotAllowed.status!), (a) => void (a.status = 404)) },
  },
  {
    id: 'endpoint-415-as-400',
    description: 'a body of an unaccepted media type answers 400',
    requirements: [E.unsupportedMediaType.id],
    agent: { answer: rewrite(status(E.unsupportedMediaType.status!), (a) => void (a.status = 400)) },
  },
  {
    id: 'endpoint-413-without-connection-close',
    description: 'a 413 leaves the connection open (no Connection: close)',
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    agent: { answer: rewrite(status(413), (a) => a.headers.delete(HEADERS.connection)) },
  },
  {
    id: 'endpoint-413-renamed',
    description: `a body over the cap names BODY_TOO_LARGE instead of ${E.requestBodyCapExceeded.code}`,
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    agent: { answer: rewrite(status(413), (a) => renameError(a, 'BODY_TOO_LARGE')) },
  },
  {
    id: 'endpoint-413-as-400',
    description: 'a body over the cap answers 400',
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    agent: { answer: rewrite(status(413), (a) => void (a.status = 400)) },
  },
  {
    id: 'endpoint-413-without-detail',
    description: 'the 413 error carries no detail',
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    agent: {
      answer: rewrite(status(413), (a) => {
        const { detail: _dropped, ...error } = jsonOf(a)!.error as Record<string, unknown>;
        setJson(a, { error });
      }),
    },
  },
];

/** Declares the probes with one probe's declaration (and handler) changed: a fault where the agent is built. */
const redeclared =
  (path: string, change: (endpoint: AgentHttpEndpoint) => AgentHttpEndpoint) =>
  (o: StandardAgentOptions): StandardAgentOptions => ({
    ...o,
    endpoints: (o.endpoints ?? conformanceEndpoints()).map((e) => (e.path === path ? change(e) : e)),
  });

/** Deep faults of 7.2: where the agent decides a signature, a socket's scope, the body cap. */
const deepRows: Mutant[] = [
  {
    id: 'agent-signatures-unchecked',
    description: 'the agent runs no Web Bot Auth verifier: a signature that does not verify gets the plain 401 unauthorized of a caller it cannot verify',
    requirements: [E.signatureFailure.id],
    agent: { options: (o) => ({ ...o, signatures: false }) },
  },
  {
    id: 'socket-owner-scope-as-user',
    description: 'a socket scoped owner admits any verified caller',
    requirements: [E.forbidden.id, R.endpointSocketScope.id],
    agent: {
      options: (o) => ({
        ...o,
        sockets: (o.sockets ?? conformanceSockets()).map((s) => (s.path === OWNER_SOCKET_PROBE.path ? { ...s, scopes: 'user' } : s)),
      }),
    },
  },
  {
    id: 'endpoint-cap-checked-by-handler',
    description: 'a capped endpoint calls its handler with the whole body, and the handler answers the 413 itself',
    requirements: [E.requestBodyCapExceeded.id, LIMITS.declaredEndpointBody.id],
    agent: {
      options: redeclared(PROBES.small.path, ({ maxBodyBytes: _cap, ...e }) => ({
        ...e,
        handler: async (ctx) => {
          const answered = await e.handler(ctx);
          return ctx.body.byteLength > PROBE_SMALL_CAP ? renderAnswer(bodyCapAnswer(PROBE_SMALL_CAP)) : answered;
        },
      })),
    },
  },
  {
    id: 'agent-answer-cap-misnamed',
    description: 'an answer past the 50 MiB answer cap is refused, but as 500 internal: RESPONSE_SIZE_CAP_EXCEEDED is never said',
    requirements: [E.responseSizeCapExceeded.id],
    agent: {
      options: (o) => ({
        ...o,
        oversizedAnswer: async (response, cap) => {
          const held = await holdAnswerToCap(response, cap);
          return 'fits' in held ? held.fits : Response.json({ error: { code: 'internal', message: 'The agent failed.' } }, { status: 500 });
        },
      }),
    },
  },
  {
    id: 'agent-answer-cap-truncates',
    description: 'an answer past the 50 MiB answer cap is cut to 50 MiB and delivered 200, saying nothing',
    requirements: [E.responseSizeCapExceeded.id],
    agent: {
      options: (o) => ({
        ...o,
        oversizedAnswer: (response, cap) => {
          const length = Number(response.headers.get(HEADERS.contentLength) ?? Number.NaN);
          if (!(length > cap) || response.body === null) return response;
          let sent = 0;
          const cut = new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              const room = cap - sent;
              if (room <= 0) return controller.terminate();
              sent += Math.min(room, chunk.byteLength);
              controller.enqueue(chunk.byteLength <= room ? chunk : chunk.subarray(0, room));
            },
          });
          const headers = new Headers(response.headers);
          headers.set(HEADERS.contentLength, String(cap));
          return new Response(response.body.pipeThrough(cut), { status: 200, headers });
        },
      }),
    },
  },
  {
    id: 'endpoint-ceiling-off-by-one',
    description: 'the platform ceiling is enforced one byte short: a body of exactly 50 MiB is refused 413',
    requirements: [LIMITS.declaredEndpointBody.id, E.requestBodyCapExceeded.id],
    agent: { options: redeclared(PROBES.echo.path, (e) => ({ ...e, maxBodyBytes: LIMITS.declaredEndpointBody.value - 1 })) },
  },
];

const isSse = (a: OpenAnswer) => (a.headers.get(HEADERS.contentType) ?? '').startsWith(MEDIA_TYPES.eventStream);
const SSE_REQUIREMENTS = [R.endpointSseFraming.id];

const streams: Mutant[] = [
  {
    id: 'sse-without-cache-control',
    description: 'an SSE response carries no Cache-Control: no-cache',
    requirements: SSE_REQUIREMENTS,
    agent: { answer: rewrite(isSse, (a) => a.headers.delete(HEADERS.cacheControl)) },
  },
  {
    id: 'sse-without-keep-alive',
    description: 'an SSE response carries no Connection: keep-alive',
    requirements: SSE_REQUIREMENTS,
    agent: { answer: rewrite(isSse, (a) => a.headers.delete(HEADERS.connection)) },
  },
  {
    id: 'sse-as-json',
    description: 'an SSE response is labelled application/json',
    requirements: SSE_REQUIREMENTS,
    agent: { answer: rewrite(isSse, (a) => a.headers.set(HEADERS.contentType, MEDIA_TYPES.json)) },
  },
  {
    id: 'sse-frames-run-together',
    description: 'SSE frames are not separated by a blank line',
    requirements: SSE_REQUIREMENTS,
    agent: { answer: rewrite(isSse, (a) => setText(a, textOf(a).replace(/\n\n/g, '\n'))) },
  },
];

const STREAM_TEXT = (lineEnd: string) => `${[{ n: 1 }, { n: 2 }].map((v) => `data: ${JSON.stringify(v)}`).join(lineEnd)}${lineEnd}`;

/** Handlers that write their own event stream (4.1: in TypeScript the handler sets the headers), wrongly. */
const deepStreams: Mutant[] = [
  {
    id: 'sse-handler-frames-without-blank-lines',
    description: 'the stream handler writes its own text/event-stream with one line per frame and no blank line between them',
    requirements: SSE_REQUIREMENTS,
    agent: { options: redeclared(PROBES.stream.path, (e) => ({ ...e, handler: () => new Response(STREAM_TEXT('\n'), { headers: sseHeaders() }) })) },
  },
  {
    id: 'sse-handler-without-headers',
    description: 'the stream handler answers text/event-stream without Cache-Control and Connection',
    requirements: SSE_REQUIREMENTS,
    agent: {
      options: redeclared(PROBES.stream.path, (e) => ({
        ...e,
        handler: () => new Response(`${STREAM_TEXT('\n\n')}\n`, { headers: { [HEADERS.contentType]: MEDIA_TYPES.eventStream } }),
      })),
    },
  },
];

const socketPath = (r: FaultRequest) => pathOf(r).endsWith(SOCKET_PROBE.path);

const sockets: Mutant[] = [
  {
    id: 'socket-opens-without-credential',
    description: 'a scoped socket completes the handshake without checking its scope',
    requirements: [R.endpointSocketScope.id, E.unauthorized.id],
    agent: { upgrade: (r, decided) => (socketPath(r) ? { opened: true } : decided) },
  },
  {
    id: 'socket-refusal-not-json',
    description: 'a refused upgrade answers a bare 403 without the JSON body',
    requirements: [R.endpointSocketScope.id, E.unauthorized.id],
    agent: { upgrade: (_r, decided) => (decided.opened ? decided : { opened: false, response: new Response(null, { status: 403 }) }) },
  },
  {
    id: 'socket-ignores-token-parameter',
    description: 'a scoped socket does not read its credential from ?token=',
    requirements: [R.endpointSocketTokenParam.id],
    agent: {
      upgrade: (r, decided) =>
        socketPath(r) && new URL(r.url).searchParams.has(SOCKET_TOKEN_PARAM) && !r.headers.has(HEADERS.authorization)
          ? { opened: false, response: Response.json({ error: { code: E.unauthorized.code, message: 'No credential.' } }, { status: 401 }) }
          : decided,
    },
  },
  {
    id: 'socket-ignores-bearer-header',
    description: 'a scoped socket does not take Authorization: Bearer',
    requirements: [R.endpointSocketScope.id],
    agent: {
      upgrade: (r, decided) =>
        socketPath(r) && r.headers.has(HEADERS.authorization)
          ? { opened: false, response: Response.json({ error: { code: E.unauthorized.code, message: 'No credential.' } }, { status: 401 }) }
          : decided,
    },
  },
];

const ITEM_PREFIX = PROBES.item.path.slice(0, PROBES.item.path.indexOf(':'));

const documents: Mutant[] = [
  {
    id: 'endpoint-query-dropped',
    description: 'query strings do not reach the handler of a declared path',
    requirements: [R.endpointPathParameters.id],
    agent: {
      answer: rewrite(
        (a, r) => pathOf(r).includes(ITEM_PREFIX) && a.status === 200,
        (a) => setJson(a, { ...jsonOf(a), query: {} }),
      ),
    },
  },
  {
    id: 'endpoint-path-parameter-undecoded',
    description: 'a path parameter reaches the handler still percent-encoded',
    requirements: [R.endpointPathParameters.id],
    agent: {
      answer: rewrite(
        (a, r) => pathOf(r).includes(ITEM_PREFIX) && a.status === 200,
        (a, r) => setJson(a, { ...jsonOf(a), params: { id: `${pathOf(r).slice(pathOf(r).lastIndexOf('/') + 1)}%` } }),
      ),
    },
  },
  {
    id: 'endpoint-query-not-passed',
    description: 'the handler of a declared path is called without the query string the request carried',
    requirements: [R.endpointPathParameters.id],
    agent: { options: redeclared(PROBES.item.path, (e) => ({ ...e, handler: (ctx) => e.handler({ ...ctx, query: new URLSearchParams() }) })) },
  },
  {
    id: 'endpoint-path-parameter-raw',
    description: 'the handler of a declared path receives its :<param> as the path spells it, percent-encoded',
    requirements: [R.endpointPathParameters.id],
    agent: {
      options: redeclared(PROBES.item.path, (e) => ({
        ...e,
        handler: (ctx) => e.handler({ ...ctx, params: { ...ctx.params, id: ctx.url.pathname.slice(ctx.url.pathname.lastIndexOf('/') + 1) } }),
      })),
    },
  },
  {
    id: 'agent-card-client-id-wrong',
    description: 'the agent card names another client_id',
    requirements: [R.agentCardSelfNaming.id],
    agent: { answer: rewrite(at(WELL_KNOWN.agentCard), (a) => setJson(a, { ...jsonOf(a), client_id: 'https://elsewhere.example/.well-known/agent.json' })) },
  },
  {
    id: 'agent-card-url-trailing-slash',
    description: 'the agent card names its url with a trailing slash',
    requirements: [R.agentCardSelfNaming.id],
    agent: { answer: rewrite(at(WELL_KNOWN.agentCard), (a) => setJson(a, { ...jsonOf(a), url: `${String(jsonOf(a)?.url)}/` })) },
  },
  {
    id: 'agent-card-carries-key',
    description: 'the agent card carries an Ed25519 key in a jwk member (2.4: it carries no key)',
    requirements: [R.agentCardSelfNaming.id],
    agent: {
      answer: rewrite(at(WELL_KNOWN.agentCard), (a) =>
        setJson(a, { ...jsonOf(a), jwk: { kty: 'OKP', crv: 'Ed25519', x: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8', use: 'sig' } }),
      ),
    },
  },
  {
    id: 'agent-card-redirects',
    description: 'the agent card is answered with a redirect',
    requirements: [R.agentDocumentsFetchable.id],
    agent: {
      answer: rewrite(at(WELL_KNOWN.agentCard), (a, r) => {
        jsonAnswer(a, 302, {});
        a.headers.set(HEADERS.location, `${r.url}?moved`);
      }),
    },
  },
  {
    id: 'agent-key-set-use-enc',
    description: 'the key set marks its keys use enc',
    requirements: [R.agentKeySetRules.id],
    agent: { answer: rewrite(at(WELL_KNOWN.jwks), (a) => setJson(a, { keys: ((jsonOf(a)?.keys as object[]) ?? []).map((k) => ({ ...k, use: 'enc' })) })) },
  },
  {
    id: 'agent-key-set-17-keys',
    description: 'the key set lists 17 keys',
    requirements: [R.agentKeySetRules.id, LIMITS.keysPerKeySet.id],
    agent: {
      answer: rewrite(at(WELL_KNOWN.jwks), (a) => {
        const keys = (jsonOf(a)?.keys as Array<Record<string, unknown>>) ?? [];
        setJson(a, { keys: Array.from({ length: LIMITS.keysPerKeySet.value + 1 }, (_, i) => ({ ...keys[0], kid: `k${i}` })) });
      }),
    },
  },
  {
    id: 'agent-key-set-too-large',
    description: 'the key set is padded past 64 KiB',
    requirements: [R.agentDocumentsFetchable.id],
    agent: { answer: rewrite(at(WELL_KNOWN.jwks), (a) => setJson(a, { ...jsonOf(a), padding: 'x'.repeat(LIMITS.documentSize.value) })) },
  },
  {
    id: 'agent-openid-jwks-uri-wrong',
    description: 'the OpenID configuration names another jwks_uri',
    requirements: [R.agentDiscoveryDocuments.id],
    agent: { answer: rewrite(at(WELL_KNOWN.openidConfiguration), (a) => setJson(a, { ...jsonOf(a), jwks_uri: 'https://elsewhere.example/jwks.json' })) },
  },
  {
    id: 'agent-key-directory-plain-json',
    description: "the agent origin's key directory is labelled application/json",
    requirements: [R.keyDirectoryMediaType.id],
    agent: { answer: rewrite(at(WELL_KNOWN.keyDirectory), (a) => a.headers.set(HEADERS.contentType, MEDIA_TYPES.json)) },
  },
  {
    id: 'agent-key-directory-empty',
    description: "the agent origin's key directory lists no key",
    requirements: [R.keyDirectoryEntries.id],
    agent: { answer: rewrite(at(WELL_KNOWN.keyDirectory), (a) => setJson(a, { keys: [] })) },
  },
  {
    id: 'agent-token-endpoint-refuses-form',
    description: 'POST /auth/token answers 415 to its form',
    requirements: [R.agentTokenEndpointForm.id],
    agent: { answer: rewrite(at(AGENT_TOKEN_ROUTE), (a) => void (a.status = 415)) },
  },
  {
    id: 'agent-token-endpoint-serves-anyone',
    description: 'POST /auth/token answers 200 to an unknown client',
    requirements: [R.agentTokenEndpointForm.id],
    agent: { answer: rewrite(at(AGENT_TOKEN_ROUTE), (a) => jsonAnswer(a, 200, { access_token: 'x', token_type: 'Bearer' })) },
  },
  {
    id: 'agent-token-endpoint-405',
    description: 'the agent serves no token endpoint and declares GET /auth/token: every POST to it answers 405',
    requirements: [R.agentTokenEndpointForm.id],
    agent: {
      options: (o) => ({
        ...o,
        tokenEndpoint: false,
        endpoints: [...(o.endpoints ?? conformanceEndpoints()), { path: AGENT_TOKEN_ROUTE, method: 'GET', handler: () => ({}) }],
      }),
    },
  },
  {
    id: 'agent-token-endpoint-knows-no-client',
    description: 'the token endpoint forgets its clients: a client the agent issues tokens to is refused invalid_client',
    requirements: [R.agentTokenEndpointForm.id],
    agent: { options: (o) => ({ ...o, clients: {} }) },
  },
  {
    id: 'agent-token-endpoint-targets-nobody',
    description: 'the token endpoint resolves no @name: every good grant is refused invalid_target',
    requirements: [R.agentTokenEndpointForm.id],
    agent: { options: (o) => ({ ...o, resolveTarget: () => null }) },
  },
  {
    id: 'agent-issued-token-aud-self',
    description: 'POST /auth/token issues tokens whose aud is the issuing agent itself, whatever target names',
    requirements: [SDK.issuedTokenClaims.id],
    agent: { options: (o) => ({ ...o, mintFault: ({ request, skill }) => ({ ...request, audience: skill.agentUrl }) }) },
  },
  {
    id: 'agent-issued-token-scope-widened',
    description: 'POST /auth/token grants admin beside the scopes asked',
    requirements: [SDK.issuedTokenClaims.id],
    agent: { options: (o) => ({ ...o, mintFault: ({ request }) => ({ ...request, scopes: [...request.scopes, SDK_SCOPES.admin] }) }) },
  },
  {
    id: 'agent-issued-token-unpublished-key',
    description: 'POST /auth/token signs with an Ed25519 key the agent does not publish',
    requirements: [SDK.issuedTokenClaims.id],
    agent: {
      options: (o) => ({
        ...o,
        mintFault: async ({ request }) => ({ ...request, key: await signingKeyFromJwk({ ...generateEd25519Jwk().privateJwk }) }),
      }),
    },
  },
  {
    id: 'agent-issued-token-lifetime-hour',
    description: 'POST /auth/token issues tokens living an hour, whatever token_ttl says',
    requirements: [SDK.issuedTokenLifetime.id],
    agent: { options: (o) => ({ ...o, mintFault: ({ request }) => ({ ...request, lifetime: 3600 }) }) },
  },
  {
    id: 'agent-key-directory-identity-made-up',
    description: 'a server configured without a signing identity makes one up and serves a key directory',
    requirements: [R.agentKeyDirectoryWithoutIdentity.id],
    agent: { options: (o) => (o.keyStore === null ? { ...o, keyStore: createMemoryKeyStore() } : o) },
  },
  {
    id: 'agent-a2a-method-not-found',
    description: 'POST /a2a answers every A2A method with JSON-RPC -32601 (method not found)',
    requirements: [R.agentA2aEndpoint.id],
    agent: { options: (o) => ({ ...o, a2aMethods: [] }) },
  },
  {
    id: 'agent-models-missing',
    description: 'GET /v1/models answers 404',
    requirements: [R.agentTransportEndpoints.id],
    agent: {
      answer: rewrite(at(AGENT_TRANSPORT_ROUTES.models), (a) => jsonAnswer(a, 404, { error: { code: PLATFORM_ERROR_CODES.notFound, message: 'No route.' } })),
    },
  },
  {
    id: 'agent-chat-completions-not-streamed',
    description: 'POST /v1/chat/completions with stream: true answers JSON instead of SSE',
    requirements: [R.agentTransportEndpoints.id],
    agent: { answer: rewrite(at(AGENT_TRANSPORT_ROUTES.chatCompletions), (a) => jsonAnswer(a, 200, { choices: [] })) },
  },
];

/** A route of the platform answering a token request or a key set (4.3: the platform serves neither). */
function platformRoute(path: string, method: string, answer: () => Response): Route {
  return { name: `mutant ${method} ${path}`, path, access: 'public', methods: { [method]: answer } };
}

/** 4.3: the platform serving an agent token endpoint, or a Portal authority's routes. */
const platformRoutes: Mutant[] = [
  {
    id: 'platform-serves-authority-key-set',
    description: "the platform serves a Portal authority's key set at /api/auth/jwks",
    requirements: [R.platformNoTokenEndpoint.id],
    platform: { routes: [platformRoute(PORTAL_ROUTES.jwks, 'GET', () => Response.json({ keys: [] }))] },
  },
  {
    id: 'platform-serves-token-endpoints',
    description: 'the platform mints tokens at /auth/token and /api/auth/token for any client_credentials form',
    requirements: [R.platformNoTokenEndpoint.id],
    platform: {
      routes: [AGENT_TOKEN_ROUTE, PORTAL_ROUTES.token].map((path) =>
        platformRoute(path, 'POST', () =>
          Response.json({ access_token: 'platform-minted', token_type: SDK_TOKEN_TYPE, [TOKEN_FORM_FIELDS.grantType]: CLIENT_CREDENTIALS_GRANT }),
        ),
      ),
    },
  },
];

export const AGENT_MUTANTS: readonly Mutant[] = [...rows, ...deepRows, ...streams, ...deepStreams, ...sockets, ...documents, ...platformRoutes];
