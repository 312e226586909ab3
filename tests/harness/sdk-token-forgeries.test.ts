import { decodeProtectedHeader } from 'jose';
import { describe, expect, test } from 'vitest';
import { callerKeySets, sdkToken } from '../../src/harness/agent/callers.js';
import { createAuthSkill, FixedClock, MemoryKeySetCache, memoryKeySets, seededRandom, verifySdkToken } from '../../src/sdk-auth/index.js';

const NOW = 1_800_000_000;
const AGENT = 'https://agents.example/a/receiver';

/**
 * The forged tokens sdk-tokens.signature presents must be what they claim to be, or the check proves nothing: each names
 * the issuer's key and is refused by a verifier for the reason its forgery is meant to exercise.
 */
describe("the suite's forged SDK tokens", () => {
  const made = createAuthSkill({ base_url: AGENT, allow: ['https://*.callers.example'] });
  if (!made.ok) throw new Error(made.message);
  const skill = made.skill;
  const ports = { clock: new FixedClock(NOW), fetchKeySet: memoryKeySets(callerKeySets()), keySetCache: new MemoryKeySetCache() };
  const mint = (forge?: 'alg-none' | 'hmac-with-public-key' | 'signature-removed') =>
    sdkToken({ issuer: 'user', ...(forge ? { forge } : {}) }, AGENT, { clock: ports.clock, random: seededRandom(7) });

  test('the token they start from verifies', async () => {
    expect(await verifySdkToken(await mint(), skill, ports)).toMatchObject({ ok: true });
  });

  test.each([
    ['alg-none', 'none', 'algorithm_not_allowed'],
    ['hmac-with-public-key', 'HS256', 'algorithm_not_allowed'],
    ['signature-removed', 'EdDSA', 'token_signature_invalid'],
  ] as const)('%s: alg %s, refused %s', async (forge, alg, reason) => {
    const token = await mint(forge);
    expect(decodeProtectedHeader(token).alg).toBe(alg);
    expect(await verifySdkToken(token, skill, ports)).toMatchObject({ ok: false, reason });
  });
});
