import canonicalize from 'canonicalize';
import { encodeBase64url } from '../../httpsig/base64url.js';
import type { JsonValue } from './json.js';

/** RFC 8785 JSON Canonicalization Scheme (JCS), through `canonicalize` (by an author of RFC 8785). */
export function canonicalJson(value: JsonValue): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** base64url without padding of the UTF-8 bytes of the JCS of a value: how `request`, `opaque` and credentials travel. */
export function jcsBase64url(value: JsonValue): string {
  return encodeBase64url(new TextEncoder().encode(canonicalJson(value)));
}

/** The JCS of a value, or null where JCS has no encoding for it (a lone surrogate, a number out of range). Never throws. */
export function tryCanonicalJson(value: unknown): string | null {
  try {
    return canonicalJson(value as JsonValue);
  } catch {
    return null;
  }
}
