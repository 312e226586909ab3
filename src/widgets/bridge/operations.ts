import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';

/** A bridge operation as a host knows it: the bridge version that introduced it. */
export interface BridgeOperation {
  readonly since: number;
  /** Needs the platform server (host.kv shared scope, host.fn, ...): unavailable in detached mode. */
  readonly serverMediated?: boolean;
}

/** What a host can dispatch: the bridge version it implements and the operations it has handlers for. */
export interface BridgeHostInfo {
  readonly version: number;
  readonly operations: Readonly<Record<string, BridgeOperation>>;
  /** Running without the platform server. */
  readonly detached?: boolean;
}

export type DispatchVerdict = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };

/**
 * Whether a host has a handler for `operation` (7.1, 9). Operations exist in versions: an operation newer
 * than the host's bridge version has no handler there, whatever SDK version the app was built with (a v1
 * app calling a v2 operation on an old host gets unknown_op); so has a server-mediated operation in
 * detached mode, and any name the host does not know.
 */
export function checkDispatch(operation: string, host: BridgeHostInfo): DispatchVerdict {
  const code = BRIDGE_ERRORS.unknown_op.code;
  const known = Object.hasOwn(host.operations, operation) ? host.operations[operation] : undefined;
  if (!known) return { ok: false, code, message: `this host has no operation "${operation}"` };
  if (known.since > host.version) {
    return { ok: false, code, message: `"${operation}" is a bridge v${known.since} operation; this host implements v${host.version}` };
  }
  if (known.serverMediated && host.detached) return { ok: false, code, message: `"${operation}" needs the platform server, and this host runs detached` };
  return { ok: true };
}
