import { describe, expect, test } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { createReferencePlatform } from '../../src/reference/index.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { WELL_KNOWN } from '../../src/spec/wire.js';

describe('the key directory, a platform route', () => {
  const platform = createReferencePlatform({ authority: 'platform.example', clock: { now: () => 1_800_000_000 }, fetcher: createMemoryFetcher({}) });
  const url = `https://platform.example${WELL_KNOWN.keyDirectory}`;

  test('is served to anyone who asks unsigned, with its media type', async () => {
    const response = await platform.fetch(new Request(url), { clientAddress: '192.0.2.1' });
    expect(response.status).toBe(200);
    expect(response.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.keyDirectory);
  });

  test('verifies a signed request: one that does not verify is refused as the verifier says', async () => {
    const response = await platform.fetch(new Request(url, { headers: { [HEADERS.signatureInput]: 'not a dictionary (' } }), { clientAddress: '192.0.2.1' });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error_code: string }).error_code).toBe(AUTH_CODES.signature_malformed);
  });
});
