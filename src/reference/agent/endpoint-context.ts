import type { WebSocket } from 'ws';
import type { HttpEndpointDeclaration, SocketEndpointDeclaration } from '../../access/endpoint-declaration.js';
import type { PathParams } from '../../access/endpoint-path.js';
import type { Caller } from '../../access/scope-rules.js';

/** 2.3: what a handler learns about its caller as context.auth. */
export interface EndpointAuth {
  readonly authenticated: boolean;
  readonly caller: Caller | null;
}

export interface EndpointContext {
  readonly request: Request;
  readonly url: URL;
  readonly params: PathParams;
  readonly query: URLSearchParams;
  /** The body as read under the endpoint's cap (empty for a request without one). */
  readonly body: Uint8Array;
  readonly auth: EndpointAuth;
}

/**
 * What a handler may return (4.1): a Response as it stands; an async iterable, streamed as server-sent events
 * ending with data: [DONE]; anything else, answered as JSON with 200.
 */
export type EndpointResult = Response | AsyncIterable<unknown> | unknown;

export interface AgentHttpEndpoint extends HttpEndpointDeclaration {
  readonly handler: (ctx: EndpointContext) => EndpointResult | Promise<EndpointResult>;
}

export interface AgentSocketEndpoint extends SocketEndpointDeclaration {
  readonly accept: (socket: WebSocket, ctx: { readonly url: URL; readonly params: PathParams; readonly auth: EndpointAuth }) => void;
}
