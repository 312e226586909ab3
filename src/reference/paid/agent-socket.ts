import type { WebSocket } from 'ws';
import { serializeFrame } from '../../purchase/inband.js';
import { AGENT_MOUNT_PREFIX, AGENT_TRANSPORT_ROUTES } from '../../spec/agent-endpoints.js';
import type { PathMatcher } from '../routes.js';
import type { SocketRoute } from '../upgrade.js';
import { payerOf } from './caller.js';
import { TurnSession, type TurnSessionOptions } from './turn-session.js';

export interface AgentSocketOptions extends TurnSessionOptions {
  /** Which agent names the platform hosts; an upgrade for any other is 404. Every name by default. */
  readonly agents?: (name: string) => boolean;
}

/** The route's name in logs and reports. */
const AGENT_SOCKET_ROUTE_NAME = `${AGENT_MOUNT_PREFIX}:name${AGENT_TRANSPORT_ROUTES.uamp}`;

/** `/agents/<name>/uamp`, one non-empty path segment for the name. */
function agentSocketPath(agents: (name: string) => boolean = () => true): PathMatcher {
  return (pathname) => {
    if (!pathname.startsWith(AGENT_MOUNT_PREFIX) || !pathname.endsWith(AGENT_TRANSPORT_ROUTES.uamp)) return null;
    const segment = pathname.slice(AGENT_MOUNT_PREFIX.length, pathname.length - AGENT_TRANSPORT_ROUTES.uamp.length);
    if (segment === '' || segment.includes('/')) return null;
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return null;
    }
    return agents(name) ? { name } : null;
  };
}

/**
 * The agent socket on the platform, /agents/<name>/uamp (4.2): a verified route, so an upgrade that does not
 * verify is refused 401 with Accept-Signature before the socket opens (upgrade.ts). Each accepted socket runs a
 * TurnSession: turns the balance covers run at once; others get payment.required and wait for payment.submit.
 */
export function agentSocketRoute(options: AgentSocketOptions): SocketRoute {
  return {
    name: AGENT_SOCKET_ROUTE_NAME,
    path: agentSocketPath(options.agents),
    access: 'verified',
    accept: (socket: WebSocket, ctx) => {
      const verdict = ctx.verdict;
      const caller = {
        agent: ctx.params.name ?? '',
        payer: verdict === null ? null : payerOf(verdict),
        signed: verdict?.kind === 'signature',
      };
      const session = new TurnSession(caller, options, (frame) => {
        if (socket.readyState === socket.OPEN) socket.send(serializeFrame(frame));
      });
      socket.on('message', (data, isBinary) => {
        void session.receive(isBinary ? '' : data.toString());
      });
    },
  };
}
