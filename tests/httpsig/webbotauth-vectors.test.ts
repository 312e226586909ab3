import { describe, expect, it } from 'vitest';
import {
  ComponentError,
  ed25519Verify,
  nobleEd25519,
  parseSignatureHeader,
  parseSignatureInput,
  signatureBase,
  splitDictionaryMembers,
  type HttpMessage,
} from '../../src/httpsig/index.js';
import { loadFixture, utf8 } from './fixtures.js';

interface RequestVector {
  id: string;
  method: string;
  targetUri: string;
  label: string;
  headers: Record<string, string>;
  signatureInput: string;
  signature: string;
  signatureBase: string;
}
interface Vectors {
  key: { publicJwk: { x: string }; keyid: string };
  requestVectors: RequestVector[];
  directoryResponseVector: { signatureInput: string; label: string };
}

const fx = loadFixture<Vectors>(import.meta.url, 'webbotauth-ed25519-vectors.json');
const x = fx.key.publicJwk.x;

function rebuild(v: RequestVector): { base: string; signature: Uint8Array } {
  const msg: HttpMessage = { method: v.method, url: v.targetUri, headers: Object.entries(v.headers) };
  const member = parseSignatureInput(v.signatureInput)?.get(v.label);
  const text = splitDictionaryMembers(v.signatureInput)?.get(v.label);
  if (member === undefined || text === undefined) throw new Error(`vector ${v.id} did not parse`);
  const signature = parseSignatureHeader(v.signature)?.get(v.label);
  if (signature === undefined) throw new Error(`vector ${v.id} has no signature`);
  return { base: signatureBase(msg, member.covered, text), signature };
}

describe('Web Bot Auth draft Ed25519 vectors', () => {
  it('the dictionary vector (label sig2, member agent2) builds the exact base and verifies', () => {
    const v = fx.requestVectors.find((r) => r.id === 'draft-ed25519-dict');
    if (v === undefined) throw new Error('missing vector');
    const { base, signature } = rebuild(v);
    expect(base).toBe(v.signatureBase);
    expect(base.split('\n')[1]).toBe('"signature-agent";key="agent2": "https://signature-agent.test"');
    expect(ed25519Verify(x, utf8(base), signature)).toBe(true);
    expect(nobleEd25519.verify(x, utf8(base), signature)).toBe(true);
  });

  it.each(fx.requestVectors.map((v) => [v.id, v] as const))('%s builds the exact base and verifies', (_id, v) => {
    const { base, signature } = rebuild(v);
    expect(base).toBe(v.signatureBase);
    expect(ed25519Verify(x, utf8(base), signature)).toBe(true);
    expect(nobleEd25519.verify(x, utf8(base), signature)).toBe(true);
  });

  it('keeps the received parameter order created;keyid;alg;expires;nonce;tag in @signature-params', () => {
    const v = fx.requestVectors[0] as RequestVector;
    const member = parseSignatureInput(v.signatureInput)?.get(v.label);
    expect([...(member?.params.keys() ?? [])]).toEqual(['created', 'keyid', 'alg', 'expires', 'nonce', 'tag']);
    expect(rebuild(v).base.endsWith(v.signatureInput.slice(`${v.label}=`.length))).toBe(true);
  });

  it('the signed directory response covers "@authority";req, which the request profile refuses', () => {
    const { signatureInput, label } = fx.directoryResponseVector;
    const member = parseSignatureInput(signatureInput)?.get(label);
    expect(member?.covered[0]?.name).toBe('@authority');
    expect([...(member?.covered[0]?.params ?? [])]).toEqual([['req', true]]);
    const msg: HttpMessage = { method: 'GET', url: 'https://signature-agent.test/.well-known/http-message-signatures-directory', headers: [] };
    const attempt = () => signatureBase(msg, member?.covered ?? [], splitDictionaryMembers(signatureInput)?.get(label) ?? '');
    expect(attempt).toThrow(ComponentError);
    expect(attempt).toThrow(expect.objectContaining({ reason: 'unsupported-component' }));
  });
});
