import { describe, expect, it } from 'vitest';
import { allowListCovers, isAddressAllowed, parseAllowEntry, parseAllowList } from '../../src/net/index.js';

describe('allow list', () => {
  it('matches an IPv4 entry whichever spelling the socket reports', () => {
    const list = parseAllowList(['127.0.0.1:8080', '10.0.0.0/8']);
    expect(isAddressAllowed('::ffff:127.0.0.1', 8080, list)).toBe(true);
    expect(isAddressAllowed('::ffff:7f00:1', 8081, list)).toBe(false);
    expect(isAddressAllowed('::ffff:10.9.8.7', 443, list)).toBe(true);
  });

  it('reads IPv4-mapped entries as IPv4 ranges', () => {
    const list = parseAllowList(['::ffff:10.0.0.0/104']);
    expect(allowListCovers(list, '10.200.0.1', 443)).toBe(true);
    expect(allowListCovers(list, '11.0.0.1', 443)).toBe(false);
  });

  it('matches IPv6 ranges and bracketed ports', () => {
    const list = parseAllowList(['fc00::/7', '[fe80::1]:443', '[::1]:8443']);
    expect(isAddressAllowed('fd12:3456::1', 1, list)).toBe(true);
    expect(isAddressAllowed('::1', 8443, list)).toBe(true);
    expect(isAddressAllowed('::1', 8444, list)).toBe(false);
    // Link-local stays blocked although an entry names it.
    expect(isAddressAllowed('fe80::1', 443, list)).toBe(false);
  });

  it('never admits metadata services, even through ::/0 or 0.0.0.0/0', () => {
    const list = parseAllowList(['0.0.0.0/0', '::/0']);
    for (const address of ['169.254.169.254', '100.100.100.200', 'fd00:ec2::254', '::ffff:169.254.169.254', '2002:a9fe:a9fe::1']) {
      expect(isAddressAllowed(address, 80, list)).toBe(false);
    }
    expect(isAddressAllowed('192.168.1.1', 80, list)).toBe(true);
    expect(isAddressAllowed('fd00::1', 80, list)).toBe(true);
  });

  it('admits public addresses without entries and refuses what is not an address', () => {
    expect(isAddressAllowed('8.8.8.8', 443)).toBe(true);
    expect(isAddressAllowed('127.0.0.1', 443)).toBe(false);
    expect(isAddressAllowed('localhost', 443, parseAllowList(['127.0.0.1']))).toBe(false);
  });

  it('accepts surrounding spaces and keeps the entry text', () => {
    expect(parseAllowEntry(' 127.0.0.1:8080 ')).toMatchObject({ text: ' 127.0.0.1:8080 ', port: 8080 });
  });

  it.each([
    ['localhost', 'host names are not accepted'],
    ['10.0.0.0/33', 'from 0 to 32'],
    ['fc00::/129', 'from 0 to 128'],
    ['10.0.0.1/8', 'host bits'],
    ['127.0.0.1:0', 'from 1 to 65535'],
    ['127.0.0.1:70000', 'from 1 to 65535'],
    ['127.0.0.1:', 'from 1 to 65535'],
    ['[::1]', 'needs a port'],
    ['[::1]:', 'from 1 to 65535'],
    ['[127.0.0.1]:80', 'not an IPv6 address'],
    ['::1:8080x', 'not an IP address'],
    ['fe80::1%eth0', 'zone'],
    ['', 'empty'],
  ])('rejects %j: %s', (entry, problem) => {
    expect(() => parseAllowEntry(entry)).toThrow(problem);
  });
});
