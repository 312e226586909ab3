import { AddressRefusedError, HostLookupError } from './connect-errors.js';
import { dnsFailed, timedOut, unreachable, type FetchFailure } from './failures.js';
import { refuseAddresses, type FetchRules, type FetchTarget } from './rules.js';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
/** Error codes of a TLS handshake that failed (certificate untrusted, expired, for another name; protocol errors). */
export const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_)|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/** What to do when the certificate is good but from a CA of one's own: Node's own variable adds it to the trusted ones. */
export const PRIVATE_CA_HINT = 'A certificate from a private CA is trusted when the command runs with NODE_EXTRA_CA_CERTS=FILE (the CA certificate in PEM).';

/** Turns whatever undici or the socket threw into a refusal a person can act on. */
export function outcomeOfError(target: FetchTarget, thrown: unknown, rules: FetchRules): FetchFailure {
  const { url, hostname, port } = target;
  const error = rootCause(thrown);
  if (error instanceof AddressRefusedError) return refuseAddresses(target, error.refusals, rules);
  if (error instanceof HostLookupError) return error.timedOut ? timedOut(url, rules.timeoutMs) : dnsFailed(url, hostname, error.code);

  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (TIMEOUT_CODES.has(code)) return timedOut(url, rules.timeoutMs);
  if (code === 'ECONNREFUSED')
    return unreachable(url, `${hostname} refused the connection on port ${port} (ECONNREFUSED); check that the server is up and listening there`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return unreachable(url, `there is no route to ${hostname} (${code})`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return unreachable(url, `the connection closed before a complete answer arrived (${code}: ${message})`);
  }
  if (TLS_CODE.test(code))
    return unreachable(url, `the TLS handshake failed (${code}: ${message}); the server must present a valid certificate for ${hostname}. ${PRIVATE_CA_HINT}`);
  if (code.startsWith('HPE_')) return unreachable(url, `the answer is not valid HTTP/1.1 (${code}: ${message})`);
  return unreachable(url, code ? `${message} (${code})` : message);
}

/** undici wraps some errors (`cause`, AggregateError of several addresses); the innermost one says most. */
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    if (current instanceof AddressRefusedError || current instanceof HostLookupError) return current;
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors.at(-1);
    else if (current instanceof Error && current.cause !== undefined && !codeOf(current)) current = current.cause;
    else return current;
  }
  return current;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}
