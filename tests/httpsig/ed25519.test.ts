import { describe, expect, it } from 'vitest';
import { ed25519Sign, ed25519Verify, ed25519VerifyOffThread, generateEd25519Jwk, nobleEd25519, randomNonce } from '../../src/httpsig/index.js';
import { utf8 } from './fixtures.js';

const B14 = {
  seedHex: '9f8362f87a484a954e6e740c5b4c0e84229139a20aa8ab56ff66586f6a7d29c5',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
};

describe('generateEd25519Jwk', () => {
  it('derives the RFC 9421 B.1.4 key from its seed', () => {
    const { privateJwk, publicJwk } = generateEd25519Jwk(Buffer.from(B14.seedHex, 'hex'));
    expect(privateJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: B14.x, d: B14.d });
    expect(publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: B14.x });
  });

  it('makes a fresh key each call without a seed, and refuses a seed of the wrong length', () => {
    const a = generateEd25519Jwk();
    const b = generateEd25519Jwk();
    expect(a.publicJwk.x).not.toBe(b.publicJwk.x);
    expect(a.privateJwk.x).toBe(a.publicJwk.x);
    expect(() => generateEd25519Jwk(new Uint8Array(31))).toThrow(TypeError);
  });
});

describe('ed25519Sign / ed25519Verify', () => {
  const { privateJwk } = generateEd25519Jwk(new Uint8Array(32).fill(7));
  const data = utf8('"@authority": example.com');
  const signature = ed25519Sign(privateJwk, data);

  it('signs 64 bytes that both implementations verify, and noble signs the same bytes', () => {
    expect(signature).toHaveLength(64);
    expect(ed25519Verify(privateJwk.x, data, signature)).toBe(true);
    expect(nobleEd25519.verify(privateJwk.x, data, signature)).toBe(true);
    expect(nobleEd25519.sign(privateJwk, data)).toEqual(signature);
  });

  it.each([
    ['a 43-character x that is not canonical base64url', `${B14.x.slice(0, 42)}1`],
    ['a short x', B14.x.slice(0, 40)],
    ['an x with padding', `${B14.x}=`],
    ['an x in standard base64', 'JrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs'],
    ['an empty x', ''],
  ])('is false, never a throw, for %s', async (_name, x) => {
    expect(ed25519Verify(x, data, signature)).toBe(false);
    expect(nobleEd25519.verify(x, data, signature)).toBe(false);
    expect(await ed25519VerifyOffThread(x, data, signature)).toBe(false);
  });

  it('is false for signatures of the wrong length and for another key', () => {
    expect(ed25519Verify(privateJwk.x, data, signature.subarray(0, 63))).toBe(false);
    expect(ed25519Verify(privateJwk.x, data, new Uint8Array(65))).toBe(false);
    expect(ed25519Verify(privateJwk.x, data, new Uint8Array(64))).toBe(false);
    expect(ed25519Verify(B14.x, data, signature)).toBe(false);
    expect(nobleEd25519.verify(privateJwk.x, data, new Uint8Array(64))).toBe(false);
  });

  it('answers off the thread as it does in it: true for the signature, false for another key, byte or length', async () => {
    const tampered = Uint8Array.from(data);
    tampered[0]! ^= 1;
    const cases: [string, Uint8Array, Uint8Array][] = [
      [privateJwk.x, data, signature],
      [privateJwk.x, tampered, signature],
      [B14.x, data, signature],
      [privateJwk.x, data, signature.subarray(0, 63)],
      [privateJwk.x, data, new Uint8Array(64)],
    ];
    const offThread = await Promise.all(cases.map(([x, d, sig]) => ed25519VerifyOffThread(x, d, sig)));
    expect(offThread).toEqual(cases.map(([x, d, sig]) => ed25519Verify(x, d, sig)));
    expect(offThread).toEqual([true, false, false, false, false]);
    for (let n = 0; n < 3; n++) expect(await ed25519VerifyOffThread(privateJwk.x, data, signature), 'from its key cache').toBe(true);
  });

  it('verifies again from the key cache', () => {
    for (let n = 0; n < 3; n++) expect(ed25519Verify(privateJwk.x, data, signature)).toBe(true);
  });

  it('refuses a private JWK whose x is not the public key of d', () => {
    expect(() => ed25519Sign({ x: B14.x, d: privateJwk.d }, data)).toThrow(TypeError);
    expect(() => ed25519Sign({ x: privateJwk.x, d: 'short' }, data)).toThrow(TypeError);
  });
});

describe('randomNonce', () => {
  it('is 64 random bytes in standard base64 with padding (88 characters)', () => {
    const nonce = randomNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    expect(Buffer.from(nonce, 'base64')).toHaveLength(64);
    expect(randomNonce()).not.toBe(nonce);
  });
});
