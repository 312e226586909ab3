import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import type { VerifierRequest } from '../verifier/types.js';
import { readBodyUpTo } from './body.js';

/**
 * What a core answers (docs/architecture.md): a status, every header, and a JSON body. A verifier Refusal
 * is one as it stands; so are the purchase machine's refusals and the platform's own answers.
 */
export interface CoreAnswer {
  readonly status: number;
  /** Header names in any case; values exactly as they go on the wire. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value; undefined for no body. */
  readonly body?: unknown;
}

const encoder = new TextEncoder();

/**
 * The one shared rendering of a core's answer as a WHATWG Response: the status and headers exactly as the
 * core gives them, the body as JSON (Content-Type application/json unless the core names another type, such
 * as application/problem+json) with its Content-Length.
 */
export function renderAnswer(answer: CoreAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers.set(name, value);
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  const bytes = encoder.encode(JSON.stringify(answer.body));
  if (!headers.has(HEADERS.contentType)) headers.set(HEADERS.contentType, MEDIA_TYPES.json);
  headers.set(HEADERS.contentLength, String(bytes.byteLength));
  return new Response(bytes, { status: answer.status, headers });
}

/** The body of the platform's own non-authentication errors (2.6 shape): `{ "error": { "code", "message" } }`. */
export function errorAnswer(status: number, code: string, message: string, headers: Readonly<Record<string, string>> = {}): CoreAnswer {
  return { status, headers, body: { error: { code, message } } };
}

/**
 * Enough body for the verifier to judge any signed request: one byte over the signed-request cap (5.2, 8)
 * lets it refuse signature_body_too_large without the platform ever holding more.
 */
const VERIFIER_BODY_LIMIT = LIMITS.signedRequestBody.value + 1;

export interface ReadRequest {
  readonly request: VerifierRequest;
  /** True when the body was longer than the limit and reading stopped there. */
  readonly truncated: boolean;
}

/**
 * Reads a WHATWG Request into the verifier's request: method, absolute URL, header fields (in the order the
 * Request holds them: a WHATWG Headers object lower-cases names, sorts them and joins repeated fields with
 * ", ", which is what RFC 9421 takes as a field's value), the body bytes untouched, and the client address.
 * The body is read once, up to `bodyLimit` bytes; a body some route already read (or `bodyConsumed`, a fault
 * the caller injects) is reported as consumed (7.3 request_body_consumed) rather than read again.
 */
export async function readVerifierRequest(
  request: Request,
  clientAddress: string,
  options: { readonly bodyLimit?: number; readonly bodyConsumed?: boolean } = {},
): Promise<ReadRequest> {
  const bodyConsumed = request.bodyUsed || options.bodyConsumed === true;
  const { bytes, truncated } = bodyConsumed ? { bytes: null, truncated: false } : await readBodyUpTo(request.body, options.bodyLimit ?? VERIFIER_BODY_LIMIT);
  return {
    request: {
      method: request.method,
      url: request.url,
      headers: [...request.headers],
      body: bytes,
      clientAddress,
      ...(bodyConsumed ? { bodyConsumed: true } : {}),
    },
    truncated,
  };
}
