import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkBareDomain } from '../../src/widgets/csp/bare-domain.js';

/** What the WHATWG URL parser makes of `s` as a host: the hostname, or undefined when it throws. */
function urlHost(s: string): string | undefined {
  try {
    return new URL(`http://${s}`).hostname;
  } catch {
    return undefined;
  }
}

const isIpHost = (host: string): boolean => host.startsWith('[') || isIP(host) !== 0;

// Characters that make hosts interesting to a URL parser: digits, hex, dots, colons, brackets, escapes, look-alikes.
const tricky = fc.constantFrom(...'0123456789abcdefx.:-[]%@/\tAXz\u3002\uFF0E_'.split(''));
const trickyString = fc.array(tricky, { maxLength: 24 }).map((cs) => cs.join(''));
const numberPart = fc.oneof(
  fc.nat(0xffffffff).map((n) => String(n)),
  fc.nat(0xffffffff).map((n) => `0x${n.toString(16)}`),
  fc.nat(0xffffffff).map((n) => `0${n.toString(8)}`),
);
const numericHost = fc.array(numberPart, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.'));

describe('the bare-domain validator against the URL parser', () => {
  test('never accepts what new URL("http://" + s) turns into an IP host, and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(trickyString, numericHost, fc.string(), fc.domain(), fc.ipV4(), fc.ipV4Extended(), fc.ipV6()), (s) => {
        const verdict = checkBareDomain(s);
        if (!verdict.ok) return;
        const host = urlHost(s);
        expect(host, `accepted ${JSON.stringify(s)}, which the URL parser refuses`).toBeDefined();
        expect(isIpHost(host!), `accepted ${JSON.stringify(s)}, which the URL parser reads as ${host}`).toBe(false);
        // Accepted means already canonical: the parser changes nothing.
        expect(host).toBe(s);
      }),
      { numRuns: 3000 },
    );
  });

  test('rejects every IPv4 spelling as an IP literal, bare or with a trailing dot', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV4Extended(), numericHost), fc.boolean(), (ip, dot) => {
        const verdict = checkBareDomain(dot ? `${ip}.` : ip);
        expect(verdict.ok).toBe(false);
        if (!verdict.ok && urlHost(ip) !== undefined && isIpHost(urlHost(ip)!)) expect(verdict.reason).toBe('ip-literal');
      }),
    );
  });

  test('rejects every IPv6 address, bare, bracketed, with a port or IPv4-mapped', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.ipV4(), fc.constantFrom('bare', 'bracketed', 'port', 'mapped'), (ip6, ip4, form) => {
        const s = { bare: ip6, bracketed: `[${ip6}]`, port: `[${ip6}]:443`, mapped: `::ffff:${ip4}` }[form];
        const verdict = checkBareDomain(s);
        expect(verdict.ok ? 'accepted' : verdict.reason).toBe('ip-literal');
      }),
    );
  });

  test('accepts generated lowercase domains whose last label is a name, unchanged by the URL parser', () => {
    const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => l.slice(2, 4) !== '--');
    const tld = fc.stringMatching(/^[a-z]{2,6}$/).filter((t) => t !== 'local' && t !== 'localhost');
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), tld, (labels, last) => {
        const s = [...labels, last].join('.');
        expect(checkBareDomain(s)).toEqual({ ok: true });
        expect(urlHost(s)).toBe(s);
      }),
    );
  });

  test('any value at all, string or not, gets a verdict with a message', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const verdict = checkBareDomain(value);
        if (!verdict.ok) expect(verdict.message.length).toBeGreaterThan(0);
      }),
    );
  });
});
