import { describe, expect, it } from 'vitest';
import { challengeFromMembers, expiresAtSeconds } from '../../src/purchase/index.js';
import { rfc3339Seconds } from '../../src/purchase/wire/rfc3339.js';

/** Seconds of an instant written out by hand in ISO form (the expected values are not read by the code under test). */
const at = (iso: string, plus = 0) => new Date(iso).getTime() / 1000 + plus;

describe('an RFC 3339 date-time, as a challenge expires', () => {
  it('reads Z, a numeric offset, lower-case t and z, and a fraction', () => {
    expect(rfc3339Seconds('2026-01-15T12:05:00Z')).toBe(at('2026-01-15T12:05:00.000Z'));
    expect(rfc3339Seconds('2026-01-15t07:05:00-05:00')).toBe(at('2026-01-15T12:05:00.000Z'));
    expect(rfc3339Seconds('2026-01-15T12:05:00.25z')).toBe(at('2026-01-15T12:05:00.000Z', 0.25));
  });

  it('reads a leap second (RFC 3339 5.7) as the second after second 59, in any offset', () => {
    expect(rfc3339Seconds('2016-12-31T23:59:60Z')).toBe(at('2017-01-01T00:00:00.000Z'));
    expect(rfc3339Seconds('2016-12-31T23:59:60.5Z')).toBe(at('2017-01-01T00:00:00.000Z', 0.5));
    expect(rfc3339Seconds('2016-12-31T18:59:60-05:00')).toBe(at('2017-01-01T00:00:00.000Z'));
  });

  it.each([
    ['second 61', '2016-12-31T23:59:61Z'],
    ['hour 24', '2026-01-15T24:00:00Z'],
    ['no offset', '2026-01-15T12:05:00'],
    ['a date alone', '2026-01-15'],
    ['a space for the T', '2026-01-15 12:05:00Z'],
  ])('is no date-time with %s', (_what, text) => {
    expect(rfc3339Seconds(text)).toBeNaN();
  });

  it('lets a challenge expire at a leap second, and says when', () => {
    const expires = '2016-12-31T23:59:60Z';
    const read = challengeFromMembers({
      id: 'ch_1',
      realm: 'platform.example',
      method: 'stripe',
      intent: 'charge',
      request: Buffer.from('{"amount":"500","currency":"usd"}').toString('base64url'),
      expires,
    });
    expect(read).toMatchObject({ ok: true });
    expect(expiresAtSeconds({ expires })).toBe(at('2017-01-01T00:00:00.000Z'));
  });
});
