import { afterEach, describe, expect, test } from 'vitest';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { LIMITS } from '../../src/spec/limits.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

let served: ServedReference | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function malformed(from: string | undefined): Promise<string> {
  const response = await fetch(`${served!.url}${PLATFORM_ROUTES.cliToken}`, {
    method: 'POST',
    headers: { [HEADERS.signatureInput]: 'not a dictionary (', ...(from ? { 'x-forwarded-for': from } : {}) },
  });
  return ((await response.json()) as { error_code: string }).error_code;
}

describe('serve --client-address-header: per-address throttling behind a proxy', () => {
  test('failures count against the address the header names, from a loopback peer', async () => {
    served = await serveReference({ port: 0, clientAddressHeader: 'x-forwarded-for' });
    for (let i = 0; i < LIMITS.failedSignatures.value; i++) expect(await malformed('198.51.100.20')).toBe(AUTH_CODES.signature_malformed);
    expect(await malformed('198.51.100.20')).toBe(AUTH_CODES.too_many_failed_signatures);
    expect(await malformed('198.51.100.21, 10.0.0.1')).toBe(AUTH_CODES.signature_malformed);
    expect(await malformed(undefined)).toBe(AUTH_CODES.signature_malformed);
  });

  test('without the option the header is ignored: every request counts against the peer', async () => {
    served = await serveReference({ port: 0 });
    for (let i = 0; i < LIMITS.failedSignatures.value; i++) await malformed(`198.51.100.${i}`);
    expect(await malformed('198.51.100.99')).toBe(AUTH_CODES.too_many_failed_signatures);
  });
});
