import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ed25519Sign,
  ed25519Verify,
  jwkThumbprint,
  nobleEd25519,
  parseSignatureHeader,
  parseSignatureInput,
  signatureBase,
  splitDictionaryMembers,
  type HttpMessage,
} from '../../src/httpsig/index.js';
import { fromBase64, loadFixture, utf8 } from './fixtures.js';

interface B26Fixture {
  key: { privateJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; d: string }; rfc7638ThumbprintSha256B64url: string };
  request: { method: string; targetUri: string; headers: [string, string][]; body: string };
  b26: {
    label: string;
    coveredComponents: string[];
    signatureParamsValue: string;
    signatureBase: string;
    signatureBaseSha256Hex: string;
    signatureInputHeader: string;
    signatureHeader: string;
    signatureB64: string;
  };
}

const fx = loadFixture<B26Fixture>(import.meta.url, 'rfc9421-b26.json');
const msg: HttpMessage = { method: fx.request.method, url: fx.request.targetUri, headers: fx.request.headers, body: utf8(fx.request.body) };
const x = fx.key.privateJwk.x;

describe('RFC 9421 Appendix B.2.6 (ed25519 over test-request)', () => {
  const member = parseSignatureInput(fx.b26.signatureInputHeader)?.get(fx.b26.label);
  const paramsText = splitDictionaryMembers(fx.b26.signatureInputHeader)?.get(fx.b26.label);

  it('parses the received Signature-Input into the six covered components and two parameters', () => {
    expect(member?.covered.map((c) => c.name)).toEqual(fx.b26.coveredComponents);
    expect(member?.covered.every((c) => c.params.size === 0)).toBe(true);
    expect([...(member?.params ?? [])]).toEqual([
      ['created', 1618884473],
      ['keyid', 'test-key-ed25519'],
    ]);
    expect([...(member?.paramKinds ?? [])]).toEqual([
      ['created', 'integer'],
      ['keyid', 'string'],
    ]);
    expect(member?.coveredAreStrings).toBe(true);
    expect(paramsText).toBe(fx.b26.signatureParamsValue);
    expect(member?.text).toBe(fx.b26.signatureParamsValue);
  });

  it('builds the RFC signature base byte for byte from the received Signature-Input text', () => {
    const base = signatureBase(msg, member?.covered ?? [], paramsText ?? '');
    expect(base).toBe(fx.b26.signatureBase);
    expect(utf8(base).length).toBe(284);
    expect(createHash('sha256').update(base).digest('hex')).toBe(fx.b26.signatureBaseSha256Hex);
  });

  it('verifies the RFC signature with node:crypto and with noble', () => {
    const signature = parseSignatureHeader(fx.b26.signatureHeader)?.get(fx.b26.label);
    expect(signature).toEqual(fromBase64(fx.b26.signatureB64));
    const base = utf8(fx.b26.signatureBase);
    expect(ed25519Verify(x, base, signature ?? new Uint8Array())).toBe(true);
    expect(nobleEd25519.verify(x, base, signature ?? new Uint8Array())).toBe(true);
  });

  it('re-signing the base reproduces the RFC signature byte for byte (Ed25519 is deterministic)', () => {
    const base = utf8(fx.b26.signatureBase);
    const expected = fromBase64(fx.b26.signatureB64);
    expect(ed25519Sign(fx.key.privateJwk, base)).toEqual(expected);
    expect(nobleEd25519.sign(fx.key.privateJwk, base)).toEqual(expected);
  });

  it('a base changed from POST to GET no longer verifies', () => {
    const tampered = utf8(fx.b26.signatureBase.replace('"@method": POST', '"@method": GET'));
    expect(ed25519Verify(x, tampered, fromBase64(fx.b26.signatureB64))).toBe(false);
    expect(nobleEd25519.verify(x, tampered, fromBase64(fx.b26.signatureB64))).toBe(false);
  });

  it('the B.1.4 key has thumbprint poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U', () => {
    expect(jwkThumbprint(fx.key.privateJwk)).toBe('poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U');
    expect(jwkThumbprint(fx.key.privateJwk)).toBe(fx.key.rfc7638ThumbprintSha256B64url);
  });
});
