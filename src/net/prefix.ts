import { BlockList } from 'node:net';
import { formatIpAddress, parseIpAddress, type IpAddress } from './ip-address.js';

/**
 * An address range in CIDR form: the first `length` bits of `bytes` are fixed, the rest are zero. Membership is
 * decided by Node's own `BlockList` (the socket layer's range matcher), never by bit arithmetic of ours.
 */
export interface IpPrefix {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  readonly length: number;
  readonly blockList: BlockList;
}

const FAMILY = { 4: 'ipv4', 6: 'ipv6' } as const;

/** The range of `length` bits at `base` (whose host bits the caller has checked are zero). */
export function makePrefix(base: IpAddress, length: number): IpPrefix {
  const blockList = new BlockList();
  blockList.addSubnet(formatIpAddress(base), length, FAMILY[base.family]);
  return Object.freeze({ family: base.family, bytes: base.bytes, length, blockList });
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
  const length = Number(lengthText);
  if (!hasZeroHostBits(base.bytes, length)) return `it has host bits set beyond /${length}; write the network address of the range`;
  return makePrefix(base, length);
}

/** Parses a CIDR the code itself spells (the tables of special ranges); throws when it is malformed. */
export function prefix(text: string): IpPrefix {
  const parsed = parsePrefix(text);
  if (typeof parsed === 'string') throw new Error(`bad built-in range ${text}: ${parsed}`);
  return parsed;
}

export function addressPrefix(address: IpAddress): IpPrefix {
  return makePrefix(address, address.family === 4 ? 32 : 128);
}

/**
 * Whether the range holds the address, in the same family only: BlockList would also match an IPv4 rule against an
 * IPv4-mapped IPv6 address, and the callers unmap on purpose (src/net/addresses.ts) so that the reason names the form.
 */
export function prefixContains(range: IpPrefix, address: IpAddress): boolean {
  return range.family === address.family && range.blockList.check(formatIpAddress(address), FAMILY[address.family]);
}

/** Input validation of an allow-list range: every bit past `length` is zero (10.0.0.0/8, not 10.1.2.3/8). */
function hasZeroHostBits(bytes: Uint8Array, length: number): boolean {
  return bytes.every((byte, i) => {
    const fixed = Math.min(8, Math.max(0, length - 8 * i));
    return (byte & (0xff >> fixed)) === 0;
  });
}
