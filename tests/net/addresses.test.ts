import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, isLoopbackAddress, parseIpAddress } from '../../src/net/index.js';

const kind = (address: string) => {
  const { public: isPublic, alwaysBlocked } = classifyAddress(address);
  return { public: isPublic, alwaysBlocked };
};
const PUBLIC = { public: true, alwaysBlocked: false };
const PRIVATE = { public: false, alwaysBlocked: false };
const BLOCKED = { public: false, alwaysBlocked: true };

describe('classifyAddress: range edges', () => {
  it.each([
    '1.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.0',
    '192.0.3.0',
    '192.88.98.255',
    '192.88.100.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '198.51.99.255',
    '198.51.101.0',
    '203.0.112.255',
    '203.0.114.0',
    '223.255.255.255',
  ])('%s is public', (address) => expect(kind(address)).toEqual(PUBLIC));

  it.each([
    '0.255.255.255',
    '10.255.255.255',
    '100.64.0.0',
    '100.127.255.255',
    '127.0.0.0',
    '172.16.0.0',
    '192.0.0.255',
    '192.0.2.255',
    '192.168.0.0',
    '198.19.255.255',
    '203.0.113.255',
    '224.0.0.0',
    '239.255.255.255',
    '240.0.0.0',
    '254.255.255.255',
  ])('%s is not public', (address) => expect(kind(address)).toEqual(PRIVATE));

  it.each(['169.254.0.0', '169.254.255.255', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254', 'fe80::', 'febf:ffff::1'])(
    '%s is always blocked',
    (address) => expect(kind(address)).toEqual(BLOCKED),
  );

  it.each(['2001:200::1', '2001:db7:ffff::1', '2001:db9::1', '2003::1', '3ffe::1', '3fff:1000::1', '2a00:1450::1'])('%s is public', (address) =>
    expect(kind(address)).toEqual(PUBLIC),
  );

  it.each(['1fff:ffff::1', '4000::1', '2001:1ff:ffff::1', '64:ff9b:1::1', '::ffff:0:808:808', 'fec0::', 'fd00::1', 'ff0e::1', '100::ffff'])(
    '%s is not public',
    (address) => expect(kind(address)).toEqual(PRIVATE),
  );
});

describe('classifyAddress: embedded IPv4 decides', () => {
  it.each([
    ['::ffff:7f00:1', PRIVATE],
    ['0:0:0:0:0:ffff:127.0.0.1', PRIVATE],
    ['::FFFF:127.0.0.1', PRIVATE],
    ['0000:0000:0000:0000:0000:ffff:0a00:0001', PRIVATE],
    ['::ffff:a9fe:a9fe', BLOCKED],
    ['::ffff:808:808', PUBLIC],
    ['::7f00:1', PRIVATE],
    ['::808:808', PUBLIC],
    ['64:ff9b::808:808', PUBLIC],
    ['64:ff9b::127.0.0.1', PRIVATE],
    ['64:ff9b::169.254.169.254', BLOCKED],
    ['2002:7f00:1::', PRIVATE],
    ['2002:6464:64c8::1', BLOCKED],
    ['2002:0808:0808:ffff::1', PUBLIC],
  ] as const)('%s', (address, expected) => expect(kind(address)).toEqual(expected));

  it('explains what the embedded address is', () => {
    expect(classifyAddress('::ffff:127.0.0.1').range).toBe('the IPv4-mapped (::ffff:0:0/96) form of 127.0.0.1, which is loopback (127.0.0.0/8)');
    expect(classifyAddress('10.1.2.3').range).toBe('private-use (10.0.0.0/8)');
    expect(classifyAddress('8.8.8.8').range).toBeUndefined();
  });
});

describe('classifyAddress: spellings', () => {
  it('ignores an IPv6 zone index', () => {
    expect(kind('fe80::1%eth0')).toEqual(BLOCKED);
    expect(kind('ff02::1%1')).toEqual(PRIVATE);
  });

  it.each(['localhost', '127.1', '0x7f.0.0.1', '010.0.0.1', '[::1]', '::1/128', '1::2::3', '', ' 8.8.8.8'])(
    'refuses to classify %j, which is not an address Node would connect to as given',
    (text) => expect(() => classifyAddress(text)).toThrow(TypeError),
  );

  it('classifies every IPv6 spelling of the same bytes alike', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.boolean(), (bytes, mappedPrefix) => {
        if (mappedPrefix) bytes.set([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]);
        const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0));
        const full = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
        const upper = groups.map((g) => g.toString(16).toUpperCase()).join(':');
        const canonical = new URL(`http://[${full}]/`).hostname.slice(1, -1);
        const dotted = `${groups
          .slice(0, 6)
          .map((g) => g.toString(16))
          .join(':')}:${Array.from(bytes.subarray(12)).join('.')}`;
        const spellings = [full, upper, canonical, dotted];
        for (const spelling of spellings) expect(parseIpAddress(spelling)?.bytes).toEqual(bytes);
        const kinds = spellings.map(kind);
        expect(new Set(kinds.map((k) => JSON.stringify(k))).size).toBe(1);
      }),
      { numRuns: 500 },
    );
  });

  it('parses IPv4 to the bytes the URL parser would connect to', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        const ip = parseIpAddress(address);
        expect(ip?.family).toBe(4);
        expect(Array.from(ip?.bytes ?? []).join('.')).toBe(new URL(`http://${address}/`).hostname);
      }),
    );
  });
});

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['::127.0.0.1', false],
    ['10.0.0.1', false],
    ['::', false],
    ['localhost', false],
  ] as const)('%s: %s', (address, expected) => expect(isLoopbackAddress(address)).toBe(expected));
});
