import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { generateEd25519Jwk, jwkThumbprint } from '../../src/httpsig/index.js';

const RFC7638_N =
  '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw';

describe('jwkThumbprint (RFC 7638)', () => {
  it('RFC 7638 §3.1 RSA example', () => {
    expect(jwkThumbprint({ kty: 'RSA', n: RFC7638_N, e: 'AQAB', alg: 'RS256', kid: '2011-04-29' })).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it('RFC 8037 Appendix A.3 Ed25519 example', () => {
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('RFC 9421 B.1.4 key, with kid, d and use ignored', () => {
    const key = {
      kty: 'OKP',
      crv: 'Ed25519',
      kid: 'test-key-ed25519',
      use: 'sig',
      d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
      x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
    };
    expect(jwkThumbprint(key)).toBe('poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U');
    expect(jwkThumbprint(key)).toHaveLength(43);
  });

  it('accepts a JWK interface without an index signature', () => {
    interface PublicJwk {
      readonly kty: 'OKP';
      readonly crv: 'Ed25519';
      readonly x: string;
      readonly kid?: string;
    }
    const key: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
    expect(jwkThumbprint(key)).toBe('poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U');
  });

  it.each([
    ['an unsupported kty', { kty: 'oct', k: 'AAAA' }],
    ['a kty that is an Object.prototype member', { kty: 'toString' }],
    ['an OKP key without x', { kty: 'OKP', crv: 'Ed25519' }],
    ['an EC key without y', { kty: 'EC', crv: 'P-256', x: 'AAAA' }],
    ['an RSA key with a numeric e', { kty: 'RSA', n: RFC7638_N, e: 65537 }],
  ])('throws on %s', (_name, key) => {
    expect(() => jwkThumbprint(key)).toThrow(TypeError);
  });

  it("agrees with jose's calculateJwkThumbprint on generated Ed25519, EC and RSA keys", async () => {
    const keys: JWK[] = [];
    for (let n = 0; n < 20; n++) keys.push(generateEd25519Jwk().publicJwk);
    for (const namedCurve of ['P-256', 'P-384', 'P-521']) keys.push(generateKeyPairSync('ec', { namedCurve }).publicKey.export({ format: 'jwk' }) as JWK);
    keys.push(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }) as JWK);
    for (const key of keys) {
      expect(jwkThumbprint(key as { kty: string })).toBe(await calculateJwkThumbprint(key, 'sha256'));
    }
  });

  // jose's calculateJwkThumbprint is async; ours stays synchronous because signRequest (a public, synchronous API)
  // and the verifier's key-set reader compute it on every call. These two tests hold it to jose's, so it is jose's
  // answer computed without a promise.
  it("agrees with jose's on every JWK the vectors carry", async () => {
    const keys: Record<string, unknown>[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (typeof value === 'object' && value !== null) {
        const record = value as Record<string, unknown>;
        if (typeof record.kty === 'string' && ['OKP', 'EC', 'RSA'].includes(record.kty)) keys.push(record);
        Object.values(record).forEach(walk);
      }
    };
    const folder = join(import.meta.dirname, '../../vectors');
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.json'))) walk(JSON.parse(readFileSync(join(folder, name), 'utf8')));
    expect(keys.length).toBeGreaterThan(40);
    for (const key of keys) expect(jwkThumbprint(key as { kty: string })).toBe(await calculateJwkThumbprint(key as JWK, 'sha256'));
  });

  it("agrees with jose's for any string members, extra members and member order", async () => {
    // jose refuses an empty member ("missing or invalid") and a non-ASCII one where ours hashes them; a JWK's members
    // here are base64url and curve names, so every key we read or write is in the range both answer for.
    const text = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 });
    const extra = fc.dictionary(fc.constantFrom('kid', 'use', 'alg', 'd', 'key_ops', 'ext'), text);
    const key = fc.oneof(
      fc.record({ kty: fc.constant('OKP'), crv: text, x: text }),
      fc.record({ kty: fc.constant('EC'), crv: text, x: text, y: text }),
      fc.record({ kty: fc.constant('RSA'), e: text, n: text }),
    );
    await fc.assert(
      fc.asyncProperty(key, extra, fc.boolean(), async (members, more, reversed) => {
        const entries = Object.entries({ ...more, ...members });
        const jwk = Object.fromEntries(reversed ? entries.reverse() : entries) as { kty: string };
        expect(jwkThumbprint(jwk)).toBe(await calculateJwkThumbprint(jwk as JWK, 'sha256'));
      }),
      { numRuns: 300 },
    );
  });
});
