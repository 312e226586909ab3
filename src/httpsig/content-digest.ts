import { hash, timingSafeEqual } from 'node:crypto';
import { isInnerList, serializeDictionary, type Dictionary, type Item } from 'structured-headers';
import { parseDictionary } from './sf-parse.js';
import { DIGEST_ALGORITHMS, type DigestAlgorithm } from '../spec/index.js';

const NODE_HASH: Readonly<Record<DigestAlgorithm, string>> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

/** One-shot hashing (node:crypto `hash`, Node 20.12+): the same digest as createHash().update().digest(), without the Hash object. */
const digest = (algorithm: DigestAlgorithm, body: Uint8Array): Buffer => hash(NODE_HASH[algorithm], body, 'buffer');

const isSupported = (key: string): key is DigestAlgorithm => (DIGEST_ALGORITHMS as readonly string[]).includes(key);

/** RFC 9530 Content-Digest over the exact body bytes, e.g. `sha-256=:<base64>:`. */
export function contentDigestHeader(body: Uint8Array, algorithms: readonly DigestAlgorithm[] = ['sha-256']): string {
  const members = new Map<string, Item>(algorithms.map((a) => [a, [digest(a, body), new Map()]]));
  return serializeDictionary(members);
}

export type DigestCheck =
  | { ok: true; algorithms: DigestAlgorithm[] }
  | { ok: false; reason: 'unparseable' | 'no-supported-algorithm' | 'mismatch'; detail: string };

/**
 * Every sha-256 / sha-512 member must match the body (RFC 9421 §7.2.8: the signature covers only the
 * header, so the body has to be hashed here). Other algorithms are ignored, as RFC 9530 allows.
 */
export function checkContentDigest(headerValue: string, body: Uint8Array): DigestCheck {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(headerValue);
  } catch {
    return { ok: false, reason: 'unparseable', detail: 'Content-Digest is not a structured-field dictionary' };
  }
  const checked: DigestAlgorithm[] = [];
  for (const [key, member] of dictionary) {
    if (!isSupported(key)) continue;
    if (isInnerList(member) || !(member[0] instanceof ArrayBuffer)) {
      return { ok: false, reason: 'unparseable', detail: `Content-Digest member ${key} is not a byte sequence` };
    }
    const claimed = new Uint8Array(member[0]);
    const actual = digest(key, body);
    if (claimed.length !== actual.length || !timingSafeEqual(claimed, actual)) {
      return { ok: false, reason: 'mismatch', detail: `Content-Digest ${key} does not match the body` };
    }
    checked.push(key);
  }
  if (checked.length === 0) {
    return { ok: false, reason: 'no-supported-algorithm', detail: `Content-Digest carries none of ${DIGEST_ALGORITHMS.join(', ')}` };
  }
  return { ok: true, algorithms: checked };
}
