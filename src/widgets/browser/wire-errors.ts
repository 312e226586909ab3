import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import { BridgeError } from '../bridge/bridge-error.js';

/** JSON-RPC's "method not found": a host with no handler for the operation, which the SDK reports as unknown_op (7.1). */
const METHOD_NOT_FOUND = -32601;

/**
 * A failed request on the MCP Apps transport as the bridge error it stands for: the 7.1 code the host put in the
 * JSON-RPC error's data; a host without a handler (method not found) is unknown_op; anything else (the transport
 * failed, the host answered no code) is internal. Pure, so the Node tests and the browser SDK share it.
 */
export function bridgeErrorOfWire(error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown; data?: unknown };
  const data = (typeof e.data === 'object' && e.data !== null ? e.data : {}) as { code?: unknown; retryAfter?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (typeof data.code === 'string' && data.code !== '') {
    return new BridgeError(data.code, message, typeof data.retryAfter === 'number' ? data.retryAfter : undefined);
  }
  if (e.code === METHOD_NOT_FOUND) return new BridgeError(BRIDGE_ERRORS.unknown_op.code, message);
  return new BridgeError(BRIDGE_ERRORS.internal.code, message);
}
