import type { CaseRequest } from './types.js';

/** The body bytes a case request carries (`body`, `body_base64` or `body_fill`), or null for none. */
export function caseRequestBody(request: CaseRequest): Uint8Array | null {
  if (request.body_fill) return new Uint8Array(request.body_fill.length).fill(request.body_fill.byte);
  if (request.body_base64 !== undefined) return new Uint8Array(Buffer.from(request.body_base64, 'base64'));
  if (request.body !== undefined) return new TextEncoder().encode(request.body);
  return null;
}
