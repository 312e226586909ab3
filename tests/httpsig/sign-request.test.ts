import { describe, expect, it } from 'vitest';
import {
  checkContentDigest,
  ed25519Verify,
  generateEd25519Jwk,
  jwkThumbprint,
  parseSignatureHeader,
  parseSignatureInput,
  signatureBase,
  signRequest,
  splitDictionaryMembers,
  type HttpMessage,
  type SignRequestOptions,
} from '../../src/httpsig/index.js';
import { utf8 } from './fixtures.js';

const key1 = generateEd25519Jwk(new Uint8Array(32).fill(1));
const key2 = generateEd25519Jwk(new Uint8Array(32).fill(2));
const KEY_SET = 'https://agent.example/agents/mini/.well-known/jwks.json';

const base: SignRequestOptions = {
  method: 'GET',
  url: 'https://robutler.ai/api/llm/chat/completions?stream=true',
  keys: [{ privateJwk: key1.privateJwk }],
  signatureAgent: KEY_SET,
  created: 1758067200,
  expires: 1758067260,
  nonces: ['n1'],
};

/** Verifies every label of a signed request the way a verifier would, from the received texts. */
function verifyAll(msg: HttpMessage, xs: readonly string[]): boolean[] {
  const input = msg.headers.find(([n]) => n === 'signature-input')?.[1] ?? '';
  const signature = parseSignatureHeader(msg.headers.find(([n]) => n === 'signature')?.[1] ?? '');
  const members = parseSignatureInput(input);
  const texts = splitDictionaryMembers(input);
  return [...(members ?? [])].map(([label, member], n) =>
    ed25519Verify(xs[n] ?? '', utf8(signatureBase(msg, member.covered, texts?.get(label) ?? '')), signature?.get(label) ?? new Uint8Array()),
  );
}

describe('signRequest', () => {
  it('signs a GET without a body: no content-digest, covered list and parameters in SDK order', () => {
    const { headers, bases } = signRequest(base);
    const keyid = jwkThumbprint(key1.publicJwk);
    expect(Object.keys(headers)).toEqual(['signature-agent', 'signature-input', 'signature']);
    expect(headers['signature-agent']).toBe(`sig1="${KEY_SET}";type=jwks_uri`);
    expect(headers['signature-input']).toBe(
      `sig1=("@method" "@authority" "@path" "@query" "signature-agent";key="sig1");created=1758067200;expires=1758067260;keyid="${keyid}";alg="ed25519";nonce="n1";tag="web-bot-auth"`,
    );
    expect(headers.signature).toMatch(/^sig1=:[A-Za-z0-9+/]{86}==:$/);
    expect(bases).toEqual([
      [
        '"@method": GET',
        '"@authority": robutler.ai',
        '"@path": /api/llm/chat/completions',
        '"@query": ?stream=true',
        `"signature-agent";key="sig1": "${KEY_SET}";type=jwks_uri`,
        `"@signature-params": ${headers['signature-input']?.slice('sig1='.length)}`,
      ].join('\n'),
    ]);
    const msg: HttpMessage = { method: base.method, url: base.url, headers: Object.entries(headers) };
    expect(verifyAll(msg, [key1.publicJwk.x])).toEqual([true]);
  });

  it('signs with two keys as sig1 and sig2, one Signature-Agent member each', () => {
    const body = utf8('{"a":1}');
    const { headers, bases } = signRequest({
      ...base,
      method: 'POST',
      body,
      keys: [{ privateJwk: key1.privateJwk }, { privateJwk: key2.privateJwk }],
      nonces: ['n1', 'n2'],
      digestAlgorithm: 'sha-512',
    });
    expect(Object.keys(headers)).toEqual(['content-digest', 'signature-agent', 'signature-input', 'signature']);
    expect(headers['signature-agent']).toBe(`sig1="${KEY_SET}";type=jwks_uri, sig2="${KEY_SET}";type=jwks_uri`);
    expect(headers['content-digest']).toMatch(/^sha-512=:/);
    expect(checkContentDigest(headers['content-digest'] ?? '', body)).toEqual({ ok: true, algorithms: ['sha-512'] });
    const inputs = parseSignatureInput(headers['signature-input'] ?? '');
    expect([...(inputs?.keys() ?? [])]).toEqual(['sig1', 'sig2']);
    expect(inputs?.get('sig2')?.params.get('keyid')).toBe(jwkThumbprint(key2.publicJwk));
    expect(inputs?.get('sig2')?.params.get('nonce')).toBe('n2');
    expect(inputs?.get('sig2')?.covered.map((c) => c.name)).toEqual(['@method', '@authority', '@path', '@query', 'content-digest', 'signature-agent']);
    expect(bases[1]?.split('\n')[5]).toBe(`"signature-agent";key="sig2": "${KEY_SET}";type=jwks_uri`);
    const msg: HttpMessage = { method: 'POST', url: base.url, headers: Object.entries(headers), body };
    expect(verifyAll(msg, [key1.publicJwk.x, key2.publicJwk.x])).toEqual([true, true]);
  });

  it('writes untyped, cimd and directory members and can leave alg out', () => {
    expect(signRequest({ ...base, signatureAgentType: null }).headers['signature-agent']).toBe(`sig1="${KEY_SET}"`);
    expect(signRequest({ ...base, signatureAgentType: 'cimd', signatureAgent: 'https://a.example/agent.json' }).headers['signature-agent']).toBe(
      'sig1="https://a.example/agent.json";type=cimd',
    );
    expect(signRequest({ ...base, signatureAgentType: 'directory' }).headers['signature-agent']).toBe(`sig1="${KEY_SET}";type=directory`);
    expect(signRequest({ ...base, alg: false }).headers['signature-input']).not.toContain('alg=');
  });

  it('covers extra headers after content-digest, replaces caller copies of the headers it writes', () => {
    const { headers, bases } = signRequest({
      ...base,
      method: 'POST',
      body: utf8('{}'),
      headers: [
        ['Service-Terms-Accepted', '  2026-07-31 '],
        ['Content-Digest', 'sha-256=:AAAA:'],
        ['Signature', 'stale=:AAAA:'],
      ],
      coveredHeaders: ['service-terms-accepted'],
    });
    expect(headers['content-digest']).toBe('sha-256=:RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=:');
    expect(bases[0]?.split('\n').slice(4, 7)).toEqual([
      '"content-digest": sha-256=:RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=:',
      '"service-terms-accepted": 2026-07-31',
      `"signature-agent";key="sig1": "${KEY_SET}";type=jwks_uri`,
    ]);
  });

  it('an empty body is no body: no content-digest', () => {
    expect(signRequest({ ...base, method: 'POST', body: new Uint8Array() }).headers['content-digest']).toBeUndefined();
  });

  it.each<[string, Partial<SignRequestOptions>]>([
    ['no keys', { keys: [], nonces: [] }],
    ['three keys', { keys: [{ privateJwk: key1.privateJwk }, { privateJwk: key2.privateJwk }, { privateJwk: key1.privateJwk }], nonces: ['a', 'b', 'c'] }],
    ['a missing nonce', { nonces: [] }],
    ['a decimal created', { created: 1.5 }],
  ])('refuses %s', (_name, change) => {
    expect(() => signRequest({ ...base, ...change })).toThrow(RangeError);
  });
});
