import { prefix, type IpPrefix } from './prefix.js';

/** A range that is not publicly routable, or whose routing is decided by an IPv4 address it embeds. */
export interface SpecialRange {
  readonly cidr: string;
  readonly range: IpPrefix;
  /** What a person calls it, e.g. "loopback". */
  readonly name: string;
  /** Never reachable, even through an allow list: link-local and cloud metadata services. */
  readonly alwaysBlocked: boolean;
  /** Byte offset of an embedded IPv4 address that decides the classification instead of the range. */
  readonly embedsIpv4At?: number;
}

const special = (cidr: string, name: string, extra: { alwaysBlocked?: boolean; embedsIpv4At?: number } = {}): SpecialRange =>
  Object.freeze({
    cidr,
    range: prefix(cidr),
    name,
    alwaysBlocked: extra.alwaysBlocked ?? false,
    ...(extra.embedsIpv4At === undefined ? {} : { embedsIpv4At: extra.embedsIpv4At }),
  });

const blocked = { alwaysBlocked: true };

/** IANA IPv4 special-purpose registry, plus metadata services. First match wins, so narrow ranges come first. */
export const IPV4_SPECIAL_RANGES: readonly SpecialRange[] = Object.freeze([
  special('169.254.169.254/32', 'a cloud metadata service', blocked),
  special('100.100.100.200/32', 'a cloud metadata service (Alibaba Cloud)', blocked),
  special('0.0.0.0/8', '"this network" (unspecified)'),
  special('10.0.0.0/8', 'private-use'),
  special('100.64.0.0/10', 'shared address space (carrier-grade NAT)'),
  special('127.0.0.0/8', 'loopback'),
  special('169.254.0.0/16', 'link-local', blocked),
  special('172.16.0.0/12', 'private-use'),
  special('192.0.0.0/24', 'IETF protocol assignments'),
  special('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  special('192.88.99.0/24', '6to4 relay anycast (deprecated)'),
  special('192.168.0.0/16', 'private-use'),
  special('198.18.0.0/15', 'benchmarking'),
  special('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  special('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  special('224.0.0.0/4', 'multicast'),
  special('255.255.255.255/32', 'limited broadcast'),
  special('240.0.0.0/4', 'reserved'),
]);

/** `::ffff:a.b.c.d`: a socket given this address reaches the IPv4 address a.b.c.d. */
export const IPV4_MAPPED = special('::ffff:0:0/96', 'IPv4-mapped', { embedsIpv4At: 12 });

/** IANA IPv6 special-purpose registry, plus metadata services. First match wins. */
export const IPV6_SPECIAL_RANGES: readonly SpecialRange[] = Object.freeze([
  special('::/128', 'unspecified'),
  special('::1/128', 'loopback'),
  IPV4_MAPPED,
  special('::/96', 'IPv4-compatible (deprecated)', { embedsIpv4At: 12 }),
  special('::ffff:0:0:0/96', 'IPv4-translated'),
  special('64:ff9b::/96', 'NAT64', { embedsIpv4At: 12 }),
  special('64:ff9b:1::/48', 'local-use NAT64'),
  special('100::/64', 'discard-only'),
  special('2001::/23', 'IETF protocol assignments'),
  special('2001:db8::/32', 'documentation'),
  special('2002::/16', '6to4', { embedsIpv4At: 2 }),
  special('3fff::/20', 'documentation'),
  special('5f00::/16', 'segment routing (SRv6) SIDs'),
  special('fd00:ec2::254/128', 'a cloud metadata service (AWS)', blocked),
  special('fc00::/7', 'unique local'),
  special('fe80::/10', 'link-local', blocked),
  special('fec0::/10', 'site-local (deprecated)'),
  special('ff00::/8', 'multicast'),
]);

/** Every public IPv6 unicast address lies here today; anything outside is unallocated or special. */
export const IPV6_GLOBAL_UNICAST = special('2000::/3', 'global unicast');
