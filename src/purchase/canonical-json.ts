import canonicalize from 'canonicalize';
import { encodeBase64url } from '../httpsig/base64url.js';
import type { JsonValue } from './json.js';

/** RFC 8785 JSON Canonicalization Scheme (JCS), through `canonicalize` (by an author of RFC 8785). */
export function canonicalJson(value: JsonValue): string {
  const text = canonicalize(value);
  // Stryker disable next-line all: every value the machine encodes is JSON it built or parsed; canonicalize answers undefined only for undefined or a function, a programming mistake.
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** base64url without padding of the UTF-8 bytes of the JCS of a value: how `request`, `opaque` and credentials travel. */
export function jcsBase64url(value: JsonValue): string {
  return encodeBase64url(new TextEncoder().encode(canonicalJson(value)));
}

// Stryker disable all: told only to the library's callers (a credential's canonical flag) and to the judge's reading of a challenge (challenge-parse.ts, held by its unit tests); no answer of a deployment depends on it.
/** The JCS of a value, or null where JCS has no encoding for it (a lone surrogate, a number out of range). Never throws. */
export function tryCanonicalJson(value: unknown): string | null {
  try {
    return canonicalJson(value as JsonValue);
  } catch {
    return null;
  }
}
// Stryker restore all
