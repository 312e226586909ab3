import { describe, expect, it } from 'vitest';
import { checkAgent } from '../../src/agent-check/index.js';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { agentAt, cardDocument, keyFromName, keySetDocument } from '../../src/scenarios/identities.js';
import { buildSignedRequest } from '../../src/scenarios/request-builder.js';
import { caseRequestBody } from '../../src/cases/request-body.js';
import { AUTH_CODES, MEDIA_TYPES, WELL_KNOWN } from '../../src/spec/index.js';
import { createMemoryPorts, verifyRequest } from '../../src/verifier/index.js';

/**
 * One judge of key sets (issue 23): the verifier and check-agent give one verdict on every key set. Each row is a
 * key set and the verdict 2.4 and section 8 give it, written here from the spec (never from the code): `valid` when a
 * request signed with the agent's Ed25519 key is verified, `invalid` when the platform refuses the set
 * (key_set_invalid) and check-agent fails the agent. Both are fed the same document.
 */
const NOW = 1_800_000_000;
const PLATFORM = 'platform.example';
const alice = agentAt('https://agents.example/a/alice');
const A = keyFromName('one-judge/alice');
const other = (i: number) => keyFromName(`one-judge/other-${i}`).publicJwk;
const RSA = {
  kty: 'RSA',
  e: 'AQAB',
  n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
  use: 'sig',
};
/** The RFC 9421 Appendix B.1.4 Ed25519 public key. */
const RFC9421_ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', use: 'sig' };
const fifteen = Array.from({ length: 15 }, (_, i) => other(i));

const KEY_SETS: ReadonlyArray<readonly [name: string, document: unknown, verdict: 'valid' | 'invalid']> = [
  ['an empty keys list', { keys: [] }, 'invalid'],
  ['the signing key alone', { keys: [A.publicJwk] }, 'valid'],
  ['16 Ed25519 keys', { keys: [...fifteen, A.publicJwk] }, 'valid'],
  ['17 Ed25519 keys', { keys: [...fifteen, other(15), A.publicJwk] }, 'invalid'],
  ['16 Ed25519 keys and an RSA key (READING-KEY-SET-RSA)', { keys: [...fifteen, A.publicJwk, RSA] }, 'valid'],
  ['an RSA key only (nothing signs toward the platform)', { keys: [RSA] }, 'invalid'],
  ['the signing key published with its private d', { keys: [{ ...A.publicJwk, d: A.privateJwk.d }] }, 'invalid'],
  ['a private Ed25519 key beside the signing key', { keys: [A.publicJwk, { ...keyFromName('one-judge/leaked').privateJwk, use: 'sig' }] }, 'invalid'],
  ['a private RSA key beside the signing key', { keys: [A.publicJwk, { ...RSA, d: 'AQAB', p: 'AQAB', q: 'AQAB' }] }, 'invalid'],
  ['the RFC 9421 test key beside the signing key', { keys: [A.publicJwk, RFC9421_ED25519] }, 'invalid'],
  ['the RFC 9421 test key alone', { keys: [RFC9421_ED25519] }, 'invalid'],
  [
    'two keys under one kid',
    {
      keys: [
        { ...A.publicJwk, kid: 'k1' },
        { ...other(1), kid: 'k1' },
      ],
    },
    'valid',
  ],
  ['the signing key twice', { keys: [A.publicJwk, A.publicJwk] }, 'valid'],
  ['a null entry beside the signing key (READING-KEY-SET-UNUSABLE-ENTRY)', { keys: [A.publicJwk, null] }, 'valid'],
  ['an X25519 key beside the signing key', { keys: [A.publicJwk, { ...other(2), crv: 'X25519' }] }, 'valid'],
  ['an EC key beside the signing key', { keys: [A.publicJwk, { kty: 'EC', crv: 'P-256', x: 'AQAB', y: 'AQAB', use: 'sig' }] }, 'valid'],
  ['an Ed25519 key with a 31-byte x beside the signing key', { keys: [A.publicJwk, { ...other(3), x: Buffer.alloc(31, 7).toString('base64url') }] }, 'valid'],
  ['an Ed25519 key with an undecodable x beside the signing key', { keys: [A.publicJwk, { ...other(4), x: '+/+/+/+/' }] }, 'valid'],
  ['an Ed25519 key without x beside the signing key', { keys: [A.publicJwk, { ...other(5), x: undefined }] }, 'valid'],
  ['a key with use enc beside the signing key', { keys: [A.publicJwk, { ...other(6), use: 'enc' }] }, 'valid'],
  ['the signing key with use enc (no signing key left)', { keys: [{ ...A.publicJwk, use: 'enc' }] }, 'invalid'],
  ['the signing key without use', { keys: [{ ...A.publicJwk, use: undefined }] }, 'valid'],
  ['16 Ed25519 keys and an X25519 key', { keys: [...fifteen, A.publicJwk, { ...other(16), crv: 'X25519' }] }, 'valid'],
  ['17 Ed25519 entries, one a copy of another', { keys: [...fifteen, A.publicJwk, A.publicJwk] }, 'invalid'],
  ['a bare array of keys', [A.publicJwk], 'invalid'],
  ['keys as one object, not an array', { keys: A.publicJwk }, 'invalid'],
  ['JSON null', null, 'invalid'],
];

const documentsFor = (keySet: unknown) => ({
  [alice.keySetUrl]: { status: 200, headers: { 'content-type': MEDIA_TYPES.json }, body: JSON.stringify(keySet) },
  [alice.cardUrl]: cardDocument(alice),
  [`https://agents.example${WELL_KNOWN.keyDirectory}`]: keySetDocument([A.publicJwk], MEDIA_TYPES.keyDirectory),
});

async function verifierVerdict(keySet: unknown): Promise<{ valid: boolean; code: string | null }> {
  const signed = buildSignedRequest({
    method: 'POST',
    url: `https://${PLATFORM}/api/auth/cli/token`,
    keySetUrl: alice.keySetUrl,
    created: NOW,
    expires: NOW + 60,
    nonce: () => 'one-judge-nonce',
    labels: [{ label: 'sig1', key: A }],
    body: new TextEncoder().encode('{}'),
  });
  const ports = createMemoryPorts({ now: () => NOW }, createMemoryFetcher(documentsFor(keySet)));
  const verdict = await verifyRequest(
    { method: signed.method, url: signed.url, headers: signed.headers, body: caseRequestBody(signed) ?? null, clientAddress: '192.0.2.1' },
    ports,
    { authority: PLATFORM },
  );
  if (verdict.ok) return { valid: true, code: null };
  // Anything but key_set_invalid (the signing key unknown, say) is a verdict on the request, not on the set.
  return { valid: verdict.code !== AUTH_CODES.key_set_invalid, code: verdict.code };
}

describe('check-agent and the verifier give one verdict on every key set', () => {
  it.each(KEY_SETS.map(([name, document, verdict]) => [name, document, verdict] as const))('%s: %s', async (_name, document, verdict) => {
    const fromVerifier = await verifierVerdict(document);
    const report = await checkAgent(alice.agentUrl, createMemoryFetcher(documentsFor(document)));
    const keySetDocument = report.documents.find((d) => d.name === 'key_set')!;
    const keySetErrors = report.problems.filter((p) => p.url === alice.keySetUrl && p.level === 'error');

    expect(fromVerifier.valid, `the verifier (answered ${fromVerifier.code ?? 'accepted'})`).toBe(verdict === 'valid');
    expect(keySetDocument.ok, `check-agent (${JSON.stringify(keySetErrors.map((p) => p.code))})`).toBe(verdict === 'valid');
    expect(keySetErrors.length > 0).toBe(verdict === 'invalid');
    // A valid set verifies the request outright: nothing else stands in its way in these documents.
    if (verdict === 'valid') expect(fromVerifier.code).toBeNull();
  });
});
