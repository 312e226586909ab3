import { request } from 'undici';

/** Whether anything answers HTTP at the base URL within the timeout; any status counts as an answer. */
export async function reachable(baseUrl: string, timeoutMs = 5000): Promise<{ ok: true } | { ok: false; why: string }> {
  try {
    const answer = await request(baseUrl, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    await answer.body.dump();
    return { ok: true };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { ok: false, why: `${baseUrl} did not answer (${e.code ?? e.message ?? 'unknown error'})` };
  }
}
