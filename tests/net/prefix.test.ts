import { describe, expect, it } from 'vitest';
import { classifyAddress, parseAllowList, allowListCovers } from '../../src/net/index.js';
import { parseIpAddress } from '../../src/net/ip-address.js';
import { parsePrefix, prefixContains, type IpPrefix } from '../../src/net/prefix.js';

const range = (cidr: string): IpPrefix => {
  const parsed = parsePrefix(cidr);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};
const holds = (cidr: string, address: string): boolean => prefixContains(range(cidr), parseIpAddress(address)!);

describe('prefixContains (node:net BlockList underneath)', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0', true],
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['100.64.0.0/10', '100.127.255.255', true],
    ['100.64.0.0/10', '100.128.0.0', false],
    ['0.0.0.0/0', '203.0.113.9', true],
    ['192.0.2.7/32', '192.0.2.7', true],
    ['192.0.2.7/32', '192.0.2.8', false],
  ])('IPv4: %s holds %s: %s', (cidr, address, expected) => expect(holds(cidr, address)).toBe(expected));

  it.each([
    ['fe80::/10', 'fe80::1', true],
    ['fe80::/10', 'FEBF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF', true],
    ['fe80::/10', 'fec0::', false],
    ['fc00::/7', 'fdff:0000:0000::0001', true],
    ['2001:db8::/32', '2001:0db8:ffff::', true],
    ['2001:db8::/32', '2001:db9::', false],
    ['::1/128', '0:0:0:0:0:0:0:1', true],
    ['::1/128', '::0.0.0.1', true],
    ['::/128', '::1', false],
  ])('IPv6: %s holds %s: %s', (cidr, address, expected) => expect(holds(cidr, address)).toBe(expected));

  it.each([
    ['::ffff:0:0/96', '::ffff:127.0.0.1', true],
    ['::ffff:0:0/96', '::ffff:7f00:1', true],
    ['::ffff:0:0/96', '::127.0.0.1', false],
    ['::ffff:10.0.0.0/104', '::ffff:10.1.2.3', true],
    ['::ffff:10.0.0.0/104', '::ffff:11.0.0.0', false],
  ])('IPv4-mapped IPv6: %s holds %s: %s', (cidr, address, expected) => expect(holds(cidr, address)).toBe(expected));

  it('keeps the families apart: an IPv4 range never holds an IPv6 address, mapped or not, and the reverse', () => {
    expect(holds('127.0.0.0/8', '::ffff:127.0.0.1')).toBe(false);
    expect(holds('::ffff:0:0/96', '127.0.0.1')).toBe(false);
    expect(holds('::/0', '127.0.0.1')).toBe(false);
  });

  it('an IPv4-mapped address is judged by the IPv4 address it reaches', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toMatchObject({ public: false, range: expect.stringContaining('loopback (127.0.0.0/8)') });
    expect(classifyAddress('::ffff:a9fe:a9fe')).toMatchObject({ public: false, alwaysBlocked: true });
    expect(classifyAddress('::ffff:8.8.8.8')).toEqual({ public: true, alwaysBlocked: false });
  });

  it('an allow-list range matches whichever spelling a socket reports', () => {
    const list = parseAllowList(['::ffff:10.0.0.0/104', 'fc00::/7']);
    expect(allowListCovers(list, '10.9.8.7', 443)).toBe(true);
    expect(allowListCovers(list, '::ffff:10.9.8.7', 443)).toBe(true);
    expect(allowListCovers(list, 'FD12::1', 443)).toBe(true);
    expect(allowListCovers(list, '11.0.0.1', 443)).toBe(false);
  });

  it('refuses a range with host bits set, in either family', () => {
    expect(parsePrefix('10.1.0.0/8')).toMatch(/host bits set beyond \/8/);
    expect(parsePrefix('10.0.0.1/31')).toMatch(/host bits set beyond \/31/);
    expect(parsePrefix('fe80::1/10')).toMatch(/host bits set beyond \/10/);
    expect(typeof parsePrefix('11.0.0.0/7')).toBe('string');
    expect(typeof parsePrefix('10.0.0.0/7')).toBe('object');
    expect(typeof parsePrefix('10.0.0.0/8')).toBe('object');
  });
});
