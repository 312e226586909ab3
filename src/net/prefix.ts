import { parseIpAddress, type IpAddress } from './ip-address.js';

/** An address range in CIDR form: the first `length` bits of `bytes` are fixed, the rest are zero. */
export interface IpPrefix {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  readonly length: number;
}

/** Parses `a.b.c.d/n` or `x::y/n`. Returns a sentence saying what is wrong instead of a prefix. */
export function parsePrefix(text: string): IpPrefix | string {
  const slash = text.indexOf('/');
  if (slash < 0) return `"${text}" has no "/length"`;
  const base = parseIpAddress(text.slice(0, slash));
  const lengthText = text.slice(slash + 1);
  if (!base || text.includes('%')) return `"${text.slice(0, slash)}" is not an IP address`;
  const maxLength = base.family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(lengthText) || Number(lengthText) > maxLength) {
    return `the prefix length "${lengthText}" must be a whole number from 0 to ${maxLength}`;
  }
  const prefix: IpPrefix = { ...base, length: Number(lengthText) };
  if (!hasZeroHostBits(prefix)) return `it has host bits set beyond /${prefix.length}; write the network address of the range`;
  return prefix;
}

/** Parses a CIDR the code itself spells (the tables of special ranges); throws when it is malformed. */
export function prefix(text: string): IpPrefix {
  const parsed = parsePrefix(text);
  if (typeof parsed === 'string') throw new Error(`bad built-in range ${text}: ${parsed}`);
  return parsed;
}

export function addressPrefix(address: IpAddress): IpPrefix {
  return { ...address, length: address.family === 4 ? 32 : 128 };
}

export function prefixContains(range: IpPrefix, address: IpAddress): boolean {
  if (range.family !== address.family) return false;
  return bitsEqual(range.bytes, address.bytes, range.length);
}

function hasZeroHostBits(range: IpPrefix): boolean {
  return bitsEqual(range.bytes, new Uint8Array(range.bytes.length), range.bytes.length * 8, range.length);
}

/** Whether bits [from, to) of `a` and `b` are equal. */
function bitsEqual(a: Uint8Array, b: Uint8Array, to: number, from = 0): boolean {
  for (let bit = from; bit < to; bit++) {
    const mask = 0x80 >> (bit % 8);
    const byte = bit >> 3;
    if (((a[byte] ?? 0) & mask) !== ((b[byte] ?? 0) & mask)) return false;
  }
  return true;
}
