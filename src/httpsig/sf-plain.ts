import { Token, type BareItem, type Parameters } from 'structured-headers';

/**
 * Serialisation shortcuts for the common case, giving the text structured-headers' serializers give.
 * An SF String of printable ASCII without `"` and `\` serialises as itself between quotes; a Token as its
 * text; a parameter set to true as its bare key. Anything else returns undefined: use the library.
 */

/** Printable ASCII without `"` and `\`: an SF String whose serialisation is the text between two quotes. */
export const PLAIN_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** An SF key (RFC 8941 §3.1.2), exactly as structured-headers validates keys. */
export const SF_KEY = /^[a-z*][*\-_.a-z0-9]*$/;

function plainBareItem(value: BareItem): string | undefined {
  if (typeof value === 'string') return PLAIN_STRING.test(value) ? `"${value}"` : undefined;
  if (value instanceof Token) return value.toString();
  return undefined;
}

/** serializeItem([value, params]) when the value and every parameter are plain Strings, Tokens or true; else undefined. */
export function plainItem(value: BareItem, params: Parameters): string | undefined {
  let text = plainBareItem(value);
  if (text === undefined || params.size === 0) return text;
  for (const [key, param] of params) {
    if (!SF_KEY.test(key)) return undefined;
    if (param === true) {
      text += `;${key}`;
      continue;
    }
    const paramText = plainBareItem(param);
    if (paramText === undefined) return undefined;
    text += `;${key}=${paramText}`;
  }
  return text;
}
