import { afterAll, describe, expect } from 'vitest';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { jwkThumbprint } from '../src/httpsig/index.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { ED25519_JWK, WELL_KNOWN } from '../src/spec/wire.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';

/** Section 2.4 (and 4.3): the key directory the platform serves at its origin. */
const target = suiteTarget();
afterAll(() => target.close());

async function directory(record: CheckContext['record']) {
  const request = { method: 'GET', url: `${target.environment.platformOrigin}${WELL_KNOWN.keyDirectory}`, headers: [] as Array<[string, string]>, body: null };
  const response = await target.send(request);
  record({ request: recordRequest(request), response: recordResponse(response) });
  return response;
}

describe(`2.4 key directory (${target.description})`, () => {
  check({
    id: 'key-directory.media-type',
    title: 'served at the origin with its media type',
    requirements: [REQUIREMENTS.keyDirectoryMediaType.id],
    level: 'MUST',
    run: async ({ record }) => {
      const response = await directory(record);
      expect(response.status, 'status').toBe(200);
      const mediaType = (response.headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase();
      expect(mediaType, 'Content-Type').toBe(MEDIA_TYPES.keyDirectory);
    },
  });

  check({
    id: 'key-directory.entries',
    title: 'lists Ed25519 public keys, one entry per thumbprint',
    requirements: [REQUIREMENTS.keyDirectoryEntries.id],
    level: 'MUST',
    run: async ({ record }) => {
      const response = await directory(record);
      const document = JSON.parse(Buffer.from(response.body).toString('utf8')) as { keys?: unknown };
      expect(Array.isArray(document.keys), 'the document has a "keys" array').toBe(true);
      const keys = document.keys as Array<Record<string, unknown>>;
      const thumbprints = keys.map((k, i) => {
        expect([k.kty, k.crv], `keys[${i}] is an Ed25519 key`).toEqual([ED25519_JWK.kty, ED25519_JWK.crv]);
        expect(k.d, `keys[${i}] publishes no private key`).toBeUndefined();
        const thumbprint = jwkThumbprint(k as { kty: string });
        if (k.kid !== undefined) expect(k.kid, `keys[${i}].kid is its thumbprint`).toBe(thumbprint);
        return thumbprint;
      });
      expect(new Set(thumbprints).size, 'one entry per thumbprint').toBe(thumbprints.length);
    },
  });
});
