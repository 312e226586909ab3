import { StoreUnavailableError } from '../stores/unavailable.js';
import { BRIDGE_ERRORS } from '../spec/bridge-errors.js';
import { HEADERS } from '../spec/headers.js';
import { errorAnswer, renderAnswer } from './render.js';

/** Seconds a client is told to wait before its first retry; the spec's service_unavailable asks for exponential backoff from there. */
const FIRST_RETRY_S = 1;

/**
 * The answer to a request a store could not serve (Redis or the database unreachable, `serve --store/--db`): 503 with the
 * spec's code for a store that is down (7.1 service_unavailable: fail closed, retry with backoff), never a 500 or a crash.
 * Undefined for any other error.
 */
export function storeOutageAnswer(error: unknown): Response | undefined {
  if (!(error instanceof StoreUnavailableError)) return undefined;
  return renderAnswer(
    errorAnswer(503, BRIDGE_ERRORS.service_unavailable.code, 'A store this platform keeps its state in is unreachable; retry with exponential backoff.', {
      [HEADERS.retryAfter]: String(FIRST_RETRY_S),
    }),
  );
}
