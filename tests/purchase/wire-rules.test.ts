import { describe, expect, it } from 'vitest';
import { challengeFromMembers, parseAuthenticate, parsePaymentChallenge } from '../../src/purchase/index.js';

/*
 * The readers of what a deployment sends, one rule per test: RFC 9110 section 11's challenge grammar (what is
 * refused, where, and in words that name it), and the Payment challenge's members (7.4, draft-httpauth-payment).
 */

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** The members of a Payment challenge as they would arrive, every one a well-formed string. */
const MEMBERS = {
  id: 'ch_1',
  realm: 'platform.example',
  method: 'stripe',
  intent: 'charge',
  request: b64('{"amount":"500","currency":"usd"}'),
  expires: '2026-01-15T12:05:00Z',
} as const;

describe('the auth-param grammar refuses, saying what and where (RFC 9110 11)', () => {
  it('a value that opens with no auth-scheme token', () => {
    expect(parseAuthenticate('"X"')).toEqual({ ok: false, detail: 'expected an auth-scheme token', at: 0 });
  });

  it('an auth-scheme run straight into something that is not a space', () => {
    expect(parseAuthenticate('X\u0000')).toEqual({ ok: false, detail: 'expected a space after the auth-scheme X', at: 1 });
  });

  it('a scheme followed by neither auth-params nor a token68', () => {
    expect(parseAuthenticate('X "a"')).toEqual({ ok: false, detail: 'expected auth-params or a token68 after X', at: 2 });
  });

  it('anything after a token68 but a comma', () => {
    expect(parseAuthenticate('X abc d')).toEqual({ ok: false, detail: 'unexpected character after the token68 of X', at: 6 });
  });

  it('two auth-params with no comma between them', () => {
    expect(parseAuthenticate('X a="b" c="d"')).toEqual({ ok: false, detail: 'expected "," after the a parameter', at: 8 });
  });

  it('a quoted-string that never closes, at its opening quote', () => {
    expect(parseAuthenticate('X a="b')).toEqual({ ok: false, detail: 'unterminated quoted-string', at: 4 });
  });

  it('a backslash at the very end of a quoted-string, at the backslash', () => {
    expect(parseAuthenticate('X a="b\\')).toEqual({ ok: false, detail: 'a backslash must escape a visible character, space or tab', at: 6 });
  });

  it('a backslash escaping a control character, at the backslash', () => {
    expect(parseAuthenticate('X a="\\\u0001"')).toEqual({ ok: false, detail: 'a backslash must escape a visible character, space or tab', at: 5 });
  });

  it('a control character inside a quoted-string, naming its code point', () => {
    expect(parseAuthenticate('X a="\u0001"')).toEqual({ ok: false, detail: 'character U+0001 is not allowed in a quoted-string', at: 5 });
  });
});

describe('the expires of a Payment challenge is an RFC 3339 date-time (7.4)', () => {
  it.each([
    ['the last second of a year', '2026-12-31T23:59:59Z'],
    ['a numeric offset of 23:59', '2026-01-15T12:05:00+23:59'],
    ['lower-case t and z with a fraction', '2026-01-15t12:05:00.5z'],
  ])('accepts %s', (_name, expires) => {
    expect(challengeFromMembers({ ...MEMBERS, expires })).toMatchObject({ ok: true });
  });

  it.each([
    ['hour 24 (T24:00:00)', '2026-01-15T24:00:00Z'],
    ['month 00', '2026-00-15T12:05:00Z'],
    ['day 32', '2026-01-32T12:05:00Z'],
    ['minute 60', '2026-01-15T12:60:00Z'],
    ['an offset of 24 hours', '2026-01-15T12:05:00+24:00'],
    ['an offset of 60 minutes', '2026-01-15T12:05:00+23:60'],
  ])('refuses %s', (_name, expires) => {
    expect(challengeFromMembers({ ...MEMBERS, expires })).toMatchObject({ ok: false, reason: 'expires-invalid' });
  });
});

describe('the members of a Payment challenge (7.4)', () => {
  it('refuses a member that is not a string (a credential echo is JSON)', () => {
    expect(challengeFromMembers({ ...MEMBERS, id: 7 })).toMatchObject({ ok: false, reason: 'param-not-string' });
  });

  it('refuses an opaque that is not base64url, saying the encoding is what is wrong', () => {
    const parsed = challengeFromMembers({ ...MEMBERS, opaque: '!!' });
    expect(parsed).toMatchObject({ ok: false, reason: 'opaque-invalid' });
    if (!parsed.ok) expect(parsed.detail).not.toMatch(/flat map/);
  });

  it('refuses an opaque holding a lone surrogate, which JCS cannot encode', () => {
    expect(challengeFromMembers({ ...MEMBERS, opaque: b64('{"a":"\\ud800"}') })).toMatchObject({ ok: false, reason: 'opaque-invalid' });
  });

  it('carries no optional member (header, opaque, digest, description) that did not arrive', () => {
    const parsed = challengeFromMembers(MEMBERS);
    expect(parsed.ok && Object.keys(parsed.challenge).sort()).toEqual(['expires', 'id', 'intent', 'method', 'realm', 'request']);
  });

  it('carries every optional member that arrived', () => {
    const parsed = challengeFromMembers({
      ...MEMBERS,
      header: 'Payment-Authorization',
      opaque: b64('{"k":"v"}'),
      digest: 'sha-256=:x:',
      description: 'one call',
    });
    expect(parsed).toMatchObject({
      ok: true,
      challenge: { header: 'Payment-Authorization', opaque: { k: 'v' }, digest: 'sha-256=:x:', description: 'one call' },
    });
  });

  it('calls a challenge whose members JCS cannot encode not canonical', () => {
    expect(challengeFromMembers({ ...MEMBERS, description: '\ud800' })).toMatchObject({ ok: true, canonical: false });
  });

  it('reads a WWW-Authenticate challenge that carries no header member as one for the default Authorization', () => {
    const value = `Payment ${Object.entries(MEMBERS)
      .map(([k, v]) => `${k}="${v}"`)
      .join(', ')}`;
    const parsed = parsePaymentChallenge(value);
    expect(parsed.ok && 'header' in parsed.challenge).toBe(false);
  });
});
