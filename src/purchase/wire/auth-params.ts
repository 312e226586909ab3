/** Writing RFC 9110 auth-params: tokens and quoted-strings (RFC 9110 5.6.2, 5.6.4), as a deployment writes its challenges. */
import { assertQuotable } from './quotable.js';

/** The reader (auth-params-parse.ts) takes the same character rules. */
export { isQuotable } from './quotable.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/** An RFC 9110 quoted-string: `"` and `\` escaped. Throws for a character a field value cannot carry (a control, or above U+00FF). */
export function quotedString(text: string): string {
  assertQuotable(text);
  const escaped = text.replace(/["\\]/g, (c) => `\\${c}`);
  return `"${escaped}"`;
}
