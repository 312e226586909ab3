import { SOCKET_TOKEN_PARAM } from '../spec/agent-endpoints.js';
import { AUTH_SCHEMES } from '../spec/wire.js';
import type { EndpointAnswer } from './endpoint-answers.js';
import type { SocketEndpointDeclaration } from './endpoint-declaration.js';
import { decideEndpointAccess, type AgentAccessFacts, type CallerIdentity } from './endpoint-gate.js';

/**
 * The credential of a request: a Bearer token in Authorization, else (on a socket, whose browser clients cannot
 * set headers on an upgrade) the `token` query parameter (4.1). Null when there is none.
 */
export function bearerCredential(authorization: string | null | undefined, url: URL | null): string | null {
  const match = /^([A-Za-z]+)\s+(\S+)\s*$/.exec(authorization ?? '');
  if (match && match[1]!.toLowerCase() === AUTH_SCHEMES.bearer.toLowerCase()) return match[2]!;
  const fromQuery = url?.searchParams.get(SOCKET_TOKEN_PARAM);
  return fromQuery ? fromQuery : null;
}

/** Whether a request carries any credential, valid or not (it decides the variant of the 401 challenge). */
export function presentsCredential(authorization: string | null | undefined, url: URL | null): boolean {
  return (authorization ?? '').trim() !== '' || (url?.searchParams.get(SOCKET_TOKEN_PARAM) ?? '') !== '';
}

/**
 * 4.1: a WebSocket endpoint's scope is checked on the upgrade request, before the handshake completes. A refusal
 * is the plain HTTP answer of 7.2 (status and JSON body); null lets the handshake go on.
 */
export function decideSocketUpgrade(endpoint: SocketEndpointDeclaration, identity: CallerIdentity, agent: AgentAccessFacts): EndpointAnswer | null {
  return decideEndpointAccess(endpoint, identity, agent);
}
