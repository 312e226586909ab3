import { describe, expect, it } from 'vitest';
import { deriveAuthority, derivePath, deriveQuery } from '../../src/httpsig/index.js';

describe('@authority (RFC 9421 §2.2.3)', () => {
  it.each([
    ['https://Example.COM:443/p', 'example.com'],
    ['https://example.com:8443/p', 'example.com:8443'],
    ['http://example.com:80/', 'example.com'],
    ['http://example.com:443/', 'example.com:443'],
    ['https://example.com:80/', 'example.com:80'],
    ['https://[2001:DB8::1]:443/x', '[2001:db8::1]'],
    ['https://[::1]:8443/x', '[::1]:8443'],
    ['https://robutler.ai/api/auth/cli/token', 'robutler.ai'],
  ])('%s -> %s', (url, authority) => {
    expect(deriveAuthority(url)).toBe(authority);
  });

  it('takes a URL object too', () => {
    expect(deriveAuthority(new URL('https://EXAMPLE.com:443'))).toBe('example.com');
  });
});

describe('@path (RFC 9421 §2.2.6)', () => {
  it.each([
    ['https://example.com', '/'],
    ['https://example.com?a=1', '/'],
    ['https://example.com/', '/'],
    ['https://example.com/a%2Fb', '/a%2Fb'],
    ['https://example.com/%7euser/%7Eother', '/%7euser/%7Eother'],
    ['https://example.com/foo?param=Value&Pet=dog', '/foo'],
    ['https://example.com/a/./b/../c', '/a/c'],
  ])('%s -> %s', (url, path) => {
    expect(derivePath(url)).toBe(path);
  });
});

describe('@query (RFC 9421 §2.2.7)', () => {
  it.each([
    ['https://example.com/p', '?'],
    ['https://example.com/p?', '?'],
    ['https://example.com/path?param=value&foo=bar&baz=bat%2Dman', '?param=value&foo=bar&baz=bat%2Dman'],
    ['https://example.com/foo?param=Value&Pet=dog', '?param=Value&Pet=dog'],
    ['https://example.com/p?a=%20b#frag', '?a=%20b'],
  ])('%s -> %s', (url, query) => {
    expect(deriveQuery(url)).toBe(query);
  });
});
