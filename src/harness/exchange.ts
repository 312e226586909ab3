import { HEADERS } from '../spec/headers.js';

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

const BODY_LIMIT = 4096;
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

function recordBody(bytes: Uint8Array | null | undefined): { body: string; bodyEncoding: 'utf8' | 'base64'; bodyLength: number } {
  const data = bytes ?? new Uint8Array(0);
  const cut = data.subarray(0, BODY_LIMIT);
  const text = Buffer.from(cut).toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(Buffer.from(cut)) && !/[\u0000-\u0008\u000e-\u001f]/.test(text);
  return isText
    ? { body: text, bodyEncoding: 'utf8', bodyLength: data.length }
    : { body: Buffer.from(cut).toString('base64'), bodyEncoding: 'base64', bodyLength: data.length };
}

export function recordRequest(r: {
  method: string;
  url: string;
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Uint8Array | null;
}): RecordedRequest {
  return { method: r.method, url: r.url, headers: r.headers.map(([n, v]) => [n, redactValue(n, v)] as const), ...recordBody(r.body) };
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
