import { ENDPOINT_OWN_CODES } from '../spec/agent-endpoints.js';
import { ENDPOINT_ERRORS } from '../spec/endpoint-errors.js';
import { HEADERS } from '../spec/headers.js';
import { accessChallenge, type AccessRefusal } from './scope-rules.js';

/** What the declared-endpoint rules answer instead of the handler: a status, every header and a JSON body. */
export interface EndpointAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** 2.6: `{ error: { code, message } }`. */
export interface EndpointErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}

/** 2.6 and 7.2: the request-body cap error carries `detail`, not `message`. */
export interface BodyCapErrorBody {
  readonly error: { readonly code: string; readonly detail: string };
}

/**
 * A refusal of the scope rules or auth modes (5.4) as the 7.2 answer: 401 unauthorized or 403 forbidden with
 * `{ error: { code, message } }`; a 401 carries the Bearer challenge (bare, or error="invalid_token" when the
 * request carried a credential that did not verify), a 403 none.
 */
export function accessRefusalAnswer(verdict: AccessRefusal, presentedCredential: boolean, realm?: string): EndpointAnswer {
  const challenge = accessChallenge(verdict, presentedCredential, realm);
  return {
    status: verdict.status,
    headers: challenge === null ? {} : { [HEADERS.wwwAuthenticate]: challenge },
    body: { error: { code: verdict.code, message: verdict.message } } satisfies EndpointErrorBody,
  };
}

/** 7.2 405 for a wrong method, with Allow naming the methods the path answers. */
export function methodNotAllowedAnswer(path: string, method: string, allowed: readonly string[]): EndpointAnswer {
  const allow = [...allowed].sort().join(', ');
  return {
    status: ENDPOINT_ERRORS.methodNotAllowed.status!,
    headers: { [HEADERS.allow]: allow },
    body: { error: { code: ENDPOINT_OWN_CODES.methodNotAllowed, message: `${path} answers ${allow}, not ${method}.` } } satisfies EndpointErrorBody,
  };
}

/** 7.2 415 for a body request whose Content-Type is missing or not one the endpoint accepts. */
export function unsupportedMediaTypeAnswer(given: string | undefined, accepted: readonly string[]): EndpointAnswer {
  const wanted = accepted.join(' or ');
  const message =
    given === undefined
      ? `This endpoint needs a request body of type ${wanted}, and the request names no Content-Type.`
      : `This endpoint takes ${wanted}, not ${given}.`;
  return {
    status: ENDPOINT_ERRORS.unsupportedMediaType.status!,
    headers: { [HEADERS.accept]: accepted.join(', ') },
    body: { error: { code: ENDPOINT_OWN_CODES.unsupportedMediaType, message } } satisfies EndpointErrorBody,
  };
}

/**
 * 7.2 413 REQUEST_BODY_CAP_EXCEEDED: answered with Connection: close (the rest of the body is never read), body
 * `{ error: { code, detail } }`; the handler is never called.
 */
export function bodyCapAnswer(cap: number): EndpointAnswer {
  return {
    status: ENDPOINT_ERRORS.requestBodyCapExceeded.status!,
    headers: { [HEADERS.connection]: 'close' },
    body: {
      error: {
        code: ENDPOINT_ERRORS.requestBodyCapExceeded.code!,
        detail: `The request body is larger than this endpoint reads (${cap} bytes); it was not read further and the agent was not called. Do not retry the same body.`,
      },
    } satisfies BodyCapErrorBody,
  };
}

/** No declared endpoint at this path (not a 7.2 row: the SDKs answer it in the 2.6 shape). */
export function notFoundAnswer(path: string): EndpointAnswer {
  return {
    status: 404,
    headers: {},
    body: { error: { code: ENDPOINT_OWN_CODES.notFound, message: `No endpoint is declared at ${path}.` } } satisfies EndpointErrorBody,
  };
}
