import { describe, expect, it } from 'vitest';
import { decodeBase64urlJson, decodeBase64urlNoPad, purchaseAnswer, type PaidSurface } from '../../src/purchase/index.js';
import { DEFAULT_PROBLEM_BASES } from '../../src/spec/problem-types.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';

/*
 * The 7.4 answers a deployment builds (Retry-After as whole non-negative seconds; body members only when given)
 * and the strict base64url-nopad of RFC 4648 section 5 the readers decode with. One rule per test.
 */

const surface: PaidSurface = { problemBases: DEFAULT_PROBLEM_BASES, terms: { url: 'https://platform.example/doc/terms-of-service', version: '2026-07-31' } };
/** A 429 that carries Retry-After (7.4 wallet_daily_cap). */
const RETRY = PURCHASE_ERRORS.wallet_daily_cap;

describe('Retry-After on a 7.4 answer', () => {
  it('writes zero seconds as 0', () => {
    expect(purchaseAnswer(RETRY, surface, { retryAfterSeconds: 0 }).headers['retry-after']).toBe('0');
  });

  it('refuses to build the answer without its seconds, saying which detail is missing', () => {
    expect(() => purchaseAnswer(RETRY, surface)).toThrow(/give retryAfterSeconds/);
  });

  it.each([-1, 1.5])('refuses %s seconds', (seconds) => {
    expect(() => purchaseAnswer(RETRY, surface, { retryAfterSeconds: seconds })).toThrow(TypeError);
  });
});

describe('the body of a 7.4 answer', () => {
  it('carries no purchase, refund or receipt member it was not given', () => {
    const body = purchaseAnswer(PURCHASE_ERRORS.call_refunded, surface).body as Record<string, unknown>;
    expect(['purchase', 'refund', 'receipt'].filter((name) => name in body)).toEqual([]);
  });
});

describe('base64url without padding (RFC 4648 5)', () => {
  it('refuses a final character with non-zero trailing bits', () => {
    expect(decodeBase64urlNoPad('QR')).toBeNull();
    expect([...(decodeBase64urlNoPad('QQ') ?? [])]).toEqual([0x41]);
  });

  it('says the decoded bytes are not UTF-8', () => {
    expect(decodeBase64urlJson('_w')).toMatchObject({ ok: false, failure: 'not-utf8', detail: expect.stringMatching(/UTF-8/) });
  });

  it('says the decoded text is not JSON', () => {
    expect(decodeBase64urlJson('e2E')).toMatchObject({ ok: false, failure: 'not-json', detail: expect.stringMatching(/not JSON/) });
  });
});
