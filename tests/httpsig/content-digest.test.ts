import { describe, expect, it } from 'vitest';
import { checkContentDigest, contentDigestHeader } from '../../src/httpsig/index.js';
import { utf8 } from './fixtures.js';

// RFC 9421 B.2, RFC 9530 section 2 and Appendix B, recomputed with node:crypto.
interface Row {
  body: string;
  sha256: string;
  sha512?: string;
}
const TABLE: Row[] = [
  {
    body: '{"hello": "world"}',
    sha256: 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
    sha512: 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
  },
  {
    body: '{"hello": "world"}\n',
    sha256: 'sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:',
    sha512: 'sha-512=:YMAam51Jz/jOATT6/zvHrLVgOYTGFy1d6GJiOHTohq4yP+pgk4vf2aCsyRZOtw8MjkM7iw7yZ/WkppmM44T3qg==:',
  },
  {
    body: '',
    sha256: 'sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:',
    sha512: 'sha-512=:z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==:',
  },
  {
    body: '{"message": "good dog"}',
    sha256: 'sha-256=:z0bm/K2/kBiAHdTk/FHlB2NyoHqaTdzCA9k+jeJ0ezA=:',
    sha512: 'sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:',
  },
  // docs/platform-sdk.md a): the SDK's digest of the body {}.
  { body: '{}', sha256: 'sha-256=:RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=:' },
];

describe('contentDigestHeader (RFC 9530)', () => {
  it.each(TABLE.map((row) => [JSON.stringify(row.body), row] as const))('body %s', (_name, row) => {
    const body = utf8(row.body);
    expect(contentDigestHeader(body)).toBe(row.sha256);
    expect(contentDigestHeader(body, ['sha-256'])).toBe(row.sha256);
    if (row.sha512 !== undefined) {
      expect(contentDigestHeader(body, ['sha-512'])).toBe(row.sha512);
      expect(contentDigestHeader(body, ['sha-256', 'sha-512'])).toBe(`${row.sha256}, ${row.sha512}`);
    }
  });
});

describe('checkContentDigest', () => {
  const hello = { ...(TABLE[0] as Row), sha512: TABLE[0]?.sha512 ?? '' };
  const empty = { ...(TABLE[2] as Row), sha512: TABLE[2]?.sha512 ?? '' };
  const body = utf8(hello.body);

  it('accepts each supported algorithm alone and together', () => {
    expect(checkContentDigest(hello.sha256, body)).toEqual({ ok: true, algorithms: ['sha-256'] });
    expect(checkContentDigest(hello.sha512, body)).toEqual({ ok: true, algorithms: ['sha-512'] });
    expect(checkContentDigest(`${hello.sha512},${hello.sha256}`, body)).toEqual({ ok: true, algorithms: ['sha-512', 'sha-256'] });
    expect(checkContentDigest(empty.sha256, new Uint8Array())).toEqual({ ok: true, algorithms: ['sha-256'] });
  });

  it('ignores algorithms it does not support and parameters on members', () => {
    expect(checkContentDigest(`md5=:AAAA:, ${hello.sha256};x=1, unixsum=12`, body)).toEqual({ ok: true, algorithms: ['sha-256'] });
  });

  it('refuses when any supported member differs from the body', () => {
    expect(checkContentDigest(hello.sha256, utf8('{"hello": "world"}\n'))).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(checkContentDigest(`${hello.sha256}, ${empty.sha512}`, body)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(checkContentDigest('sha-256=:AAAA:', body)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(checkContentDigest(empty.sha256, body)).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it.each([
    ['not a dictionary', 'sha-256=:abc'],
    ['a bare byte sequence', ':X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:'],
    ['a trailing comma', `${'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:'},`],
    ['a String value', 'sha-256="X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE="'],
    ['an inner list value', 'sha-256=(:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:)'],
    ['a bare key', 'sha-256'],
  ])('%s is unparseable', (_name, header) => {
    expect(checkContentDigest(header, body)).toMatchObject({ ok: false, reason: 'unparseable' });
  });

  it.each([
    ['only md5', 'md5=:AAAA:'],
    ['an empty header', ''],
    ['a deprecated algorithm only', 'unixcksum=1'],
  ])('%s has no supported algorithm', (_name, header) => {
    expect(checkContentDigest(header, body)).toMatchObject({ ok: false, reason: 'no-supported-algorithm' });
  });

  it('upper-case algorithm names are not SF keys at all', () => {
    expect(checkContentDigest('SHA-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:', body)).toMatchObject({ ok: false, reason: 'unparseable' });
  });
});
