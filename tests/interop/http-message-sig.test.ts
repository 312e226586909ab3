import type { webcrypto as nodeWebcrypto } from 'node:crypto';
import {
  SignatureError,
  appendSignature,
  component,
  createSignature,
  verifySignature,
  webcrypto,
  type RequestDescriptor,
  type SignatureComponent,
  type Verifier,
} from 'http-message-sig';
import { describe, expect, it } from 'vitest';
import {
  contentDigestHeader,
  ed25519Verify,
  generateEd25519Jwk,
  jwkThumbprint,
  parseSignatureHeader,
  parseSignatureInput,
  signatureBase,
  signRequest,
  splitDictionaryMembers,
  type HttpMessage,
} from '../../src/httpsig/index.js';
import { utf8 } from '../httpsig/fixtures.js';

/**
 * Cloudflare's http-message-sig@0.3.0 as an independent RFC 9421 peer. Its verifySignature checks one
 * label per call (an explicit `label` is required once there are several), so a two-label request is
 * verified label by label.
 */

const KEY_SET = 'https://agent.example/agents/mini/.well-known/jwks.json';
const SIGNATURE_AGENT_1 = `sig1="${KEY_SET}";type=jwks_uri`;
const SIGNATURE_AGENT_2 = `${SIGNATURE_AGENT_1}, sig2="${KEY_SET}";type=jwks_uri`;
const CREATED = 1758067200;
const EXPIRES = CREATED + 60;
const NONCES = ['bm9uY2UtMQ==', 'bm9uY2UtMg=='];

const keys = [generateEd25519Jwk(new Uint8Array(32).fill(11)), generateEd25519Jwk(new Uint8Array(32).fill(22))] as const;
const cryptoKey = (jwk: nodeWebcrypto.JsonWebKey, usage: 'sign' | 'verify') =>
  globalThis.crypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, [usage]);

interface Case {
  name: string;
  method: string;
  url: string;
  body: Uint8Array | null;
}
const CASES: Case[] = [
  { name: 'GET with a query', method: 'GET', url: 'https://robutler.ai/api/llm/chat/completions?model=x&stream=true', body: null },
  { name: 'POST with a body and content-digest', method: 'POST', url: 'https://robutler.ai/api/mpp/credits', body: utf8('{"amount":"500"}') },
];

const theirComponents = (label: string, hasBody: boolean): SignatureComponent[] => [
  '@method',
  '@authority',
  '@path',
  '@query',
  ...(hasBody ? ['content-digest'] : []),
  component('signature-agent', { key: label }),
];

const descriptor = (c: Case, fields: Record<string, string> | [string, string][]): RequestDescriptor => ({
  kind: 'request',
  method: c.method,
  targetUri: c.url,
  fields: (Array.isArray(fields) ? fields : Object.entries(fields)).map(([name, value]) => ({ name, value })),
});

/** Our verification of one label: the base from the received Signature-Input text, then node:crypto. */
function oursVerifies(msg: HttpMessage, label: string, x: string): boolean {
  const header = (name: string) => msg.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
  const member = parseSignatureInput(header('signature-input'))?.get(label);
  const text = splitDictionaryMembers(header('signature-input'))?.get(label);
  const signature = parseSignatureHeader(header('signature'))?.get(label);
  if (member === undefined || text === undefined || signature === undefined) return false;
  return ed25519Verify(x, utf8(signatureBase(msg, member.covered, text)), signature);
}

async function theirsVerifies(c: Case, fields: Record<string, string>, label: string | undefined): Promise<string> {
  const verified = await verifySignature(descriptor(c, fields), {
    ...(label === undefined ? {} : { label }),
    policy: {
      algorithms: ['ed25519'],
      requiredComponents: theirComponents(label ?? 'sig1', c.body !== null),
      requiredParameters: ['created', 'expires', 'keyid', 'nonce', 'tag'],
      maxAge: 300,
      now: CREATED + 5,
    },
    async resolveVerifier(candidate): Promise<Verifier> {
      const key = keys.find((k) => jwkThumbprint(k.publicJwk) === candidate.parameters.keyid);
      if (key === undefined) throw new Error('unknown keyid');
      return webcrypto.verifier(await cryptoKey(key.publicJwk, 'verify'));
    },
  });
  return verified.label;
}

describe.each(CASES)('http-message-sig@0.3.0 interop: $name', (c) => {
  const hasBody = c.body !== null;
  const baseFields = (signatureAgent: string): [string, string][] => [
    ['host', new URL(c.url).host],
    ...(hasBody ? [['content-digest', contentDigestHeader(c.body ?? new Uint8Array())] as [string, string]] : []),
    ['signature-agent', signatureAgent],
  ];

  async function theirSignature(label: string, keyIndex: 0 | 1, signatureAgent: string) {
    const key = keys[keyIndex];
    return createSignature(descriptor(c, baseFields(signatureAgent)), {
      label,
      components: theirComponents(label, hasBody),
      parameters: {
        created: CREATED,
        expires: EXPIRES,
        keyid: jwkThumbprint(key.publicJwk),
        alg: 'ed25519',
        nonce: NONCES[keyIndex],
        tag: 'web-bot-auth',
      },
      signer: webcrypto.signer(await cryptoKey(key.privateJwk, 'sign')),
    });
  }

  it('one label signed by theirs verifies with ours, and matches our signRequest byte for byte', async () => {
    const fields = await theirSignature('sig1', 0, SIGNATURE_AGENT_1);
    const msg: HttpMessage = {
      method: c.method,
      url: c.url,
      headers: [...baseFields(SIGNATURE_AGENT_1), ['signature-input', fields.signatureInput], ['signature', fields.signature]],
      body: c.body,
    };
    expect(oursVerifies(msg, 'sig1', keys[0].publicJwk.x)).toBe(true);
    expect(oursVerifies(msg, 'sig1', keys[1].publicJwk.x)).toBe(false);

    const ours = signRequest({
      method: c.method,
      url: c.url,
      body: c.body,
      keys: [keys[0]],
      signatureAgent: KEY_SET,
      created: CREATED,
      expires: EXPIRES,
      nonces: [NONCES[0] as string],
    });
    expect(fields.signatureInput).toBe(ours.headers['signature-input']);
    expect(fields.signature).toBe(ours.headers.signature);
  });

  it('two labels signed by theirs (appendSignature) verify with ours, each label', async () => {
    const first = await theirSignature('sig1', 0, SIGNATURE_AGENT_2);
    const second = await theirSignature('sig2', 1, SIGNATURE_AGENT_2);
    const headers = appendSignature(appendSignature(new Headers(baseFields(SIGNATURE_AGENT_2)), first), second);
    const msg: HttpMessage = { method: c.method, url: c.url, headers: [...headers.entries()], body: c.body };
    expect(oursVerifies(msg, 'sig1', keys[0].publicJwk.x)).toBe(true);
    expect(oursVerifies(msg, 'sig2', keys[1].publicJwk.x)).toBe(true);
    expect(oursVerifies(msg, 'sig2', keys[0].publicJwk.x)).toBe(false);

    const ours = signRequest({ method: c.method, url: c.url, body: c.body, keys, signatureAgent: KEY_SET, created: CREATED, expires: EXPIRES, nonces: NONCES });
    expect(headers.get('signature-input')).toBe(ours.headers['signature-input']);
    expect(headers.get('signature')).toBe(ours.headers.signature);
    expect(headers.get('signature-agent')).toBe(ours.headers['signature-agent']);
  });

  it('one label signed by our signRequest verifies with their verifySignature', async () => {
    const { headers } = signRequest({
      method: c.method,
      url: c.url,
      body: c.body,
      keys: [keys[0]],
      signatureAgent: KEY_SET,
      created: CREATED,
      expires: EXPIRES,
      nonces: [NONCES[0] as string],
    });
    expect(await theirsVerifies(c, headers, undefined)).toBe('sig1');
  });

  it('two labels signed by our signRequest verify with their verifySignature, one label per call', async () => {
    const { headers } = signRequest({
      method: c.method,
      url: c.url,
      body: c.body,
      keys,
      signatureAgent: KEY_SET,
      created: CREATED,
      expires: EXPIRES,
      nonces: NONCES,
    });
    expect(await theirsVerifies(c, headers, 'sig1')).toBe('sig1');
    expect(await theirsVerifies(c, headers, 'sig2')).toBe('sig2');
    await expect(theirsVerifies(c, headers, undefined)).rejects.toMatchObject({ code: 'LabelRequired' });
  });

  it('their verifier refuses our signature once a covered value changes', async () => {
    const { headers } = signRequest({
      method: c.method,
      url: c.url,
      body: c.body,
      keys: [keys[0]],
      signatureAgent: KEY_SET,
      created: CREATED,
      expires: EXPIRES,
      nonces: [NONCES[0] as string],
    });
    const tampered = { ...headers, 'signature-agent': `sig1="https://evil.example/.well-known/jwks.json";type=jwks_uri` };
    const error = await theirsVerifies(c, tampered, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureError);
    expect((error as SignatureError).code).toBe('VerificationFailed');
  });
});
