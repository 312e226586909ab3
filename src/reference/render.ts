import { validateHeaderName, validateHeaderValue } from 'node:http';
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
 * A core's answer as it goes on the wire: the status, every header (lower-case names, values as a WHATWG Headers
 * object would hold them) and the body's bytes. `serve` writes one as it stands; a WHATWG Response is made of it
 * only for a caller that asks for one (`toResponse`), since making one costs more than the rest of a small answer.
 */
export interface RenderedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Null for no body. */
  readonly body: Uint8Array | null;
}

/** What a route answers: a Response, or an answer the platform rendered itself. */
export type PlatformAnswer = Response | RenderedAnswer;

/** Leading and trailing HTTP whitespace, which a WHATWG Headers object strips from every value. */
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * The one shared rendering of a core's answer: the status and headers exactly as the core gives them (a name given
 * twice in different cases keeps the last value, as Headers.set does), the body as JSON (Content-Type
 * application/json unless the core names another type, such as application/problem+json) with its Content-Length.
 * A header name or value no HTTP message can carry throws here, where the route that made it is still answering.
 */
export function render(answer: CoreAnswer): RenderedAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    headers[name.toLowerCase()] = value.replace(OUTER_WHITESPACE, '');
  }
  if (answer.body === undefined) return { status: answer.status, headers, body: null };
  const body = encoder.encode(JSON.stringify(answer.body));
  headers[HEADERS.contentType] ??= MEDIA_TYPES.json;
  headers[HEADERS.contentLength] = String(body.byteLength);
  return { status: answer.status, headers, body };
}

/** A platform answer as a WHATWG Response (a Response as it is). */
export function toResponse(answer: PlatformAnswer): Response {
  if (answer instanceof Response) return answer;
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** A core's answer as a WHATWG Response. */
export function renderAnswer(answer: CoreAnswer): Response {
  return toResponse(render(answer));
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
