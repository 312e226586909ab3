import { describe, expect, it } from 'vitest';
import { isToken, parseAuthenticate, quotedString } from '../../src/purchase/index.js';
import { assertQuotable, isQuotable } from '../../src/purchase/wire/quotable.js';

describe('parseAuthenticate (RFC 9110 section 11)', () => {
  it('reads several challenges from one comma-joined value', () => {
    expect(parseAuthenticate('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"')).toEqual({
      ok: true,
      challenges: [
        {
          scheme: 'Newauth',
          params: [
            ['realm', 'apps'],
            ['type', '1'],
            ['title', 'Login to "apps"'],
          ],
        },
        { scheme: 'Basic', params: [['realm', 'simple']] },
      ],
    });
  });

  it('reads a bare scheme, a token68 and empty list elements', () => {
    expect(parseAuthenticate(' , Negotiate, , Basic dXNlcjpwYXNz==,Bearer')).toEqual({
      ok: true,
      challenges: [
        { scheme: 'Negotiate', params: [] },
        { scheme: 'Basic', token68: 'dXNlcjpwYXNz==', params: [] },
        { scheme: 'Bearer', params: [] },
      ],
    });
  });

  it('lower-cases parameter names, keeps duplicates, allows BWS around "="', () => {
    expect(parseAuthenticate('Payment ID = "a" , id=b')).toEqual({
      ok: true,
      challenges: [
        {
          scheme: 'Payment',
          params: [
            ['id', 'a'],
            ['id', 'b'],
          ],
        },
      ],
    });
  });

  it('reads an empty quoted value and obs-text, and refuses characters a field value cannot carry', () => {
    expect(parseAuthenticate('X a="", b="\u00e9"')).toMatchObject({
      ok: true,
      challenges: [
        {
          params: [
            ['a', ''],
            ['b', '\u00e9'],
          ],
        },
      ],
    });
    expect(parseAuthenticate('X a="\u0100"')).toMatchObject({ ok: false });
    expect(parseAuthenticate('X a="\u0001"')).toMatchObject({ ok: false });
    expect(parseAuthenticate('X a="b\\')).toMatchObject({ ok: false });
  });

  it.each([
    ['X a="b" c="d"', 8],
    ['X a="b', 4],
    ['X a=b c', 6],
    ['"X"', 0],
    ['X =b', 2],
    ['X\u0000', 1],
  ])('refuses %j, saying where', (value, at) => {
    expect(parseAuthenticate(value)).toMatchObject({ ok: false, at });
  });
});

describe('quotedString / isToken', () => {
  it('escapes backslash and double quote, and refuses controls', () => {
    expect(quotedString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(() => quotedString('a\nb')).toThrow(TypeError);
    expect(() => quotedString('\u2603')).toThrow(TypeError);
  });

  it('recognises tokens', () => {
    expect(isToken('Payment-Authorization')).toBe(true);
    expect(isToken('a b')).toBe(false);
    expect(isToken('')).toBe(false);
  });
});

describe('isQuotable / assertQuotable (RFC 9110 5.6.4: HTAB, SP, VCHAR, obs-text)', () => {
  it.each([
    [0x09, true],
    [0x0a, false],
    [0x1f, false],
    [0x20, true],
    [0x21, true],
    [0x7e, true],
    [0x7f, false],
    [0x80, true],
    [0xff, true],
    [0x100, false],
    [0x2603, false],
  ])('U+%s: %s', (code, quotable) => {
    expect(isQuotable(String.fromCharCode(code))).toBe(quotable);
  });

  it('names the first character a quoted-string cannot carry', () => {
    expect(() => assertQuotable('ok\tand \u00ff')).not.toThrow();
    expect(() => assertQuotable('a\u0007b\u0001')).toThrow(new TypeError('a quoted-string cannot carry U+0007'));
    expect(() => assertQuotable('\u{1f600}')).toThrow(new TypeError('a quoted-string cannot carry U+1f600'));
  });
});
