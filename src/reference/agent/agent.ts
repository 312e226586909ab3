import { reportError, type ErrorHook } from '../error-hook.js';
import type { WebSocket } from 'ws';
import { readCappedBody, decideDeclaredLength } from '../../access/endpoint-body.js';
import { answerCapAnswer, holdAnswerToCap } from '../../access/endpoint-answer-cap.js';
import { LIMITS } from '../../spec/limits.js';
import { decideContentType } from '../../access/endpoint-content-type.js';
import { bodyCapOf } from '../../access/endpoint-declaration.js';
import { decideEndpointAccess, type CallerIdentity } from '../../access/endpoint-gate.js';
import { accessRefusalAnswer, notFoundAnswer, methodNotAllowedAnswer } from '../../access/endpoint-answers.js';
import { forbiddenVerdict, isOpenDeclaration } from '../../access/scope-rules.js';
import { compileDeclaredPath } from '../../access/endpoint-path.js';
import { EndpointTable } from '../../access/endpoint-routing.js';
import { bearerCredential, decideSocketUpgrade, presentsCredential } from '../../access/endpoint-socket.js';
import { sseHeaders, sseStream, type SseFraming } from '../../access/endpoint-sse.js';
import { AGENT_TOKEN_ROUTE, AGENT_TRANSPORT_ROUTES, ENDPOINT_OWN_CODES } from '../../spec/agent-endpoints.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { WELL_KNOWN } from '../../spec/wire.js';
import { keyDirectoryDocument } from '../key-directory.js';
import { renderAnswer } from '../render.js';
import { callerOf, deniedByAccessBlock, type AccessBlock, type VerifiedToken } from './caller.js';
import { agentCard, agentDocumentUrls, agentKeySet, openidConfiguration, type AgentDocumentUrls } from './documents.js';
import { conformanceEndpoints, conformanceSockets } from './conformance-endpoints.js';
import type { AgentHttpEndpoint, AgentSocketEndpoint, EndpointAuth, EndpointContext } from './endpoint-context.js';
import { publicEd25519, type AgentKeys } from './keys.js';
import { tokenEndpointResponse, type TokenMinter } from './token-endpoint.js';
import { DEFAULT_A2A_METHODS, a2aResponse, chatCompletionsResponse, modelsResponse } from './transport.js';
import type { SignatureCheck, SignatureVerdict } from './signatures.js';
import type { EndpointAnswer } from '../../access/endpoint-answers.js';

/** Verifies an inbound Bearer SDK token (2.2, 5.1); null when it does not verify. */
export type TokenVerifier = (token: string) => Promise<VerifiedToken | null>;

export interface ReferenceAgentOptions {
  /** The agent URL (2.4), e.g. https://agents.example/agents/alice; a trailing slash is dropped. */
  readonly agentUrl: string;
  readonly name: string;
  readonly description?: string;
  /** The signing identity; null for a server without one (its key directory answers 404, 4.3). */
  readonly keys: AgentKeys | null;
  /** Publish the RSA key in jwks.json beside the Ed25519 key (2.4 allows it between SDK agents; the platform admits Ed25519 only). */
  readonly publishRsaKey?: boolean;
  /** The auth skill's verification; absent, the agent verifies no one and every scoped endpoint refuses (5.4). */
  readonly verifyToken?: TokenVerifier;
  /** 5.4: owner, admins and access groups. */
  readonly access?: AccessBlock;
  /** Declared endpoints; the conformance probes by default. */
  readonly endpoints?: readonly AgentHttpEndpoint[];
  readonly sockets?: readonly AgentSocketEndpoint[];
  /** POST /auth/token (4.3); absent, the route answers 404. */
  readonly tokenEndpoint?: {
    readonly clients: Readonly<Record<string, string>>;
    readonly resolveTarget: (name: string) => string | null;
    readonly mint: TokenMinter;
  };
  /** Serve the key directory at the origin (an agent served alone on its origin); off when a platform serves the origin. */
  readonly serveKeyDirectory?: boolean;
  /**
   * Verifies a request's Web Bot Auth signature (5.2); a signature that does not verify is then refused with the
   * verifier's own 401 (7.2). Absent, a signature is a credential the agent cannot verify (401 unauthorized).
   */
  readonly checkSignature?: SignatureCheck;
  /** How server-sent events are written (LF, no comments by default; READING-SSE-FRAMING allows others). */
  readonly sseFraming?: SseFraming;
  /** The A2A methods POST /a2a serves (4.2); message/send and SendMessage by default. */
  readonly a2aMethods?: readonly string[];
  /** Seconds. */
  readonly now?: () => number;
  /** Called with every exception the agent catches while answering (it still answers 500). */
  readonly onError?: ErrorHook;
  /** The realm of its 401 challenges when the deployment writes its own name for Service (src/spec/naming.ts). */
  readonly realm?: string;
  /** The words of its 401 unauthorized message (7.2 fixes none); the SDKs' by default. */
  readonly unauthorizedMessage?: string;
  /** How a handler's answer is held to the answer cap of 7.2 instead of the reference's way; only self-test mutants set it. */
  readonly oversizedAnswer?: (response: Response, cap: number) => Response | Promise<Response>;
}

export type AgentUpgradeDecision = { readonly accept: (socket: WebSocket) => void } | { readonly refuse: Response };

export interface ReferenceAgent {
  readonly name: string;
  readonly urls: AgentDocumentUrls;
  /** The agent's public Ed25519 key (for a platform's key directory); null without a signing identity. */
  readonly publicKey: ReturnType<typeof publicEd25519> | null;
  /** Whether a path (absolute URL's pathname) is this agent's: its base path or below, or its origin key directory. */
  owns(pathname: string): boolean;
  /** The agent as a WHATWG fetch handler. Never rejects. */
  fetch(request: Request): Promise<Response>;
  /** A WebSocket upgrade decided before the handshake (4.1): accept, or the HTTP answer of 7.2. */
  upgrade(request: Request): Promise<AgentUpgradeDecision>;
}

const json = (body: unknown, contentType: string = MEDIA_TYPES.json) => renderAnswer({ status: 200, headers: { [HEADERS.contentType]: contentType }, body });

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * The reference SDK agent (docs/architecture.md): declared HTTP endpoints with path parameters, query strings,
 * scopes and SSE; scoped sockets; the transport endpoints of 4.2 a check can observe; the discovery and token
 * endpoints of 4.3. Every declared-endpoint rule (405, 401/403, 415, 413) runs before the handler.
 */
export function createReferenceAgent(options: ReferenceAgentOptions): ReferenceAgent {
  const urls = agentDocumentUrls(options.agentUrl);
  const basePath = new URL(urls.agentUrl).pathname.replace(/\/+$/, '');
  const access = options.access ?? {};
  const agentFacts = {
    verifiesCallers: options.verifyToken !== undefined,
    ...(options.realm ? { realm: options.realm } : {}),
    ...(options.unauthorizedMessage !== undefined ? { unauthorizedMessage: options.unauthorizedMessage } : {}),
  };
  const table = new EndpointTable(options.endpoints ?? conformanceEndpoints());
  const sockets = (options.sockets ?? conformanceSockets()).map((s) => ({ socket: s, match: compileDeclaredPath(s.path) }));
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const publicKey = options.keys ? publicEd25519(options.keys) : null;

  const relative = (pathname: string): string | null => {
    if (basePath === '') return pathname;
    if (pathname === basePath) return '/';
    return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : null;
  };

  type Identity = CallerIdentity & { readonly signature: SignatureVerdict };

  async function identify(request: Request, url: URL | null): Promise<Identity> {
    const authorization = request.headers.get(HEADERS.authorization);
    // A signature is a credential too (the SDKs' credential headers): a 401 then says it did not verify.
    const presentedCredential = presentsCredential(authorization, url) || request.headers.has(HEADERS.signatureInput);
    const signature: SignatureVerdict = options.checkSignature ? await options.checkSignature(request) : { kind: 'none' };
    const signer = signature.kind === 'verified' ? callerOf({ agent_id: signature.agentUrl, user_id: null, scopes: [] }, access) : null;
    const token = bearerCredential(authorization, url);
    if (token === null || !options.verifyToken) return { caller: signer, presentedCredential, signature };
    const verified = await options.verifyToken(token).catch(() => null);
    return { caller: verified ? callerOf(verified, access) : signer, presentedCredential, signature };
  }

  /** 7.2: where the rules would answer 401 to a request whose signature did not verify, the verifier's refusal is the answer. */
  const signatureAnswer = (refused: EndpointAnswer | null, identity: Identity): EndpointAnswer | null =>
    refused?.status === 401 && identity.signature.kind === 'refused' ? identity.signature.refusal : refused;

  /** 7.2: a caller the access block keeps out is refused 403 on a scoped endpoint before its scope is read. */
  const keptOut = (endpoint: { readonly scopes?: AgentHttpEndpoint['scopes'] }, identity: CallerIdentity) =>
    !isOpenDeclaration(endpoint.scopes) && deniedByAccessBlock(identity.caller, access)
      ? accessRefusalAnswer(forbiddenVerdict(), identity.presentedCredential, options.realm)
      : null;
  const gate = (endpoint: AgentHttpEndpoint, identity: Identity) =>
    signatureAnswer(keptOut(endpoint, identity) ?? decideEndpointAccess(endpoint, identity, agentFacts), identity);

  const authOf = (identity: CallerIdentity): EndpointAuth => ({ authenticated: identity.caller?.authenticated === true, caller: identity.caller });

  async function declared(request: Request, url: URL, path: string): Promise<Response> {
    const selection = table.select(request.method, path);
    if (selection.kind === 'none') return renderAnswer(notFoundAnswer(url.pathname));
    if (selection.kind === 'refused') return renderAnswer(selection.answer);
    const { endpoint, params } = selection;
    const identity = await identify(request, null);
    const refused =
      gate(endpoint, identity) ??
      decideContentType(endpoint, request.method, request.headers.get(HEADERS.contentType), request.body !== null) ??
      decideDeclaredLength(request.headers.get(HEADERS.contentLength), bodyCapOf(endpoint));
    if (refused) return renderAnswer(refused);
    const body = await readCappedBody(request.body, bodyCapOf(endpoint));
    if (!body.ok) return renderAnswer(body.answer);
    const ctx: EndpointContext = { request, url, params, query: url.searchParams, body: body.bytes, auth: authOf(identity) };
    return heldToCap(answerOf(await endpoint.handler(ctx)));
  }

  function answerOf(result: unknown): Response {
    if (result instanceof Response) return result;
    if (isAsyncIterable(result))
      return new Response(sseStream(result, { done: true, ...(options.sseFraming ? { framing: options.sseFraming } : {}) }), {
        status: 200,
        headers: sseHeaders(),
      });
    return json(result ?? null);
  }

  /** 7.2: an answer past the cap (the mirror of the request cap, 50 MiB) is not delivered: RESPONSE_SIZE_CAP_EXCEEDED instead. */
  async function heldToCap(response: Response): Promise<Response> {
    const cap = LIMITS.declaredEndpointBody.value;
    if (options.oversizedAnswer) return options.oversizedAnswer(response, cap);
    const held = await holdAnswerToCap(response, cap);
    return 'fits' in held ? held.fits : renderAnswer(answerCapAnswer(cap));
  }

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === WELL_KNOWN.keyDirectory && options.serveKeyDirectory && basePath !== '') return keyDirectory(request);
    const path = relative(url.pathname);
    if (path === null) return renderAnswer(notFoundAnswer(url.pathname));
    const get = (answer: () => Response | Promise<Response>) =>
      request.method === 'GET' || request.method === 'HEAD' ? answer() : renderAnswer(methodNotAllowedAnswer(url.pathname, request.method, ['GET', 'HEAD']));
    const post = (answer: () => Response | Promise<Response>) =>
      request.method === 'POST' ? answer() : renderAnswer(methodNotAllowedAnswer(url.pathname, request.method, ['POST']));
    switch (path) {
      case WELL_KNOWN.keyDirectory:
        if (options.serveKeyDirectory) return keyDirectory(request);
        break;
      case WELL_KNOWN.agentCard:
        return get(() => json(agentCard(urls, options.name, options.description ?? `Reference agent ${options.name}`)));
      case WELL_KNOWN.jwks:
        return get(() => (options.keys ? json(agentKeySet(options.keys, { includeRsa: options.publishRsaKey === true })) : json({ keys: [] })));
      case WELL_KNOWN.openidConfiguration:
        return get(() => json(openidConfiguration(urls)));
      case AGENT_TRANSPORT_ROUTES.models:
        return get(() => modelsResponse(options.name));
      case AGENT_TRANSPORT_ROUTES.chatCompletions:
        return post(() => chatCompletionsResponse(request, options.name, now, options.sseFraming));
      case AGENT_TRANSPORT_ROUTES.a2a:
        return post(() => a2aResponse(request, options.a2aMethods ?? DEFAULT_A2A_METHODS, now));
      case AGENT_TOKEN_ROUTE:
        if (options.tokenEndpoint) return post(() => tokenEndpointResponse(request, options.tokenEndpoint!));
        break;
    }
    return declared(request, url, path);
  }

  function keyDirectory(request: Request): Response {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return renderAnswer(methodNotAllowedAnswer(WELL_KNOWN.keyDirectory, request.method, ['GET', 'HEAD']));
    if (!publicKey) return renderAnswer(notFoundAnswer(WELL_KNOWN.keyDirectory));
    return renderAnswer({
      status: 200,
      headers: { [HEADERS.contentType]: MEDIA_TYPES.keyDirectory },
      body: keyDirectoryDocument([publicKey as Parameters<typeof keyDirectoryDocument>[0][number]]),
    });
  }

  return {
    name: options.name,
    urls,
    publicKey,
    owns: (pathname) => relative(pathname) !== null || (options.serveKeyDirectory === true && pathname === WELL_KNOWN.keyDirectory),
    async fetch(request) {
      try {
        const response = await route(request);
        return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
      } catch (error) {
        reportError(options.onError, error, `agent ${options.name}: ${request.method} ${new URL(request.url).pathname}`);
        return renderAnswer({
          status: 500,
          body: { error: { code: ENDPOINT_OWN_CODES.internal, message: `The agent ${options.name} failed while answering this request.` } },
        });
      }
    },
    async upgrade(request) {
      const url = new URL(request.url);
      const path = relative(url.pathname);
      const found = path === null ? undefined : sockets.map((s) => ({ ...s, params: s.match(path) })).find((s) => s.params !== null);
      if (!found) return { refuse: renderAnswer(notFoundAnswer(url.pathname)) };
      const identity = await identify(request, url);
      const refused = signatureAnswer(keptOut(found.socket, identity) ?? decideSocketUpgrade(found.socket, identity, agentFacts), identity);
      if (refused) return { refuse: renderAnswer(refused) };
      return { accept: (socket) => found.socket.accept(socket, { url, params: found.params!, auth: authOf(identity) }) };
    },
  };
}
