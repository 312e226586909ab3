/** A failed bridge call as the SDK rejects it (7.1): an Error whose .code mirrors the host's code. */
export class BridgeError extends Error {
  override readonly name = 'BridgeError';
  constructor(
    readonly code: string,
    message: string = code,
    /** The Retry-After window in seconds, when the host gave one (rate_limited). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The error envelope a host answers with, as a BridgeError; anything without a string code is internal. */
export function bridgeErrorFrom(envelope: unknown): BridgeError {
  const e = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as { code?: unknown; message?: unknown; retryAfter?: unknown };
  const code = typeof e.code === 'string' && e.code !== '' ? e.code : 'internal';
  const message = typeof e.message === 'string' ? e.message : code;
  return new BridgeError(code, message, typeof e.retryAfter === 'number' ? e.retryAfter : undefined);
}
