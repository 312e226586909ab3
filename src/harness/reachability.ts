import { request } from 'undici';
import { PRIVATE_CA_HINT, TLS_CODE } from '../fetch/error-outcome.js';
import { exchangeName, targetFaultOf, TargetFault } from './live-http.js';

/** Errors that mean something at the address answered, wrongly: the target is reachable, and its checks will say what is wrong. */
const ANSWERED_BADLY = new Set(['UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * Whether anything answers HTTP at the base URL within the timeout; any status counts as an answer, and only its
 * status and headers are waited for (a body may never end). A target that answers with a fault (headers past the
 * parser's limit, bytes that are not HTTP, a reset connection) is reachable, with the fault named: it is the
 * target's to fix, and its checks fail with it.
 */
export async function reachable(baseUrl: string, timeoutMs = 5000): Promise<{ ok: true; fault?: string } | { ok: false; why: string }> {
  try {
    const answer = await request(baseUrl, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    answer.body.on('error', () => undefined);
    answer.body.destroy();
    return { ok: true };
  } catch (error) {
    const e = error as { name?: unknown; code?: unknown; message?: unknown };
    const code = typeof e.code === 'string' ? e.code : '';
    if (ANSWERED_BADLY.has(code) || code.startsWith('HPE_') || e.name === 'HTTPParserError') {
      const fault = targetFaultOf(error, exchangeName('GET', baseUrl), timeoutMs);
      return { ok: true, fault: fault instanceof TargetFault ? fault.message : `${code}: ${String(e.message)}` };
    }
    if (code !== '' && TLS_CODE.test(code))
      return { ok: false, why: `${baseUrl}: the TLS handshake failed (${code}: ${String(e.message)}), so no HTTP answer could be read. ${PRIVATE_CA_HINT}` };
    const timedOut = e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT';
    return { ok: false, why: `${baseUrl} did not answer${timedOut ? ` within ${timeoutMs} ms` : ''} (${code || String(e.message ?? 'unknown error')})` };
  }
}
