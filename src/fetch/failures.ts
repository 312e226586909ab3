import type { FetchFailureReason, FetchOutcome } from '../verifier/ports.js';

/** A refused fetch: a reason for code and a sentence for people. */
export type FetchFailure = Extract<FetchOutcome, { ok: false }>;

/** What every refusal sentence ends with, so a reader knows which rule applied. */
const RULE = 'key sets and agent cards';

export function refuse(url: string, reason: FetchFailureReason, detail: string, status?: number): FetchFailure {
  return status === undefined ? { ok: false, url, reason, detail } : { ok: false, url, reason, detail, status };
}

export const invalidUrl = (url: string, problem: string): FetchFailure => refuse(url, 'invalid-url', `"${clip(url)}" cannot be fetched: ${problem}`);

export const notHttps = (url: string, scheme: string, insecureAllowed: boolean): FetchFailure =>
  refuse(
    url,
    'not-https',
    scheme === 'http:'
      ? `${url} uses plain http; ${RULE} are fetched over https only` +
          (insecureAllowed
            ? ', and plain http only to a loopback address under --allow-insecure-fixtures'
            : ' (plain http to loopback needs --allow-insecure-fixtures, for local testing only)')
      : `${clip(url)} uses ${scheme}; ${RULE} are fetched over https only`,
  );

export const redirected = (url: string, status: number, location: string | undefined): FetchFailure =>
  refuse(
    url,
    'redirect',
    `${url} answered ${status} ${location ? `with Location ${clip(location)}` : 'without a Location'}; ` +
      `${RULE} must answer 200 directly, redirects are not followed`,
    status,
  );

export const badStatus = (url: string, status: number): FetchFailure => refuse(url, 'status', `${url} answered ${status}; ${RULE} must answer 200`, status);

export const tooLarge = (url: string, maxBytes: number, declaredLength?: number): FetchFailure =>
  refuse(
    url,
    'too-large',
    `${url} ${declaredLength === undefined ? `sent more than ${maxBytes} bytes` : `declared Content-Length ${declaredLength}`}; ` +
      `${RULE} may be at most ${describeBytes(maxBytes)}, so the body was not read further`,
  );

export const timedOut = (url: string, timeoutMs: number): FetchFailure =>
  refuse(
    url,
    'timeout',
    `${url} did not answer in full within ${timeoutMs} ms (connect, headers and body together); ${RULE} must arrive within ${timeoutMs} ms`,
  );

export const dnsFailed = (url: string, hostname: string, code: string): FetchFailure =>
  refuse(url, 'dns', `${url} cannot be fetched: the host name ${hostname} did not resolve (${code}); check its DNS records`);

export const unreachable = (url: string, problem: string): FetchFailure => refuse(url, 'network', `${url} could not be reached: ${problem}`);

function describeBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB (${bytes} bytes)` : `${bytes} bytes`;
}

/** Keeps sentences readable when a URL or Location is absurdly long. */
function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
