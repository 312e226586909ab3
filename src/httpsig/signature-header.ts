import { isInnerList, type Dictionary } from 'structured-headers';
import { parseDictionary } from './sf-parse.js';

/** Signature (RFC 9421 §4.2): one Byte Sequence per label. Null when not a dictionary of Byte Sequences. */
export function parseSignatureHeader(raw: string): Map<string, Uint8Array> | null {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(raw);
  } catch {
    return null;
  }
  const out = new Map<string, Uint8Array>();
  for (const [label, member] of dictionary) {
    if (isInnerList(member) || !(member[0] instanceof ArrayBuffer)) return null;
    out.set(label, new Uint8Array(member[0]));
  }
  return out;
}
