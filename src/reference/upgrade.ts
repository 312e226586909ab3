import type { WebSocket } from 'ws';
import { HEADERS } from '../spec/headers.js';
import { acceptSignatureValue } from '../verifier/refusal.js';
import { verifyRequest } from '../verifier/verify-request.js';
import { readVerifierRequest } from './render.js';
import { errorAnswer, renderAnswer } from './render.js';
import { PLATFORM_ERROR_CODES, type Acceptance, type DispatchEnvironment, type PathMatcher } from './routes.js';

/** What a socket handler learns about the connection it accepted. */
export interface SocketContext {
  readonly url: URL;
  readonly clientAddress: string;
  /** The credential that verified the upgrade; null on a public socket route. */
  readonly verdict: Acceptance | null;
  readonly params: Readonly<Record<string, string>>;
}

/** A WebSocket endpoint of the platform. A verified one checks the upgrade request before the handshake completes. */
export interface SocketRoute {
  readonly name: string;
  readonly path: string | PathMatcher;
  readonly access: 'public' | 'verified';
  readonly accept: (socket: WebSocket, ctx: SocketContext) => void;
}

export type UpgradeDecision = { readonly accept: (socket: WebSocket) => void } | { readonly refuse: Response };

function matchPath(path: SocketRoute['path'], pathname: string): Readonly<Record<string, string>> | null {
  return typeof path === 'string' ? (path === pathname ? {} : null) : path(pathname);
}

/** Whether one of `routes` takes upgrades at `pathname` (the platform's own sockets come before a mounted agent's paths). */
export function hasSocketRoute(routes: readonly SocketRoute[], pathname: string): boolean {
  return routes.some((route) => matchPath(route.path, pathname) !== null);
}

/**
 * Decides an upgrade before any WebSocket frame: no socket route answers 404; a verified route runs the
 * reference verifier on the upgrade request, and a refusal is answered with its HTTP status, headers and
 * JSON body, always with Accept-Signature (7.4: a signed upgrade that does not verify is refused with 401
 * and Accept-Signature before the socket opens).
 */
export async function decideUpgrade(
  routes: readonly SocketRoute[],
  request: Request,
  clientAddress: string,
  env: DispatchEnvironment,
): Promise<UpgradeDecision> {
  const url = new URL(request.url);
  for (const route of routes) {
    const params = matchPath(route.path, url.pathname);
    if (!params) continue;
    let verdict: Acceptance | null = null;
    if (route.access === 'verified') {
      const read = await readVerifierRequest(request, clientAddress);
      const result = await verifyRequest(read.request, env.ports, env.config);
      if (!result.ok) {
        const headers = { ...result.headers };
        headers[HEADERS.acceptSignature] ??= acceptSignatureValue(false);
        return { refuse: renderAnswer({ status: result.status, headers, body: result.body }) };
      }
      verdict = result;
    }
    return { accept: (socket) => route.accept(socket, { url, clientAddress, verdict, params }) };
  }
  return { refuse: renderAnswer(errorAnswer(404, PLATFORM_ERROR_CODES.notFound, `No WebSocket endpoint at ${url.pathname}.`)) };
}
