import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import { ed25519Verify, signRequest, type SignatureAgentType } from '../../src/httpsig/index.js';
import { AUTH_CODES, MEDIA_TYPES, WELL_KNOWN } from '../../src/spec/index.js';
import { createMemoryPorts, verifyRequest } from '../../src/verifier/index.js';
import { loadFixture, utf8 } from '../httpsig/fixtures.js';

/**
 * The platform SDK signer's request-target and signed-upgrade vectors (tests/interop/fixtures/SOURCE.md). Each case
 * gives the inputs and the signature the SDK pinned; Ed25519 is deterministic, so our signer reproducing the pinned
 * signature byte for byte means our signature base is byte-identical to the SDK's, and the pinned signature verifies
 * under the RFC 9421 test key over our base. Our full verifier then refuses the test key, as 2.4 requires ("none of
 * the RFC 9421 test keys"): key_set_invalid.
 */
interface RequestTargetCase {
  id: string;
  method: string;
  url: string;
  body: string;
  target: { authority: string; path: string; query: string; url: string };
  contentDigest?: string;
  signature: string;
}

interface UpgradeCase {
  name: string;
  socketUrl: string;
  hints: Record<string, string>;
  signedRequest: { method: string; url: string; authority: string; path: string; query: string };
  signatures: Record<string, string>;
}

const file = loadFixture<{ about: string; requestTarget: RequestTargetCase[]; upgrade: UpgradeCase[] }>(
  import.meta.url,
  'signer-vectors-request-target-upgrade.json',
);

/** The inputs every case shares, as the file's `about` member gives them. */
const KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
} as const;
const AGENT_URL = 'https://agent.example/agents/mini';
const CREATED = 1758067200;
const EXPIRES = 1758067260;
const NONCE = Buffer.from(Array.from({ length: 64 }, (_, i) => i)).toString('base64');
const FORMS: Record<string, SignatureAgentType | null> = { 'dictionary-typed': 'jwks_uri', 'dictionary-untyped': null };

const signatureBytes = (header: string) => Buffer.from(/^sig1=:(.*):$/.exec(header)?.[1] ?? '', 'base64');
const sign = (o: { method: string; url: string; body: string; headers?: Array<[string, string]>; covered?: string[]; form?: SignatureAgentType | null }) =>
  signRequest({
    method: o.method,
    url: o.url,
    headers: o.headers ?? [],
    body: utf8(o.body),
    keys: [{ privateJwk: KEY }],
    signatureAgent: `${AGENT_URL}${WELL_KNOWN.jwks}`,
    signatureAgentType: o.form === undefined ? 'jwks_uri' : o.form,
    created: CREATED,
    expires: EXPIRES,
    nonces: [NONCE],
    coveredHeaders: o.covered ?? [],
  });

/** Our full verifier on a request signed with the test key, its key set publishing that key. */
async function verifiedWithTestKey(method: string, url: string, headers: Record<string, string>, body: string) {
  const keySet = {
    status: 200,
    headers: { 'content-type': MEDIA_TYPES.json },
    body: JSON.stringify({ keys: [{ kty: KEY.kty, crv: KEY.crv, x: KEY.x, use: 'sig' }] }),
  };
  const ports = createMemoryPorts({ now: () => CREATED }, createMemoryFetcher({ [`${AGENT_URL}${WELL_KNOWN.jwks}`]: keySet }));
  return verifyRequest({ method, url, headers: Object.entries(headers), body: utf8(body), clientAddress: '192.0.2.1' }, ports, {
    authority: new URL(url).host,
  });
}

describe('platform SDK signer vectors: request targets', () => {
  it('holds the 7 dictionary-typed cases the file says', () => {
    expect(file.requestTarget.map((c) => c.id)).toHaveLength(7);
  });

  it.each(file.requestTarget.map((c) => [c.id, c] as const))('%s: the base is byte-identical (the pinned signature reproduced and verified)', (_id, c) => {
    for (const url of [c.url, c.target.url]) {
      const { headers, bases } = sign({ method: c.method, url, body: c.body });
      const lines = bases[0]!.split('\n');
      expect(lines.slice(0, 4)).toEqual([
        `"@method": ${c.method}`,
        `"@authority": ${c.target.authority}`,
        `"@path": ${c.target.path}`,
        `"@query": ${c.target.query}`,
      ]);
      if (c.contentDigest) expect(headers['content-digest']).toBe(c.contentDigest);
      expect(headers.signature, `signed at ${url}`).toBe(c.signature);
      expect(ed25519Verify(KEY.x, utf8(bases[0]!), signatureBytes(c.signature))).toBe(true);
    }
  });

  it.each(file.requestTarget.map((c) => [c.id, c] as const))('%s: our full verifier refuses the RFC 9421 test key (2.4)', async (_id, c) => {
    const { headers } = sign({ method: c.method, url: c.target.url, body: c.body });
    const verdict = await verifiedWithTestKey(c.method, c.target.url, headers, c.body);
    expect(verdict.ok ? 'accepted' : verdict.code).toBe(AUTH_CODES.key_set_invalid);
  });
});

describe('platform SDK signer vectors: the signed socket upgrade with the payment-methods hint covered', () => {
  it('holds 2 cases in 3 forms', () => {
    expect(file.upgrade).toHaveLength(2);
    for (const c of file.upgrade) expect(Object.keys(c.signatures).sort()).toEqual(['dictionary-typed', 'dictionary-untyped', 'legacy-string']);
  });

  for (const c of file.upgrade) {
    const hints = Object.entries(c.hints);
    const covered = hints.map(([name]) => name);

    it.each(Object.keys(FORMS))(`${c.name}, %s: the base is byte-identical (the pinned signature reproduced and verified)`, (form) => {
      // The socket URL signed in its http(s) form (wss: as https:, ws: as http:), host, port, path and query unchanged.
      expect(c.signedRequest.url).toBe(c.socketUrl.replace(/^ws/, 'http'));
      const { headers, bases } = sign({ method: c.signedRequest.method, url: c.signedRequest.url, body: '', headers: hints, covered, form: FORMS[form] });
      expect(bases[0]!.split('\n').slice(0, 5)).toEqual([
        `"@method": ${c.signedRequest.method}`,
        `"@authority": ${c.signedRequest.authority}`,
        `"@path": ${c.signedRequest.path}`,
        `"@query": ${c.signedRequest.query}`,
        ...hints.map(([name, value]) => `"${name}": ${value}`),
      ]);
      expect(headers.signature).toBe(c.signatures[form]);
      expect(ed25519Verify(KEY.x, utf8(bases[0]!), signatureBytes(c.signatures[form]!))).toBe(true);
    });

    it(`${c.name}, legacy-string: the pinned signature verifies over the legacy base (read side only; 5.2 refuses the form, READING-LEGACY-SIGNATURE-AGENT)`, () => {
      // The legacy form covers the bare field "signature-agent" holding the origin as a String; our signer never emits it.
      const { bases } = sign({ method: c.signedRequest.method, url: c.signedRequest.url, body: '', headers: hints, covered });
      const params = bases[0]!.split('\n').at(-1)!.replace('"signature-agent";key="sig1")', '"signature-agent")');
      const legacy = [...bases[0]!.split('\n').slice(0, 4 + hints.length), '"signature-agent": "https://agent.example"', params].join('\n');
      expect(ed25519Verify(KEY.x, utf8(legacy), signatureBytes(c.signatures['legacy-string']!))).toBe(true);
    });

    it(`${c.name}: our full verifier refuses the RFC 9421 test key (2.4)`, async () => {
      const { headers } = sign({ method: c.signedRequest.method, url: c.signedRequest.url, body: '', headers: hints, covered });
      const verdict = await verifiedWithTestKey(c.signedRequest.method, c.signedRequest.url, { ...Object.fromEntries(hints), ...headers }, '');
      expect(verdict.ok ? 'accepted' : verdict.code).toBe(AUTH_CODES.key_set_invalid);
    });
  }
});
