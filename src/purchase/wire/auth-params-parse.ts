import { isQuotable } from './auth-params.js';

/**
 * RFC 9110 section 11 challenges, as `WWW-Authenticate` carries them:
 *
 *   WWW-Authenticate = #challenge
 *   challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *   auth-param = token BWS "=" BWS ( token / quoted-string )
 *
 * One field value may hold several challenges, and several field values are one comma-joined list. A comma
 * followed by `token BWS "="` continues the current challenge's parameters; any other token begins the next
 * challenge. Parameter names are case-insensitive and are returned lower-cased; values are returned unquoted.
 *
 * The reading of challenges: the suite's judge and a buyer read what a deployment sends with it (held by its unit
 * tests).
 */
export interface AuthChallenge {
  readonly scheme: string;
  /** The token68 form (`Basic dXNlcg==`); absent when the challenge has auth-params or nothing. */
  readonly token68?: string;
  /** In the order written; duplicates kept so a caller can refuse them. */
  readonly params: readonly (readonly [name: string, value: string])[];
}

export type AuthenticateParse =
  | { readonly ok: true; readonly challenges: readonly AuthChallenge[] }
  | { readonly ok: false; readonly detail: string; readonly at: number };

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;
const TOKEN68_CHAR = /^[A-Za-z0-9\-._~+/]$/;

const isTchar = (c: string | undefined): boolean => c !== undefined && TCHAR.test(c);
const isWhitespace = (c: string | undefined): boolean => c === ' ' || c === '\t';
class Cursor {
  at = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.at >= this.text.length;
  }
  peek(offset = 0): string | undefined {
    return this.text[this.at + offset];
  }
  skipWhitespace(): void {
    while (isWhitespace(this.peek())) this.at += 1;
  }
  token(): string {
    const start = this.at;
    while (isTchar(this.peek())) this.at += 1;
    return this.text.slice(start, this.at);
  }
}

class ParseFailure extends Error {
  constructor(
    readonly detail: string,
    readonly at: number,
  ) {
    super(detail);
  }
}

/** Whether `token BWS "=" BWS ( DQUOTE / tchar )` starts at the cursor: an auth-param rather than a token68 or a new challenge. */
function startsAuthParam(cursor: Cursor): boolean {
  let i = cursor.at;
  const text = cursor.text;
  if (!isTchar(text[i])) return false;
  while (isTchar(text[i])) i += 1;
  while (isWhitespace(text[i])) i += 1;
  if (text[i] !== '=') return false;
  i += 1;
  while (isWhitespace(text[i])) i += 1;
  return text[i] === '"' || isTchar(text[i]);
}

function readQuoted(cursor: Cursor): string {
  const start = cursor.at;
  cursor.at += 1;
  let out = '';
  for (;;) {
    const c = cursor.peek();
    if (c === undefined) throw new ParseFailure('unterminated quoted-string', start);
    if (c === '"') {
      cursor.at += 1;
      return out;
    }
    if (c === '\\') {
      const escaped = cursor.peek(1);
      if (escaped === undefined || !isQuotable(escaped)) throw new ParseFailure('a backslash must escape a visible character, space or tab', cursor.at);
      out += escaped;
      cursor.at += 2;
      continue;
    }
    if (!isQuotable(c)) throw new ParseFailure(`character U+${c.charCodeAt(0).toString(16).padStart(4, '0')} is not allowed in a quoted-string`, cursor.at);
    out += c;
    cursor.at += 1;
  }
}

function readParams(cursor: Cursor): [string, string][] {
  const params: [string, string][] = [];
  for (;;) {
    const name = cursor.token();
    cursor.skipWhitespace();
    cursor.at += 1; // the "=" startsAuthParam saw
    cursor.skipWhitespace();
    const value = cursor.peek() === '"' ? readQuoted(cursor) : cursor.token();
    params.push([name.toLowerCase(), value]);
    cursor.skipWhitespace();
    if (cursor.done) return params;
    if (cursor.peek() !== ',') throw new ParseFailure(`expected "," after the ${name} parameter`, cursor.at);
    while (cursor.peek() === ',' || isWhitespace(cursor.peek())) cursor.at += 1;
    if (cursor.done || !startsAuthParam(cursor)) return params;
  }
}

function readChallenge(cursor: Cursor): AuthChallenge {
  const scheme = cursor.token();
  if (scheme === '') throw new ParseFailure('expected an auth-scheme token', cursor.at);
  const afterScheme = cursor.at;
  cursor.skipWhitespace();
  if (cursor.done || cursor.peek() === ',') return { scheme, params: [] };
  if (cursor.at === afterScheme) throw new ParseFailure(`expected a space after the auth-scheme ${scheme}`, cursor.at);
  if (startsAuthParam(cursor)) return { scheme, params: readParams(cursor) };
  const start = cursor.at;
  while (TOKEN68_CHAR.test(cursor.peek() ?? '')) cursor.at += 1;
  if (cursor.at === start) throw new ParseFailure(`expected auth-params or a token68 after ${scheme}`, cursor.at);
  while (cursor.peek() === '=') cursor.at += 1;
  const token68 = cursor.text.slice(start, cursor.at);
  cursor.skipWhitespace();
  if (!cursor.done && cursor.peek() !== ',') throw new ParseFailure(`unexpected character after the token68 of ${scheme}`, cursor.at);
  return { scheme, token68, params: [] };
}

/** Parses one `WWW-Authenticate` field value (or several joined by commas) into its challenges. Never throws. */
export function parseAuthenticate(value: string): AuthenticateParse {
  const cursor = new Cursor(value);
  const challenges: AuthChallenge[] = [];
  try {
    for (;;) {
      while (cursor.peek() === ',' || isWhitespace(cursor.peek())) cursor.at += 1;
      if (cursor.done) return { ok: true, challenges };
      challenges.push(readChallenge(cursor));
    }
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, detail: error.detail, at: error.at };
    throw error;
  }
}
