/*
 * What an RFC 9110 quoted-string may carry (5.6.4), for the reader of WWW-Authenticate (auth-params-parse.ts, the
 * judge's and a buyer's reading) and the writer (auth-params.ts, a deployment's guard against its own configuration).
 * Held by its unit tests: no value a deployment of ours quotes holds a character outside visible ASCII, so no
 * conformance check can see where the line is drawn.
 */

/** qdtext and the character after a backslash: HTAB, SP, VCHAR, obs-text (RFC 9110 5.6.4). */
export function isQuotable(c: string): boolean {
  const code = c.charCodeAt(0);
  return code === 0x09 || (code >= 0x20 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

/** Throws for a character a field value cannot carry (a control, or above U+00FF). */
export function assertQuotable(text: string): void {
  for (const c of text) if (!isQuotable(c)) throw new TypeError(`a quoted-string cannot carry U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
