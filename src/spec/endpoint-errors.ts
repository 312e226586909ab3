import type { EndpointErrorRecord } from './types.js';

const r = (id: string, status: number | null, code: string | null, condition: string): EndpointErrorRecord =>
  Object.freeze({ id, section: '7.2', level: 'MUST', status, code, condition });

/** Section 7.2, one record per row, in the spec's order. */
export const ENDPOINT_ERRORS = Object.freeze({
  unauthorized: r(
    'ENDPOINT-UNAUTHORIZED',
    401,
    'unauthorized',
    'Scoped endpoint, caller not verifiable. Message says the endpoint needs a caller the agent can verify.',
  ),
  forbidden: r('ENDPOINT-FORBIDDEN', 403, 'forbidden', 'Verified caller the scope does not include'),
  signatureFailure: r('ENDPOINT-SIGNATURE-FAILURE', 401, null, 'A Web Bot Auth signature that does not verify is the answer itself'),
  accessBlock: r('ENDPOINT-ACCESS-BLOCK', 403, null, 'A caller the access block keeps out'),
  methodNotAllowed: r('ENDPOINT-METHOD-NOT-ALLOWED', 405, null, 'Wrong method'),
  unsupportedMediaType: r('ENDPOINT-UNSUPPORTED-MEDIA-TYPE', 415, null, 'Missing or wrong Content-Type'),
  requestBodyCapExceeded: r(
    'ENDPOINT-REQUEST-BODY-CAP-EXCEEDED',
    413,
    'REQUEST_BODY_CAP_EXCEEDED',
    'Body over 50 MiB (52428800 bytes); answered with Connection: close, body has error.code and error.detail, the agent is never called; do not retry the same body',
  ),
  responseSizeCapExceeded: r(
    'ENDPOINT-RESPONSE-SIZE-CAP-EXCEEDED',
    null,
    'RESPONSE_SIZE_CAP_EXCEEDED',
    "The agent's answer is too large (mirror of the request cap)",
  ),
});

export const ENDPOINT_ERROR_LIST: readonly EndpointErrorRecord[] = Object.freeze(Object.values(ENDPOINT_ERRORS));
