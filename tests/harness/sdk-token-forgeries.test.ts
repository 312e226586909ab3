import { decodeProtectedHeader } from 'jose';
import { describe, expect, test } from 'vitest';
import { callerKeySets, SDK_TOKEN_ALGORITHMS, sdkToken } from '../../src/harness/agent/callers.js';
import { createAuthSkill, FixedClock, MemoryKeySetCache, memoryKeySets, seededRandom, verifySdkToken } from '../../src/sdk-auth/index.js';
import type { SdkJwtAlgorithm } from '../../src/spec/sdk-auth.js';

const NOW = 1_800_000_000;
const AGENT = 'https://agents.example/a/receiver';

/**
 * The forged tokens sdk-tokens.signature and sdk-tokens.key-kinds present must be what they claim to be, or the checks
 * prove nothing: each names the issuer's key (of either kind: its key set carries an Ed25519 and an RSA key) and is
 * refused by a verifier for the reason its forgery is meant to exercise.
 */
describe.each(SDK_TOKEN_ALGORITHMS)("the suite's forged SDK tokens under %s", (algorithm: SdkJwtAlgorithm) => {
  const made = createAuthSkill({ base_url: AGENT, allow: ['https://*.callers.example'] });
  if (!made.ok) throw new Error(made.message);
  const skill = made.skill;
  const clock = new FixedClock(NOW);
  const ports = async () => ({ clock, fetchKeySet: memoryKeySets(await callerKeySets()), keySetCache: new MemoryKeySetCache() });
  const mint = (forge?: 'alg-none' | 'hmac-with-public-key' | 'signature-removed' | 'embedded-jwk') =>
    sdkToken({ issuer: 'user', algorithm, ...(forge ? { forge } : {}) }, AGENT, { clock, random: seededRandom(7) });

  test('the token they start from is signed so and verifies', async () => {
    const token = await mint();
    expect(decodeProtectedHeader(token).alg).toBe(algorithm);
    expect(await verifySdkToken(token, skill, await ports())).toMatchObject({ ok: true });
  });

  test.each([
    ['alg-none', 'none', 'algorithm_not_allowed'],
    ['hmac-with-public-key', 'HS256', 'algorithm_not_allowed'],
    ['signature-removed', algorithm, 'token_signature_invalid'],
    ['embedded-jwk', algorithm, 'token_signature_invalid'],
  ] as const)('%s: alg %s, refused %s', async (forge, alg, reason) => {
    const token = await mint(forge);
    const good = decodeProtectedHeader(await mint());
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe(alg);
    if (forge !== 'alg-none') expect(header.kid, "the issuer's kid").toBe(good.kid);
    if (forge === 'embedded-jwk') expect(header.jwk, 'a key of its own in the header').toMatchObject({ kty: algorithm === 'EdDSA' ? 'OKP' : 'RSA' });
    expect(await verifySdkToken(token, skill, await ports())).toMatchObject({ ok: false, reason });
  });
});
