/** Why a base64url-of-JSON text could not be read. */
export type Base64urlJsonFailure = 'not-base64url' | 'not-utf8' | 'not-json';

export type Base64urlJsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly failure: Base64urlJsonFailure; readonly detail: string };

const BASE64URL_NOPAD = /^[A-Za-z0-9_-]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Strict base64url without padding (RFC 4648 section 5, `base64url-nopad = 1*( ALPHA / DIGIT / "-" / "_" )`):
 * no padding, no other alphabet, no impossible length, no non-zero trailing bits. Buffer alone accepts all of those;
 * the round trip refuses an impossible length (Buffer drops the dangling character) and non-zero trailing bits.
 */
export function decodeBase64urlNoPad(text: string): Uint8Array | null {
  if (!BASE64URL_NOPAD.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

/** Decodes base64url-nopad of UTF-8 JSON, saying which layer failed. Never throws. */
export function decodeBase64urlJson(text: string): Base64urlJsonResult {
  const bytes = decodeBase64urlNoPad(text);
  if (bytes === null) return { ok: false, failure: 'not-base64url', detail: 'not base64url without padding' };
  try {
    return { ok: true, value: JSON.parse(utf8.decode(bytes)) as unknown };
  } catch (error) {
    // The fatal decoder throws a TypeError for bytes that are not UTF-8; JSON.parse a SyntaxError.
    return error instanceof TypeError
      ? { ok: false, failure: 'not-utf8', detail: 'the decoded bytes are not UTF-8' }
      : { ok: false, failure: 'not-json', detail: `the decoded text is not JSON (${(error as Error).message})` };
  }
}
