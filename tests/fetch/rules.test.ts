import { describe, expect, it } from 'vitest';
import {
  fetchRules,
  judgeAddress,
  judgeBodySize,
  judgeDeclaredLength,
  judgeElapsed,
  judgeStatus,
  judgeUrl,
  mediaTypeOf,
  refuseAddresses,
  type FetchRules,
  type FetchTarget,
} from '../../src/fetch/rules.js';
import { parseAllowList } from '../../src/net/index.js';
import { LIMITS, MEDIA_TYPES } from '../../src/spec/index.js';

const strict = fetchRules();
const insecure = fetchRules({ allowInsecureLoopback: true });

function target(url: string, rules: FetchRules = strict): FetchTarget {
  const judged = judgeUrl(url, rules);
  if (!judged.ok) throw new Error(judged.detail);
  return judged.target;
}

describe('fetchRules', () => {
  it('defaults to the limits of section 8 and nothing insecure', () => {
    expect(strict).toMatchObject({ timeoutMs: LIMITS.documentFetchTimeout.value, maxBytes: LIMITS.documentSize.value, allowInsecureLoopback: false });
    expect(strict.maxBytes).toBe(64 * 1024);
    expect(strict.timeoutMs).toBe(5000);
    expect(strict.allowList.entries).toEqual([]);
  });
});

describe('judgeUrl', () => {
  it('accepts https and says where it goes', () => {
    expect(target('https://agents.example/a/.well-known/jwks.json')).toMatchObject({ secure: true, hostname: 'agents.example', port: 443 });
    expect(target('https://[::1]:8443/x')).toMatchObject({ hostname: '::1', port: 8443, literalAddress: '::1' });
    expect(target('https://127.1/x').literalAddress).toBe('127.0.0.1');
  });

  it.each([
    ['http://agents.example/x', strict, 'not-https'],
    ['http://127.0.0.1/x', strict, 'not-https'],
    ['http://10.0.0.1/x', insecure, 'not-https'],
    ['http://[2001:db8::1]/x', insecure, 'not-https'],
    ['ftp://agents.example/x', insecure, 'not-https'],
    ['file:///etc/passwd', strict, 'not-https'],
    ['/relative/path', strict, 'invalid-url'],
    ['https://user:secret@agents.example/x', strict, 'invalid-url'],
  ] as const)('refuses %s', (url, rules, reason) => {
    expect(judgeUrl(url, rules)).toMatchObject({ ok: false, url, reason });
  });

  it('lets plain http through to loopback literals and to names (judged at connect time) when insecure', () => {
    expect(target('http://127.0.0.1:8080/x', insecure)).toMatchObject({ secure: false, port: 8080 });
    expect(target('http://[::1]/x', insecure)).toMatchObject({ secure: false, port: 80 });
    expect(target('http://fixtures.localhost/x', insecure).literalAddress).toBeUndefined();
  });

  it('explains what to do about plain http', () => {
    const refused = judgeUrl('http://agents.example/x', strict);
    expect(!refused.ok && refused.detail).toBe(
      'http://agents.example/x uses plain http; key sets and agent cards are fetched over https only (plain http to loopback needs --allow-insecure-fixtures, for local testing only)',
    );
  });
});

describe('judgeAddress', () => {
  const allowTen = fetchRules({ allowList: parseAllowList(['10.0.0.0/8', '127.0.0.1:8443']) });
  it.each([
    ['8.8.8.8', true, strict, undefined],
    ['2606:4700:4700::1111', true, strict, undefined],
    ['127.0.0.1', true, strict, 'address-refused'],
    ['127.0.0.1', true, insecure, undefined],
    ['::1', true, insecure, undefined],
    ['::ffff:127.0.0.1', true, insecure, undefined],
    ['10.0.0.1', true, insecure, 'address-refused'],
    ['10.0.0.1', true, allowTen, undefined],
    ['127.0.0.1', true, allowTen, undefined],
    ['169.254.169.254', true, allowTen, 'address-refused'],
    ['169.254.169.254', false, insecure, 'address-refused'],
    ['127.0.0.1', false, insecure, undefined],
    ['8.8.8.8', false, insecure, 'not-https'],
    ['10.0.0.1', false, allowTen, 'not-https'],
    ['not-an-address', true, insecure, 'address-refused'],
  ] as const)('%s over %s', (address, secure, rules, reason) => {
    expect(judgeAddress(address, 8443, secure, rules)?.reason).toBe(reason);
  });

  it('honours the port of an allow-list entry', () => {
    expect(judgeAddress('127.0.0.1', 8444, true, allowTen)?.reason).toBe('address-refused');
  });

  it('writes one sentence naming every refused address and what to do', () => {
    const named = target('https://agents.example/.well-known/jwks.json');
    const refusals = ['10.0.0.1', '::1'].map((address) => judgeAddress(address, 443, true, strict)!);
    expect(refuseAddresses(named, refusals, strict)).toEqual({
      ok: false,
      url: named.url,
      reason: 'address-refused',
      detail:
        'https://agents.example/.well-known/jwks.json names agents.example, which resolves only to refused addresses: 10.0.0.1 is private-use (10.0.0.0/8) ' +
        'and ::1 is loopback (::1/128); key sets and agent cards are fetched only from publicly routable addresses, never loopback, private or link-local ones ' +
        '(for local testing only, --allow-insecure-fixtures admits loopback)',
    });
  });

  it('says metadata addresses stay refused whatever the allow list', () => {
    const literal = target('https://169.254.169.254/latest');
    const failure = refuseAddresses(literal, [judgeAddress('169.254.169.254', 443, true, strict)!], strict);
    expect(failure.detail).toBe(
      'https://169.254.169.254/latest points at 169.254.169.254, which is a cloud metadata service (169.254.169.254/32); ' +
        'link-local and cloud metadata addresses are never fetched, whatever the allow list says; ' +
        'key sets and agent cards are fetched only from publicly routable addresses, never loopback, private or link-local ones',
    );
  });
});

describe('judgeStatus', () => {
  const url = 'https://a.example/.well-known/jwks.json';
  it('passes exactly 200', () => expect(judgeStatus(url, 200, {})).toBeUndefined());

  it.each([301, 302, 303, 307, 308])('refuses %i as a redirect, naming the Location', (status) => {
    expect(judgeStatus(url, status, { location: 'https://b.example/jwks.json' })).toEqual({
      ok: false,
      url,
      reason: 'redirect',
      status,
      detail: `${url} answered ${status} with Location https://b.example/jwks.json; key sets and agent cards must answer 200 directly, redirects are not followed`,
    });
  });

  it('refuses a 3xx without Location as a redirect too', () => {
    expect(judgeStatus(url, 300, {})?.detail).toContain('answered 300 without a Location');
  });

  it('clips an absurd Location', () => {
    expect(judgeStatus(url, 302, { location: `https://b.example/${'x'.repeat(5000)}` })?.detail.length).toBeLessThan(400);
  });

  it.each([201, 204, 206, 400, 401, 404, 429, 500, 503])('refuses %i as the wrong status', (status) => {
    expect(judgeStatus(url, status, {})).toMatchObject({ ok: false, reason: 'status', status });
  });
});

describe('size and time', () => {
  const url = 'https://a.example/x';
  it('allows exactly 64 KiB and refuses one byte more', () => {
    expect(judgeBodySize(url, 65536, strict)).toBeUndefined();
    expect(judgeBodySize(url, 65537, strict)).toMatchObject({ reason: 'too-large' });
    expect(judgeDeclaredLength(url, { 'content-length': '65536' }, strict)).toBeUndefined();
    expect(judgeDeclaredLength(url, { 'content-length': '65537' }, strict)).toMatchObject({ reason: 'too-large' });
    expect(judgeDeclaredLength(url, { 'content-length': 'nonsense' }, strict)).toBeUndefined();
    expect(judgeDeclaredLength(url, {}, strict)).toBeUndefined();
  });

  it('allows an answer at 5000 ms and refuses one later', () => {
    expect(judgeElapsed(url, 5000, strict)).toBeUndefined();
    expect(judgeElapsed(url, 5001, strict)).toMatchObject({ reason: 'timeout' });
  });

  it('uses the limits it is given', () => {
    const small = fetchRules({ maxBytes: 10, timeoutMs: 300 });
    expect(judgeBodySize(url, 11, small)?.detail).toContain('at most 10 bytes');
    expect(judgeElapsed(url, 301, small)?.detail).toContain('within 300 ms');
  });
});

describe('mediaTypeOf', () => {
  it.each([
    [{ 'content-type': 'application/json' }, MEDIA_TYPES.json],
    [{ 'content-type': 'Application/JSON; charset=utf-8' }, MEDIA_TYPES.json],
    [{ 'content-type': `${MEDIA_TYPES.keyDirectory}` }, MEDIA_TYPES.keyDirectory],
    [{ 'content-type': '' }, undefined],
    [{}, undefined],
  ])('%j gives %s', (headers, expected) => {
    expect(mediaTypeOf(headers)).toBe(expected);
  });
});
