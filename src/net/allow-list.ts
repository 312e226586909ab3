import { isIP, isIPv4, isIPv6 } from 'node:net';
import { classifyIp, unmapIpv4 } from './addresses.js';
import { parseIpAddress } from './ip-address.js';
import { addressPrefix, makePrefix, parsePrefix, prefixContains, type IpPrefix } from './prefix.js';

/** One accepted allow-list entry: a range of addresses, optionally only on one port. */
export interface AllowEntry {
  readonly text: string;
  readonly range: IpPrefix;
  readonly port?: number;
}

/** Non-public addresses a deployment lets through on purpose (for example loopback fixtures). */
export interface AllowList {
  readonly entries: readonly AllowEntry[];
}

export const EMPTY_ALLOW_LIST: AllowList = Object.freeze({ entries: Object.freeze([]) });

export class AllowListError extends Error {
  constructor(
    readonly entry: string,
    readonly problem: string,
  ) {
    super(
      `Allow-list entry "${entry}" is not accepted: ${problem}. Write an IP address (127.0.0.1, ::1), ` +
        'a CIDR range (10.0.0.0/8, fc00::/7) or an address with a port (127.0.0.1:8080, [::1]:8080).',
    );
    this.name = 'AllowListError';
  }
}

/** Parses every entry; throws an AllowListError naming the first entry that is not accepted. */
export function parseAllowList(entries: readonly string[]): AllowList {
  return Object.freeze({ entries: Object.freeze(entries.map(parseAllowEntry)) });
}

export function parseAllowEntry(text: string): AllowEntry {
  const entry = text.trim();
  const fail = (problem: string): never => {
    throw new AllowListError(text, problem);
  };
  if (entry === '') return fail('it is empty');
  if (entry.includes('%')) return fail('zone indexes (%eth0) are not accepted');

  if (entry.startsWith('[')) {
    const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
    if (!bracketed || !isIPv6(bracketed[1] ?? '')) return fail('the part in brackets is not an IPv6 address');
    if (bracketed[2] === undefined) return fail('a bracketed IPv6 address needs a port, e.g. [::1]:8080 (write ::1 alone to allow every port)');
    return single(text, bracketed[1] ?? '', parsePort(bracketed[2], fail));
  }
  if (entry.includes('/')) {
    const range = parsePrefix(entry);
    return typeof range === 'string' ? fail(range) : Object.freeze({ text, range: unmapPrefix(range) });
  }
  if (isIP(entry)) return single(text, entry, undefined);

  const withPort = /^([^:]*):([^:]*)$/.exec(entry);
  if (withPort && isIPv4(withPort[1] ?? '')) return single(text, withPort[1] ?? '', parsePort(withPort[2] ?? '', fail));
  if (/[a-z]/i.test(entry) && !entry.includes(':')) return fail('host names are not accepted, because a name can resolve to any address');
  return fail('it is not an IP address, a CIDR range or an address with a port');
}

function single(text: string, address: string, port: number | undefined): AllowEntry {
  const ip = parseIpAddress(address);
  if (!ip) throw new AllowListError(text, `"${address}" is not an IP address`);
  const range = unmapPrefix(addressPrefix(ip));
  return Object.freeze(port === undefined ? { text, range } : { text, range, port });
}

function parsePort(text: string, fail: (problem: string) => never): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return port >= 1 && port <= 65535 ? port : fail(`the port "${text}" must be a whole number from 1 to 65535`);
}

/** `::ffff:10.0.0.0/104` is the IPv4 range 10.0.0.0/8: entries match whichever spelling a socket reports. */
function unmapPrefix(range: IpPrefix): IpPrefix {
  if (range.family !== 6 || range.length < 96) return range;
  const unmapped = unmapIpv4(range);
  return unmapped.family === 4 ? makePrefix(unmapped, range.length - 96) : range;
}

/** Whether an entry of the list covers the address on this port. */
export function allowListCovers(list: AllowList, address: string, port: number): boolean {
  const ip = parseIpAddress(address);
  if (!ip) return false;
  const unmapped = unmapIpv4(ip);
  return list.entries.some((entry) => prefixContains(entry.range, unmapped) && (entry.port === undefined || entry.port === port));
}

/** Public addresses always; others only when the list covers them; link-local and metadata never. */
export function isAddressAllowed(address: string, port: number, list: AllowList = EMPTY_ALLOW_LIST): boolean {
  const ip = parseIpAddress(address);
  if (!ip) return false;
  const classification = classifyIp(ip);
  if (classification.alwaysBlocked) return false;
  return classification.public || allowListCovers(list, address, port);
}
