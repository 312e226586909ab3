import { generateKeyPairSync } from 'node:crypto';
import type { JWK } from 'jose';
import { describe, expect, test } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { createReferencePlatform } from '../../src/reference/platform.js';
import { createAuthSkill, FixedClock, mintSdkToken, seededRandom, signingKeyFromJwk } from '../../src/sdk-auth/index.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../../src/spec/wire.js';

const NOW = 1_800_000_000;
const AUTHORITY = 'platform.example';

/**
 * 5.1 and 5.3: neither SDK mode authenticates to the platform. A JWT an agent signs for itself (self-issued) or
 * one its own authority signs (Portal) is no platform token, even with the platform as its audience.
 */
describe('SDK-to-SDK tokens toward the platform (5.1, 5.3)', () => {
  for (const config of [
    { name: 'self-issued', skill: { agent_id: 'alice', base_url: 'https://agents.example/a/alice' } },
    { name: 'Portal', skill: { agent_id: 'alice', base_url: 'https://agents.example/a/alice', authority: 'https://portal.example' } },
  ]) {
    test(`a ${config.name} token is refused as a bearer with platform_token_invalid`, async () => {
      const made = createAuthSkill(config.skill);
      if (!made.ok) throw new Error(made.message);
      const { privateKey } = generateKeyPairSync('ed25519');
      const key = await signingKeyFromJwk(privateKey.export({ format: 'jwk' }) as JWK);
      const minted = await mintSdkToken(
        made.skill,
        { audience: `https://${AUTHORITY}`, scopes: ['read'], key },
        { clock: new FixedClock(NOW), random: seededRandom(7) },
      );
      if (!minted.ok) throw new Error(minted.message);

      const platform = createReferencePlatform({ authority: AUTHORITY, clock: { now: () => NOW }, fetcher: createMemoryFetcher({}) });
      const response = await platform.fetch(
        new Request(`https://${AUTHORITY}${PLATFORM_ROUTES.cliToken}`, {
          method: 'POST',
          headers: { [HEADERS.authorization]: `${AUTH_SCHEMES.bearer} ${minted.token}` },
        }),
        { clientAddress: '198.51.100.7' },
      );
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error_code?: string }).error_code).toBe(AUTH_CODES.platform_token_invalid);
    });
  }
});
