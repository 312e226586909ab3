import type { BridgeOperation } from '../bridge/operations.js';

/**
 * The bridge operations of 4.6 as the reference host knows them, on the wire as JSON-RPC method names (callTool and
 * openLink travel as MCP Apps' own tools/call and ui/open-link). The spec names the operations but not the version
 * each came in: the reference reads the surfaces of 4.6's first sentence and host.kv as version 1, the other host.*
 * operations as version 2, so a v1 host answers unknown_op to them (9). Everything but openLink needs the platform
 * server, so a detached host answers unknown_op to it (7.1).
 */
export const BRIDGE_OPERATIONS = Object.freeze({
  callTool: { since: 1, serverMediated: true },
  openLink: { since: 1 },
  'host.kv': { since: 1, serverMediated: true },
  'host.fn': { since: 2, serverMediated: true },
  'host.shell': { since: 2, serverMediated: true },
  'host.python': { since: 2, serverMediated: true },
  'host.live': { since: 2, serverMediated: true },
  'host.collab': { since: 2, serverMediated: true },
} as const satisfies Record<string, BridgeOperation>);

/** The host.* operations, which travel as custom JSON-RPC methods of their own name. */
export const HOST_METHODS = Object.freeze(Object.keys(BRIDGE_OPERATIONS).filter((name) => name.startsWith('host.')));

/** The JSON-RPC error code a host answers a bridge error with; the 7.1 code travels in the error's data. */
export const BRIDGE_JSONRPC_ERROR = -32000;

/** The data of a bridge error on the wire: the stable 7.1 code, and the Retry-After window in seconds if any. */
export interface BridgeErrorData {
  readonly code: string;
  readonly retryAfter?: number;
}
