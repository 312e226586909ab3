import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WELL_KNOWN } from '../../src/spec/index.js';
import { ed25519Verify, jwkThumbprint, signRequest, type SignatureAgentType } from '../../src/httpsig/index.js';
import { loadFixture, utf8 } from '../httpsig/fixtures.js';

interface SignerVectorFile {
  key: { privateJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; d: string }; thumbprint: string };
  agentUrl: string;
  request: { method: string; url: string; authority: string; path: string; query: string; body: string; headers?: Record<string, string> };
  coveredHeaders?: string[];
  credential?: { challenge: Record<string, string>; payload: Record<string, string>; header: string };
  params: { label: string; created: number; expires: number; nonce: string; alg: string; tag: string };
  vectors: { id: string; form: string; label: string; headers: Record<string, string>; signatureBaseLines: string[] }[];
}

/** The forms our profile emits, and the Signature-Agent type each one writes. */
const FORMS: Record<string, SignatureAgentType | null> = { 'dictionary-typed': 'jwks_uri', 'dictionary-untyped': null };

function reproduce(file: SignerVectorFile, form: string) {
  return signRequest({
    method: file.request.method,
    url: file.request.url,
    headers: Object.entries(file.request.headers ?? {}),
    body: utf8(file.request.body),
    keys: [{ privateJwk: file.key.privateJwk }],
    signatureAgent: `${file.agentUrl}${WELL_KNOWN.jwks}`,
    signatureAgentType: FORMS[form],
    created: file.params.created,
    expires: file.params.expires,
    nonces: [file.params.nonce],
    coveredHeaders: file.coveredHeaders ?? [],
  });
}

/** RFC 8785 JCS for objects whose leaves are all strings: keys sorted at every level, no whitespace. */
const jcs = (value: unknown): string =>
  typeof value === 'object' && value !== null
    ? `{${Object.keys(value)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${jcs((value as Record<string, unknown>)[k])}`)
        .join(',')}}`
    : JSON.stringify(value);

describe.each([
  ['signer-vectors.json (POST /api/auth/cli/token)', 'signer-vectors.json'],
  ['signer-vectors-covered-headers.json (POST /api/mpp/credits)', 'signer-vectors-covered-headers.json'],
])('platform SDK signer vectors: %s', (_title, fileName) => {
  const file = loadFixture<SignerVectorFile>(import.meta.url, fileName);

  it('uses the B.1.4 key, whose thumbprint is the pinned keyid', () => {
    expect(jwkThumbprint(file.key.privateJwk)).toBe(file.key.thumbprint);
  });

  // The third form, legacy-string (a bare String naming the origin, covered as plain "signature-agent"),
  // is one our profile never emits, so it is not reproduced here.
  it.each(file.vectors.filter((v) => v.form in FORMS).map((v) => [v.id, v] as const))('%s: every header and every base line byte for byte', (_id, v) => {
    const { headers, bases } = reproduce(file, v.form);
    expect(headers).toEqual(v.headers);
    expect(Object.keys(headers)).toEqual(Object.keys(v.headers));
    expect(bases).toHaveLength(1);
    expect(bases[0]?.split('\n')).toEqual(v.signatureBaseLines);
    expect(bases[0]).toBe(v.signatureBaseLines.join('\n'));
  });

  it('the legacy-string vector still verifies over its pinned base (read side only)', () => {
    const legacy = file.vectors.find((v) => v.form === 'legacy-string');
    if (legacy === undefined) throw new Error('no legacy vector');
    const signature = Buffer.from(/^sig1=:(.*):$/.exec(legacy.headers.signature ?? '')?.[1] ?? '', 'base64');
    expect(ed25519Verify(file.key.privateJwk.x, utf8(legacy.signatureBaseLines.join('\n')), signature)).toBe(true);
  });

  if (file.credential !== undefined) {
    const credential = file.credential;
    it('the covered Payment-Authorization value is "Payment " + base64url(JCS({challenge, payload}))', () => {
      const rebuilt = `Payment ${Buffer.from(jcs({ challenge: credential.challenge, payload: credential.payload })).toString('base64url')}`;
      expect(rebuilt).toBe(credential.header);
      expect(file.request.headers?.['payment-authorization']).toBe(rebuilt);
    });
  }

  it('the pinned content-digest is the sha-256 of the body {}', () => {
    expect(`sha-256=:${createHash('sha256').update(file.request.body).digest('base64')}:`).toBe(file.vectors[0]?.headers['content-digest']);
  });
});
