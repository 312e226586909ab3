/** Writing RFC 9110 auth-params: tokens and quoted-strings (RFC 9110 5.6.2, 5.6.4), as a deployment writes its challenges. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** qdtext and the character after a backslash: HTAB, SP, VCHAR, obs-text (RFC 9110 5.6.4). */
export function isQuotable(c: string): boolean {
  const code = c.charCodeAt(0);
  return code === 0x09 || (code >= 0x20 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/** An RFC 9110 quoted-string: `"` and `\` escaped. Throws for a character a field value cannot carry (a control, or above U+00FF). */
export function quotedString(text: string): string {
  for (const c of text) if (!isQuotable(c)) throw new TypeError(`a quoted-string cannot carry U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
  return `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
