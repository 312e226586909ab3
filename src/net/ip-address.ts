import { isIP } from 'node:net';

/** An IP address as network-order bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

/**
 * Parses every spelling Node's own parser accepts (so what we judge is what a socket would reach):
 * dotted-quad IPv4, and IPv6 compressed or not, any case, with leading zeros, an embedded dotted
 * IPv4 tail, or a zone index (`fe80::1%eth0`, the zone is dropped). Anything else is undefined.
 */
export function parseIpAddress(text: string): IpAddress | undefined {
  const family = isIP(text);
  if (family === 4) return { family: 4, bytes: parseIpv4(text) };
  if (family === 6) return { family: 6, bytes: parseIpv6(text.split('%')[0] ?? '') };
  return undefined;
}

function parseIpv4(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

function parseIpv6(text: string): Uint8Array {
  const [head = '', tail] = text.split('::');
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const zeros = new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** 16-bit groups of one side of `::`; a dotted IPv4 tail counts as two groups. */
function groupsOf(side: string): number[] {
  if (side === '') return [];
  return side.split(':').flatMap((part) => {
    if (!part.includes('.')) return [parseInt(part, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = parseIpv4(part);
    return [(a << 8) | b, (c << 8) | d];
  });
}

export function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}

/** The address in a spelling `node:net` reads: dotted quad, or eight uncompressed hexadecimal groups. */
export function formatIpAddress(ip: IpAddress): string {
  if (ip.family === 4) return formatIpv4(ip.bytes);
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((ip.bytes[i] ?? 0) << 8) | (ip.bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':');
}
