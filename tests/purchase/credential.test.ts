import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  challengeFromMembers,
  createChallenge,
  credentialFor,
  parseCredential,
  serializeCredential,
  type ChallengeEcho,
  type JsonObject,
  type PaymentCredential,
} from '../../src/purchase/index.js';
import { PAYMENT_METHODS, TEMPO_PAYLOAD_TYPES } from '../../src/spec/payments.js';
import { PEER_VECTORS } from '../paths.js';

const peer = JSON.parse(readFileSync(`${PEER_VECTORS}/signer-vectors-covered-headers.json`, 'utf8')) as {
  credential: { challenge: ChallengeEcho; payload: JsonObject; header: string };
  request: { headers: Record<string, string> };
};
const peerHeader = peer.request.headers['payment-authorization']!;

/** The credential mppx 0.11.0 emits for its example challenge (tempo, with source). */
const MPPX_CREDENTIAL =
  'Payment eyJjaGFsbGVuZ2UiOnsiZXhwaXJlcyI6IjIwMjYtMDEtMTVUMTI6MDU6MDBaIiwiaGVhZGVyIjoiUGF5bWVudC1BdXRob3JpemF0aW9uIiwiaWQiOiJBWHNiNGc1Qk42VGJpcHFVSGdWSWhSaTVIUFVvZ3RuOHd5TTdsZlQ1OFBFIiwiaW50ZW50IjoiY2hhcmdlIiwibWV0aG9kIjoidGVtcG8iLCJyZWFsbSI6ImFwaS5leGFtcGxlLmNvbSIsInJlcXVlc3QiOiJleUpoYlc5MWJuUWlPaUl4TURBd01EQXdJaXdpWTNWeWNtVnVZM2tpT2lJd2VESXdZekF3TURBd01EQXdNREF3TURBd01EQXdNREF3TURBd01EQXdNREF3TURBd01EQXdNREFpTENKdFpYUm9iMlJFWlhSaGFXeHpJanA3SW1Ob1lXbHVTV1FpT2pReU1UY3NJbk4xY0hCdmNuUmxaRTF2WkdWeklqcGJJbkIxYkd3aVhYMHNJbkpsWTJsd2FXVnVkQ0k2SWpCNE56UXlaRE0xUTJNMk5qTTBRekExTXpJNU1qVmhNMkk0TkRSQ1l6bGxOelU1TldZNFprVXdNQ0o5In0sInBheWxvYWQiOnsic2lnbmF0dXJlIjoiMHg3NmY5MDFhYSIsInR5cGUiOiJ0cmFuc2FjdGlvbiJ9LCJzb3VyY2UiOiJkaWQ6cGtoOmVpcDE1NTo0MjE3OjB4MTIzNDU2Nzg5MGFiY2RlZjEyMzQ1Njc4OTBhYmNkZWYxMjM0NTY3OCJ9';

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the peer credential (webagents signer vectors)', () => {
  it('is reproduced byte for byte from its credential member', () => {
    const header = serializeCredential({ challenge: peer.credential.challenge, payload: peer.credential.payload });
    expect(header).toBe(peerHeader);
    expect(header).toBe(peer.credential.header);
  });

  it('is reproduced byte for byte through the decoded challenge value', () => {
    const read = challengeFromMembers(peer.credential.challenge);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.canonical).toBe(true);
    expect(read.challenge.method).toBe(PAYMENT_METHODS.stripe);
    expect(read.challenge.opaque?.packId).toBe('mpp_5');
    expect(serializeCredential(credentialFor(read.challenge, peer.credential.payload))).toBe(peerHeader);
  });

  it('parses back to its members', () => {
    const parsed = parseCredential(peerHeader);
    expect(parsed).toMatchObject({ ok: true, canonical: true, credential: { challenge: peer.credential.challenge, payload: peer.credential.payload } });
    if (parsed.ok) expect(parsed.credential.source).toBeUndefined();
  });
});

describe('parseCredential', () => {
  it("reads mppx's credential with a source and re-serialises it byte for byte", () => {
    const parsed = parseCredential(MPPX_CREDENTIAL);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.canonical).toBe(true);
    expect(parsed.credential.payload).toEqual({ signature: '0x76f901aa', type: TEMPO_PAYLOAD_TYPES.transaction });
    expect(parsed.credential.source).toBe('did:pkh:eip155:4217:0x1234567890abcdef1234567890abcdef12345678');
    expect(serializeCredential(parsed.credential)).toBe(MPPX_CREDENTIAL);
    const echo = challengeFromMembers(parsed.credential.challenge);
    expect(echo.ok && echo.challenge.request).toEqual({
      amount: '1000000',
      currency: '0x20c0000000000000000000000000000000000000',
      methodDetails: { chainId: 4217, supportedModes: ['pull'] },
      recipient: '0x742d35Cc6634C0532925a3b844Bc9e7595f8fE00',
    });
  });

  it('takes the scheme case-insensitively and trims surrounding whitespace', () => {
    expect(parseCredential(`  payment ${peerHeader.slice('Payment '.length)}\t`).ok).toBe(true);
  });

  const token = (value: unknown) => `Payment ${b64json(value)}`;
  const echo = peer.credential.challenge;
  const cases: [string, string, string][] = [
    ['another scheme', `Bearer ${peerHeader.slice(8)}`, 'not-payment-scheme'],
    ['no token', 'Payment', 'not-base64url'],
    ['an empty value', '', 'not-payment-scheme'],
    ['two tokens', `${peerHeader} x`, 'not-payment-scheme'],
    ['padding', `${peerHeader}==`, 'not-base64url'],
    ['standard base64', 'Payment ab+/', 'not-base64url'],
    ['not UTF-8', `Payment ${Buffer.from([0xff, 0xfe]).toString('base64url')}`, 'not-json'],
    ['not JSON', `Payment ${Buffer.from('{nope').toString('base64url')}`, 'not-json'],
    ['an array', token([echo]), 'not-object'],
    ['no challenge', token({ payload: {} }), 'challenge-not-echoed'],
    ['a challenge string', token({ challenge: 'abc', payload: {} }), 'challenge-not-echoed'],
    ['an echo without id', token({ challenge: { ...echo, id: undefined }, payload: {} }), 'challenge-invalid'],
    ['an echo with a number', token({ challenge: { ...echo, expires: 5 }, payload: {} }), 'challenge-invalid'],
    ['no payload', token({ challenge: echo }), 'payload-missing'],
    ['a string payload', token({ challenge: echo, payload: 'spt_x' }), 'payload-not-object'],
    ['a numeric source', token({ challenge: echo, payload: {}, source: 7 }), 'source-not-string'],
  ];
  it.each(cases)('refuses %s', (_name, value, reason) => {
    expect(parseCredential(value)).toMatchObject({ ok: false, reason });
  });

  it('reports a non-JCS encoding as not canonical', () => {
    const parsed = parseCredential(token({ payload: { spt: 'spt_1' }, challenge: echo }));
    expect(parsed).toMatchObject({ ok: true, canonical: false });
  });

  it('never throws on arbitrary values', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `Payment ${s}`),
          fc.jsonValue().map((v) => `Payment ${b64json(v)}`),
        ),
        (value) => {
          const parsed = parseCredential(value);
          expect(typeof parsed.ok).toBe('boolean');
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('credentialFor / serializeCredential', () => {
  it('round-trips through parseCredential', () => {
    const challenge = createChallenge({ realm: 'platform.example', method: PAYMENT_METHODS.tempo, request: { amount: '1' }, createdAt: 1_758_196_800 });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.option(fc.string(), { nil: undefined }), (payload, source) => {
        const credential: PaymentCredential = credentialFor(challenge, payload as JsonObject, source);
        const parsed = parseCredential(serializeCredential(credential));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.canonical).toBe(true);
        expect(parsed.credential.challenge).toEqual(credential.challenge);
        expect(canonicalJson(parsed.credential.payload)).toBe(canonicalJson(payload as JsonObject));
        expect(parsed.credential.source).toBe(source);
      }),
      { numRuns: 100 },
    );
  });

  it('leaves header out of the echo when the challenge named none', () => {
    const read = challengeFromMembers({ ...peer.credential.challenge, header: undefined });
    expect(read.ok).toBe(true);
    if (read.ok) expect('header' in credentialFor(read.challenge, {}).challenge).toBe(false);
  });
});
