import { HEADERS } from '../spec/headers.js';
import type { RunReport } from './results.js';

/** One HTTP request and the response it got, as a failed check shows it (secrets redacted). */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body as text when it is UTF-8, else base64; cut to BODY_LIMIT bytes. */
  readonly body: string;
  readonly bodyEncoding: 'utf8' | 'base64';
  readonly bodyLength: number;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly bodyEncoding: 'utf8' | 'base64';
  readonly bodyLength: number;
}

export interface Exchange {
  readonly request: RecordedRequest;
  /** null when no response came (connection refused, timeout); `note` then says why. */
  readonly response: RecordedResponse | null;
  readonly note?: string;
}

export const BODY_LIMIT = 4096;
/** How far past the cut a body is read for credentials: more than any bearer token is long. */
const REDACTION_MARGIN = 16 * 1024;
const REDACTED = '[redacted]';

/** Header fields whose values are credentials; a report shows that they were sent, never what they were. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([HEADERS.ownerKey, 'cookie', 'set-cookie']);
/** Credentials of the form `<scheme> <token>`: the scheme is kept (it says what was sent), the token never. */
const SCHEME_HEADERS: ReadonlySet<string> = new Set([HEADERS.authorization, HEADERS.paymentAuthorization, 'proxy-authorization']);
const AUTH_SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,30})\s+\S/;

function redactValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (SCHEME_HEADERS.has(lower)) {
    const scheme = AUTH_SCHEME.exec(value)?.[1];
    return scheme && !scheme.includes('.') ? `${scheme} ${REDACTED}` : REDACTED;
  }
  return SECRET_HEADERS.has(lower) ? REDACTED : value;
}

/** JSON members and form fields whose values are credentials: access and refresh tokens, client secrets, owner keys. */
const CREDENTIAL_NAMES = 'access_token|refresh_token|id_token|token|client_secret|owner_key|api_key|password|secret';
/** The members of a JWK that are its private key (RFC 7518 6.2.2, 6.3.2, 6.4.1): redacted where a key set leaks them. */
const PRIVATE_JWK_NAMES = 'd|p|q|dp|dq|qi|k|oth';
const JSON_CREDENTIAL = new RegExp(`("(?:${CREDENTIAL_NAMES})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'gi');
const JSON_PRIVATE_JWK = new RegExp(`("(?:${PRIVATE_JWK_NAMES})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'g');
const FORM_CREDENTIAL = new RegExp(`((?:^|[?&;])(?:${CREDENTIAL_NAMES})=)([^&#;\\s]*)()`, 'gi');
/** A compact JWS or JWE (RFC 7515 7.1, RFC 7516 7.1): a bearer token wherever it appears. */
const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)?/g;

/** A credential as a report shows it: a few first characters to recognise it by (none of a short one), never the rest. */
function redactSecret(value: string): string {
  if (value === '' || value.includes(REDACTED)) return value;
  return `${value.slice(0, Math.min(8, Math.floor(value.length / 4)))}…${REDACTED}`;
}

/**
 * Text a report shows with every credential in it redacted: the values of credential members of JSON
 * (access_token, refresh_token, id_token, token, client_secret, ...) and of form fields of those names, the
 * private members of a JWK, and every JWT-shaped string (a platform or SDK bearer token) wherever it stands.
 */
export function redactText(text: string): string {
  const member = (_m: string, before: string, value: string, after: string) => `${before}${redactSecret(value)}${after}`;
  let out = text.replace(JSON_CREDENTIAL, member).replace(FORM_CREDENTIAL, member);
  if (out.includes('"kty"')) out = out.replace(JSON_PRIVATE_JWK, member);
  return out.replace(JWT, (token) => redactSecret(token));
}

/** The first `limit` bytes of UTF-8 text, never splitting a character. */
function cutUtf8(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let end = limit;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

function recordBody(bytes: Uint8Array | null | undefined): { body: string; bodyEncoding: 'utf8' | 'base64'; bodyLength: number } {
  const data = bytes ?? new Uint8Array(0);
  // Read past the cut by a margin (a token standing across it is redacted whole), never splitting a character.
  let end = Math.min(data.length, BODY_LIMIT + REDACTION_MARGIN);
  if (end < data.length) while (end > 0 && ((data[end] ?? 0) & 0xc0) === 0x80) end--;
  const head = Buffer.from(data.subarray(0, end));
  const text = head.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(head) && !/[\u0000-\u0008\u000e-\u001f]/.test(text);
  return isText
    ? { body: cutUtf8(redactText(text), BODY_LIMIT), bodyEncoding: 'utf8', bodyLength: data.length }
    : { body: Buffer.from(data.subarray(0, BODY_LIMIT)).toString('base64'), bodyEncoding: 'base64', bodyLength: data.length };
}

export function recordRequest(r: {
  method: string;
  url: string;
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Uint8Array | null;
}): RecordedRequest {
  return { method: r.method, url: redactText(r.url), headers: r.headers.map(([n, v]) => [n, redactValue(n, v)] as const), ...recordBody(r.body) };
}

export function recordResponse(r: { status: number; headers: Readonly<Record<string, string>>; body?: Uint8Array | string | null }): RecordedResponse {
  const bytes = typeof r.body === 'string' ? new TextEncoder().encode(r.body) : r.body;
  const headers = Object.fromEntries(Object.entries(r.headers).map(([n, v]) => [n, redactValue(n, v)]));
  return { status: r.status, headers, ...recordBody(bytes) };
}

/** An exchange as HTTP text, for JUnit failures and terminals. */
export function exchangeText(e: Exchange): string {
  const body = (b: { body: string; bodyEncoding: string; bodyLength: number }) =>
    b.bodyLength === 0
      ? ''
      : `\n\n${b.bodyEncoding === 'base64' ? `[${b.bodyLength} bytes, base64] ` : ''}${b.body}${b.bodyLength > BODY_LIMIT ? ` [… ${b.bodyLength} bytes in all]` : ''}`;
  const request = `${e.request.method} ${e.request.url}\n${e.request.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}${body(e.request)}`;
  const response = e.response
    ? `HTTP ${e.response.status}\n${Object.entries(e.response.headers)
        .map(([n, v]) => `${n}: ${v}`)
        .join('\n')}${body(e.response)}`
    : `no response${e.note ? `: ${e.note}` : ''}`;
  return `--- request\n${request}\n--- response\n${response}`;
}

/**
 * The report with credentials redacted from its messages too (exchanges are redacted as they are recorded): a
 * failure message may quote a body that held a bearer token. Every report file, --json and the terminal show this.
 */
export function redactedReport(report: RunReport): RunReport {
  const results = report.results.map((r) => (r.message === undefined ? r : { ...r, message: redactText(r.message) }));
  return { ...report, results, harnessErrors: report.harnessErrors.map((e) => redactText(e)) };
}
