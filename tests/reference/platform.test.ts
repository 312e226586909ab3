import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import { contentDigestHeader, generateEd25519Jwk, jwkThumbprint } from '../../src/httpsig/index.js';
import type { CliTokenResponse } from '../../src/reference/cli-token.js';
import { createReferencePlatform } from '../../src/reference/index.js';
import { readVerifierRequest, renderAnswer } from '../../src/reference/render.js';
import { Kit, VECTOR_ENV } from '../../src/scenarios/kit.js';
import { keyFromName } from '../../src/scenarios/identities.js';
import { HEADERS } from '../../src/spec/headers.js';
import { LIMITS } from '../../src/spec/limits.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { AUTH_SCHEMES, ED25519_JWK, PLATFORM_ROUTES, WELL_KNOWN } from '../../src/spec/wire.js';
import { createMemoryPorts } from '../../src/verifier/memory-ports.js';
import type { Refusal } from '../../src/verifier/types.js';
import { verifyRequest } from '../../src/verifier/verify-request.js';
import { fetchRequest } from './helpers.js';

const CLIENT = { clientAddress: '192.0.2.10' };

function setUp(caseId: string, options: { hostedAgentKeys?: Parameters<typeof createReferencePlatform>[0]['hostedAgentKeys'] } = {}) {
  const kit = new Kit(VECTOR_ENV, caseId);
  let now = kit.now;
  const clock = { now: () => now };
  const fetcher = createMemoryFetcher(kit.docs());
  const platform = createReferencePlatform({ authority: VECTOR_ENV.authority, clock, fetcher, ...options });
  return { kit, platform, fetcher, advance: (seconds: number) => (now += seconds) };
}

const bearer = (token: string): [string, string] => [HEADERS.authorization, `${AUTH_SCHEMES.bearer} ${token}`];

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** Every header of a Response, lower-case names. */
function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers]);
}

describe('reference platform: POST /api/auth/cli/token', () => {
  it('answers a verified signed request 200 with a platform token for the agent URL', async () => {
    const { kit, platform } = setUp('platform-token-minted');
    const response = await platform.fetch(fetchRequest(kit.request()), CLIENT);
    expect(response.status).toBe(200);
    expect(response.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.json);
    expect(response.headers.get(HEADERS.cacheControl)).toBe('no-store');
    const body = (await response.json()) as CliTokenResponse;
    expect(body.token_type).toBe(AUTH_SCHEMES.bearer);
    expect(body.agent_url).toBe(kit.alice.agentUrl);
    expect(body.expires_in).toBe(3600);

    const claims = decodeJwt(body.access_token);
    expect(claims.iss).toBe(`https://${VECTOR_ENV.authority}`);
    expect(claims.sub).toBe(kit.alice.agentUrl);
    expect(String(claims.scope).split(' ')).toContain(platform.config.platformToken!.agentScope);
    expect(claims.exp).toBe(kit.now + 3600);
    expect(claims.iat).toBe(kit.now);
    expect(typeof claims.jti).toBe('string');
    expect((claims.jti as string).length).toBeGreaterThanOrEqual(16);
    // The first signed request registered the agent.
    expect(platform.ports.registrations.get(kit.alice.agentUrl)?.thumbprints).toEqual([kit.A.thumbprint]);
  });

  it('accepts its own token as Bearer on the next request, and refuses a tampered, foreign or expired one', async () => {
    const { kit, platform, advance } = setUp('platform-token-bearer');
    const first = (await (await platform.fetch(fetchRequest(kit.request()), CLIENT)).json()) as CliTokenResponse;
    const token = first.access_token;
    const url = kit.url();

    const again = await platform.fetch(new Request(url, { method: 'POST', headers: [bearer(token)] }), CLIENT);
    expect(again.status).toBe(200);
    const refreshed = (await again.json()) as CliTokenResponse;
    expect(refreshed.agent_url).toBe(kit.alice.agentUrl);
    expect(refreshed.access_token).not.toBe(token);

    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const tampered = await platform.fetch(new Request(url, { method: 'POST', headers: [bearer(`${header}.${payload}.${flipped}`)] }), CLIENT);
    expect(tampered.status).toBe(401);
    expect((await json(tampered)).error_code).toBe('platform_token_invalid');

    const other = createReferencePlatform({ authority: VECTOR_ENV.authority, fetcher: createMemoryFetcher({}), clock: { now: () => kit.now } });
    const foreign = (await other.tokens.mint(kit.alice.agentUrl)).token;
    const refused = await platform.fetch(new Request(url, { method: 'POST', headers: [bearer(foreign)] }), CLIENT);
    expect(refused.status).toBe(401);
    expect((await json(refused)).error_code).toBe('platform_token_invalid');

    advance(3600 + 1);
    const expired = await platform.fetch(new Request(url, { method: 'POST', headers: [bearer(token)] }), CLIENT);
    expect(expired.status).toBe(401);
    expect((await json(expired)).error_code).toBe('platform_token_invalid');
  });

  it("answers a refusal with exactly the verifier's status, headers and body", async () => {
    const { kit, platform } = setUp('platform-refusal-rendering');
    const cases: Array<{ request: Request; code: string }> = [
      { request: new Request(kit.url(), { method: 'POST' }), code: 'missing_credential' },
      { request: new Request(kit.url(), { method: 'POST', body: '{}' }), code: 'missing_credential' },
      { request: fetchRequest(kit.request({ created: kit.now - 7200, expires: kit.now - 3600 })), code: 'signature_expired' },
      { request: fetchRequest(kit.request({ keySetUrl: kit.bob.keySetUrl })), code: 'key_set_unreachable' },
      { request: new Request(kit.url(), { method: 'POST', headers: [bearer('not-a-jwt')] }), code: 'malformed_token' },
    ];
    for (const { request, code } of cases) {
      // The same request, judged by the verifier alone against an identical, fresh state.
      const read = await readVerifierRequest(request.clone(), CLIENT.clientAddress);
      const ports = createMemoryPorts({ now: () => kit.now }, createMemoryFetcher(kit.docs()));
      const verdict = (await verifyRequest(read.request, ports, platform.config)) as Refusal;
      expect(verdict.ok, code).toBe(false);
      expect(verdict.code).toBe(code);

      const response = await platform.fetch(request, CLIENT);
      expect(response.status, code).toBe(verdict.status);
      const body = await response.text();
      expect(JSON.parse(body), code).toEqual(verdict.body);
      expect(headersOf(response), code).toEqual({ ...verdict.headers, [HEADERS.contentLength]: String(Buffer.byteLength(body)) });
      if (code === 'missing_credential') expect(response.headers.get(HEADERS.acceptSignature)).toBe(verdict.headers[HEADERS.acceptSignature]);
    }
  });

  it('verifies every method first, then answers 405 with Allow', async () => {
    const { kit, platform } = setUp('platform-405');
    const unsigned = await platform.fetch(new Request(kit.url(), { method: 'GET' }), CLIENT);
    expect(unsigned.status).toBe(401);
    expect((await json(unsigned)).error_code).toBe('missing_credential');

    const signedGet = await platform.fetch(fetchRequest(kit.request({ method: 'GET', body: new Uint8Array(0) })), CLIENT);
    expect(signedGet.status).toBe(405);
    expect(signedGet.headers.get(HEADERS.allow)).toBe('POST');
    expect(await json(signedGet)).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });

    const signedPut = await platform.fetch(fetchRequest(kit.request({ method: 'PUT' })), CLIENT);
    expect(signedPut.status).toBe(405);
    expect(signedPut.headers.get(HEADERS.allow)).toBe('POST');

    const badSignedPut = await platform.fetch(fetchRequest(kit.request({ method: 'PUT', created: kit.now - 7200, expires: kit.now - 3600 })), CLIENT);
    expect(badSignedPut.status).toBe(401);
    expect((await json(badSignedPut)).error_code).toBe('signature_expired');
  });

  it('refuses a request whose body a route read before verification (request_body_consumed)', async () => {
    const { kit, platform } = setUp('platform-body-consumed');
    const request = fetchRequest(kit.request());
    await request.arrayBuffer();
    const response = await platform.fetch(request, CLIENT);
    expect(response.status).toBe(401);
    expect((await json(response)).error_code).toBe('request_body_consumed');
  });

  it('injects the fault of a route that reads the body first (info.bodyConsumed)', async () => {
    const { kit, platform } = setUp('platform-body-consumed-fault');
    for (const request of [fetchRequest(kit.request()), fetchRequest(kit.request({ body: new Uint8Array(0) }))]) {
      const response = await platform.fetch(request, { ...CLIENT, bodyConsumed: true });
      expect(response.status).toBe(401);
      expect((await json(response)).error_code).toBe('request_body_consumed');
    }
  });

  it('accepts tokens of further keys and requires the configured issuer', async () => {
    const kit = new Kit(VECTOR_ENV, 'platform-accepted-token-keys');
    const clock = { now: () => kit.now };
    const signer = createReferencePlatform({ authority: 'other.example', fetcher: createMemoryFetcher({}), clock, tokenIssuer: 'https://issuer.example' });
    const platform = createReferencePlatform({
      authority: VECTOR_ENV.authority,
      fetcher: createMemoryFetcher({}),
      clock,
      tokenIssuer: 'https://issuer.example',
      acceptedTokenKeys: signer.tokens.publicKeys,
    });
    expect(platform.config.platformToken?.issuer).toBe('https://issuer.example');
    const foreign = (await signer.tokens.mint(kit.alice.agentUrl)).token;
    const accepted = await platform.fetch(new Request(kit.url(), { method: 'POST', headers: [bearer(foreign)] }), CLIENT);
    expect(accepted.status).toBe(200);
    const own = ((await accepted.json()) as CliTokenResponse).access_token;
    expect(decodeJwt(own).iss).toBe('https://issuer.example');

    const strict = createReferencePlatform({
      authority: VECTOR_ENV.authority,
      fetcher: createMemoryFetcher({}),
      clock,
      acceptedTokenKeys: signer.tokens.publicKeys,
    });
    const wrongIssuer = await strict.fetch(new Request(kit.url(), { method: 'POST', headers: [bearer(foreign)] }), CLIENT);
    expect(wrongIssuer.status).toBe(401);
    expect((await json(wrongIssuer)).error_code).toBe('platform_token_invalid');
  });

  it('reads an oversized body only as far as the verifier needs and refuses signature_body_too_large', async () => {
    const { kit, platform } = setUp('platform-body-too-large');
    const size = 5 * 1024 * 1024;
    const signed = kit.request({ bodyFill: { length: size, byte: 0x61 } });
    const chunk = 64 * 1024;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= size) return controller.close();
        controller.enqueue(new Uint8Array(chunk).fill(0x61));
        pulled += chunk;
      },
    });
    const headers = new Headers(signed.headers as Array<[string, string]>);
    expect(headers.get(HEADERS.contentDigest)).toBe(contentDigestHeader(new Uint8Array(size).fill(0x61), ['sha-256']));
    const request = new Request(signed.url, { method: 'POST', headers, body, duplex: 'half' } as RequestInit & { duplex: 'half' });
    const response = await platform.fetch(request, CLIENT);
    expect(response.status).toBe(401);
    expect((await json(response)).error_code).toBe('signature_body_too_large');
    expect(pulled).toBeLessThanOrEqual(LIMITS.signedRequestBody.value + 3 * chunk);
  });
});

describe('reference platform: key directory', () => {
  it('lists one entry per thumbprint of the hosted Ed25519 keys, public members only, with the directory media type', async () => {
    const alice = keyFromName('alice-1');
    const alice2 = keyFromName('alice-2');
    const rsa = { kty: 'RSA', n: 'sXch', e: 'AQAB' };
    const { kit, platform } = setUp('platform-key-directory', {
      hostedAgentKeys: [alice.publicJwk, { ...alice.publicJwk, kid: 'other-name' }, { ...alice2.privateJwk }, rsa],
    });
    const response = await platform.fetch(new Request(`${kit.platformUrl}${WELL_KNOWN.keyDirectory}`), CLIENT);
    expect(response.status).toBe(200);
    expect(response.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.keyDirectory);
    const document = (await response.json()) as { keys: Array<Record<string, unknown>> };
    expect(document.keys).toEqual([
      { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: alice.publicJwk.x, use: ED25519_JWK.use, kid: alice.thumbprint },
      { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: alice2.publicJwk.x, use: ED25519_JWK.use, kid: alice2.thumbprint },
    ]);
    for (const entry of document.keys) expect(entry.kid).toBe(jwkThumbprint(entry as { kty: string }));
  });

  it('is public, answers HEAD without a body, and other methods 405 with Allow', async () => {
    const key = generateEd25519Jwk().publicJwk;
    const { kit, platform } = setUp('platform-key-directory-methods', { hostedAgentKeys: () => [key] });
    const url = `${kit.platformUrl}${WELL_KNOWN.keyDirectory}`;
    const withBadCredential = await platform.fetch(new Request(url, { headers: [bearer('not-a-jwt')] }), CLIENT);
    expect(withBadCredential.status).toBe(200);

    const head = await platform.fetch(new Request(url, { method: 'HEAD' }), CLIENT);
    expect(head.status).toBe(200);
    expect(head.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.keyDirectory);
    expect(head.body).toBeNull();

    const post = await platform.fetch(new Request(url, { method: 'POST', body: '{}' }), CLIENT);
    expect(post.status).toBe(405);
    expect(post.headers.get(HEADERS.allow)).toBe('GET, HEAD');
  });

  it('answers an empty directory when it hosts no agent', async () => {
    const { kit, platform } = setUp('platform-key-directory-empty');
    const response = await platform.fetch(new Request(`${kit.platformUrl}${WELL_KNOWN.keyDirectory}`), CLIENT);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ keys: [] });
  });
});

describe('reference platform: routes', () => {
  it('answers an unknown path 404 with { error: { code: not_found, message } }', async () => {
    const { kit, platform } = setUp('platform-404');
    for (const path of ['/nope', '/api/auth/cli', `${PLATFORM_ROUTES.cliToken}/extra`, '/api/auth/jwks', '/api/auth/token']) {
      const response = await platform.fetch(new Request(`${kit.platformUrl}${path}`, { method: 'POST' }), CLIENT);
      expect(response.status, path).toBe(404);
      expect(response.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.json);
      const body = await json(response);
      expect(body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });

  it('still judges a credential sent to an unknown path: a bad one is 401, a good one 404', async () => {
    const { kit, platform } = setUp('platform-404-signed');
    const elsewhere = kit.url('/api/auth/cli/tokens');
    const moved = await platform.fetch(fetchRequest({ ...kit.request(), url: elsewhere }), CLIENT);
    expect(moved.status).toBe(401);
    expect((await json(moved)).error_code).toBe('signature_invalid');
    const signedThere = await platform.fetch(fetchRequest(kit.request({ url: elsewhere })), CLIENT);
    expect(signedThere.status).toBe(404);
    const badBearer = await platform.fetch(new Request(elsewhere, { method: 'POST', headers: [bearer('x.y.z')] }), CLIENT);
    expect(badBearer.status).toBe(401);
  });

  it('takes added routes, verified first when they ask for it, and turns a failing handler into a 500', async () => {
    const { kit, platform } = setUp('platform-added-routes');
    platform.routes
      .add({
        name: 'echo',
        path: '/echo',
        access: 'verified',
        methods: {
          POST: async (ctx) => {
            const read = await ctx.read();
            return renderAnswer({
              status: 200,
              body: { agent: ctx.verdict.kind === 'signature' ? ctx.verdict.agentUrl : null, bytes: read.request.body?.length ?? 0 },
            });
          },
        },
      })
      .add({
        name: 'boom',
        path: (p) => (p.startsWith('/boom/') ? { rest: p.slice(6) } : null),
        access: 'public',
        methods: { GET: () => Promise.reject(new Error('x')) },
      });

    const echoed = await platform.fetch(fetchRequest(kit.request({ url: kit.url('/echo'), bodyText: '{"a":1}' })), CLIENT);
    expect(echoed.status).toBe(200);
    expect(await echoed.json()).toEqual({ agent: kit.alice.agentUrl, bytes: 7 });
    const unsigned = await platform.fetch(new Request(kit.url('/echo'), { method: 'POST' }), CLIENT);
    expect(unsigned.status).toBe(401);
    const boom = await platform.fetch(new Request(kit.url('/boom/x')), CLIENT);
    expect(boom.status).toBe(500);
    expect(await json(boom)).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
  });

  it('checks its options', () => {
    expect(() => createReferencePlatform({ authority: 'platform.example' })).toThrow(/fetcher/);
    expect(() => createReferencePlatform({ authority: 'a/b', fetcher: createMemoryFetcher({}) })).toThrow(/authority/);
    const platform = createReferencePlatform({ authority: 'Platform.Example:443', fetcher: createMemoryFetcher({}) });
    expect(platform.authority).toBe('platform.example');
    expect(platform.config.authority).toBe('platform.example');
    const { privateJwk } = generateEd25519Jwk();
    const other = generateEd25519Jwk().privateJwk;
    expect(() =>
      createReferencePlatform({ authority: 'p.example', fetcher: createMemoryFetcher({}), platformTokenKey: { ...privateJwk, x: other.x } }),
    ).toThrow(/x is not the public key/);
    const keyed = createReferencePlatform({ authority: 'p.example', fetcher: createMemoryFetcher({}), platformTokenKey: privateJwk });
    expect(keyed.tokens.publicKeys.keys[0]).toMatchObject({ x: privateJwk.x, kid: jwkThumbprint(privateJwk) });
    expect(JSON.stringify(keyed.tokens.publicKeys)).not.toContain(privateJwk.d);
  });
});
