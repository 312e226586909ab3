import { formatIpv4, parseIpAddress, type IpAddress } from './ip-address.js';
import { prefixContains } from './prefix.js';
import { IPV4_MAPPED, IPV4_SPECIAL_RANGES, IPV6_GLOBAL_UNICAST, IPV6_SPECIAL_RANGES } from './special-ranges.js';

export interface AddressClassification {
  /** Publicly routable: a document may be fetched from it. */
  readonly public: boolean;
  /** Refused even when an allow list covers it (link-local, cloud metadata services). */
  readonly alwaysBlocked: boolean;
  /** For a non-public address, what it is, e.g. "loopback (127.0.0.0/8)". */
  readonly range?: string;
}

const PUBLIC: AddressClassification = Object.freeze({ public: true, alwaysBlocked: false });

/** Classifies an IP address string in any spelling Node accepts; throws a TypeError for anything else. */
export function classifyAddress(address: string): AddressClassification {
  const ip = parseIpAddress(address);
  if (!ip) throw new TypeError(`"${address}" is not an IP address`);
  return classifyIp(ip);
}

export function classifyIp(ip: IpAddress): AddressClassification {
  const ranges = ip.family === 4 ? IPV4_SPECIAL_RANGES : IPV6_SPECIAL_RANGES;
  const match = ranges.find((special) => prefixContains(special.range, ip));
  if (match?.embedsIpv4At !== undefined) {
    const embedded: IpAddress = { family: 4, bytes: ip.bytes.slice(match.embedsIpv4At, match.embedsIpv4At + 4) };
    const inner = classifyIp(embedded);
    if (inner.public) return PUBLIC;
    return { ...inner, range: `the ${match.name} (${match.cidr}) form of ${formatIpv4(embedded.bytes)}, which is ${inner.range}` };
  }
  if (match) return { public: false, alwaysBlocked: match.alwaysBlocked, range: `${match.name} (${match.cidr})` };
  if (ip.family === 6 && !prefixContains(IPV6_GLOBAL_UNICAST.range, ip)) {
    return { public: false, alwaysBlocked: false, range: `outside the IPv6 global unicast space (${IPV6_GLOBAL_UNICAST.cidr})` };
  }
  return PUBLIC;
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) reaches; other addresses unchanged. */
export function unmapIpv4(ip: IpAddress): IpAddress {
  if (prefixContains(IPV4_MAPPED.range, ip)) return { family: 4, bytes: ip.bytes.slice(12) };
  return ip;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms: what `--allow-insecure-fixtures` lets through. */
export function isLoopbackAddress(address: string): boolean {
  const ip = parseIpAddress(address);
  if (!ip) return false;
  const unmapped = unmapIpv4(ip);
  if (unmapped.family === 4) return unmapped.bytes[0] === 127;
  return unmapped.bytes.every((byte, i) => byte === (i === 15 ? 1 : 0));
}
