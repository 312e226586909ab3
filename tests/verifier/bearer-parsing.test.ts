import { CompactSign, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { keyFromName } from '../../src/scenarios/identities.js';
import { AGENT_SCOPE, PLATFORM_TOKEN_ISSUER, platformToken, platformTokenKeys } from '../../src/scenarios/platform-tokens.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { authorizationScheme, verifyPlatformBearer } from '../../src/verifier/bearer.js';
import { MESSAGES } from '../../src/verifier/messages.js';
import { MemoryRevocations } from '../../src/verifier/memory-stores.js';
import type { PlatformTokenConfig } from '../../src/verifier/types.js';

/**
 * 5.3 platform bearers, verified directly: how an Authorization value splits into scheme and credentials, and which
 * code and explanation each way a token can fail earns. The explanations are the words a library caller shows.
 */
const NOW = 1_800_000_000;
const AUDIENCE = 'https://platform.example/api';
const CONFIG: PlatformTokenConfig = { keys: platformTokenKeys(), issuer: PLATFORM_TOKEN_ISSUER, audience: AUDIENCE, agentScope: AGENT_SCOPE };
const CLAIMS = { iss: PLATFORM_TOKEN_ISSUER, aud: AUDIENCE, sub: 'user-1', scope: 'agent', iat: NOW - 10, exp: NOW + 600 };
const none = new MemoryRevocations();
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const platformKid = platformTokenKeys().keys[0]!.kid;

const invalid = (why: string) => ({ ok: false, code: AUTH_CODES.platform_token_invalid, description: MESSAGES.tokenInvalid(why) });
const malformed = { ok: false, code: AUTH_CODES.malformed_token, description: MESSAGES.malformedToken };

describe('authorizationScheme', () => {
  it.each([
    ['Bearer abc', 'Bearer', 'abc', true],
    ['bearer abc', 'bearer', 'abc', true],
    ['BEARER abc', 'BEARER', 'abc', true],
    ['  Bearer abc  ', 'Bearer', 'abc', true],
    ['Bearer    abc', 'Bearer', 'abc', true],
    ['Bearer\tabc', 'Bearer', 'abc', true],
    ['Bearer', 'Bearer', '', true],
    [' Bearer ', 'Bearer', '', true],
    ['Basic dXNlcjpwdw==', 'Basic', 'dXNlcjpwdw==', false],
    ['Bearerabc', 'Bearerabc', '', false],
    ['', '', '', false],
  ])('%j is scheme %j with credentials %j', (value, scheme, credentials, isBearer) => {
    expect(authorizationScheme(value)).toStrictEqual({ scheme, credentials, isBearer });
  });
});

describe('tokens that are not JWTs are malformed_token', () => {
  it.each([
    ['one segment', 'abc'],
    ['four segments', 'a.b.c.d'],
    ['a padded signature', 'eyJhbGciOiJFZERTQSJ9.e30.abc='],
  ])('%s', async (_name, token) => {
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(malformed);
  });

  it('a valid token with a character outside base64url appended', async () => {
    const token = await platformToken(CLAIMS);
    expect(await verifyPlatformBearer(`${token}=`, CONFIG, NOW, none)).toStrictEqual(malformed);
  });

  it('the JWT shape with a header that does not decode', async () => {
    expect(await verifyPlatformBearer('abc.def.ghi', CONFIG, NOW, none)).toStrictEqual(malformed);
    expect(await verifyPlatformBearer(`${b64('not an object')}.e30.`, CONFIG, NOW, none)).toStrictEqual(malformed);
  });
});

describe('a platform without bearer keys', () => {
  it('refuses a well-formed token as platform_token_invalid, saying it has no key set', async () => {
    const token = await platformToken(CLAIMS);
    expect(await verifyPlatformBearer(token, undefined, NOW, none)).toStrictEqual(invalid('this platform has no key set for bearer tokens'));
  });
});

describe('each jose failure has its own explanation', () => {
  it('an expired token', async () => {
    const token = await platformToken({ ...CLAIMS, exp: NOW - 120 });
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('it has expired'));
  });

  it('another issuer', async () => {
    const token = await platformToken({ ...CLAIMS, iss: 'https://elsewhere.example' });
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('its iss claim is not accepted'));
  });

  it('another audience', async () => {
    const token = await platformToken({ ...CLAIMS, aud: 'https://elsewhere.example/api' });
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('its aud claim is not accepted'));
  });

  it('issuer and audience are not checked when the platform configures none', async () => {
    const token = await platformToken({ ...CLAIMS, iss: 'https://elsewhere.example', aud: 'https://elsewhere.example/api' });
    const result = await verifyPlatformBearer(token, { keys: platformTokenKeys(), agentScope: AGENT_SCOPE }, NOW, none);
    expect(result.ok).toBe(true);
  });

  it('a key the platform does not hold', async () => {
    const token = await platformToken(CLAIMS, keyFromName('bearer-parsing/stranger'));
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('it was not signed by a platform key'));
  });

  it('the platform key id on a signature made with another key', async () => {
    const stranger = keyFromName('bearer-parsing/impostor');
    const signingKey = await importJWK({ ...stranger.privateJwk, alg: 'EdDSA' }, 'EdDSA');
    const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(CLAIMS)))
      .setProtectedHeader({ alg: 'EdDSA', kid: platformKid, typ: 'JWT' })
      .sign(signingKey);
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('its signature does not verify under the platform keys'));
  });

  it('an algorithm a key set cannot verify (HS256)', async () => {
    const token = `${b64({ alg: 'HS256', kid: platformKid, typ: 'JWT' })}.${b64(CLAIMS)}.c2ln`;
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('its algorithm is not accepted'));
  });

  it('an unknown algorithm', async () => {
    const token = `${b64({ alg: 'XYZ', kid: platformKid, typ: 'JWT' })}.${b64(CLAIMS)}.c2ln`;
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('its algorithm is not accepted'));
  });

  it('a signed payload that is not a claims set', async () => {
    const key = keyFromName('platform-token-signer');
    const signingKey = await importJWK({ ...key.privateJwk, alg: 'EdDSA' }, 'EdDSA');
    const token = await new CompactSign(new TextEncoder().encode('not a claims set'))
      .setProtectedHeader({ alg: 'EdDSA', kid: platformKid, typ: 'JWT' })
      .sign(signingKey);
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual(invalid('it does not verify'));
  });
});

describe('revocation', () => {
  it('a revoked jti is refused', async () => {
    const token = await platformToken({ ...CLAIMS, jti: 'revoked-1' });
    const revocations = new MemoryRevocations(new Set(['revoked-1']));
    expect(await verifyPlatformBearer(token, CONFIG, NOW, revocations)).toStrictEqual(invalid('it has been revoked'));
  });

  it('another jti is accepted', async () => {
    const token = await platformToken({ ...CLAIMS, jti: 'kept-1' });
    const revocations = new MemoryRevocations(new Set(['revoked-1']));
    expect((await verifyPlatformBearer(token, CONFIG, NOW, revocations)).ok).toBe(true);
  });

  it('a token without jti is never looked up', async () => {
    const asked: unknown[] = [];
    const everything = {
      isRevoked: (jti: string) => {
        asked.push(jti);
        return true;
      },
    };
    const token = await platformToken(CLAIMS);
    expect((await verifyPlatformBearer(token, CONFIG, NOW, everything)).ok).toBe(true);
    expect(asked).toStrictEqual([]);
  });
});

describe('scopes', () => {
  it.each([
    ['one scope', 'agent', ['agent']],
    ['runs of whitespace', '  read \t agent\n\nwrite  ', ['read', 'agent', 'write']],
  ])('%s', async (_name, scope, scopes) => {
    const token = await platformToken({ ...CLAIMS, scope });
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual({ ok: true, kind: 'platform-token', subject: 'user-1', scopes });
  });

  it('a token without the agent-use scope is insufficient_scope', async () => {
    const token = await platformToken({ ...CLAIMS, scope: 'read agents' });
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual({
      ok: false,
      code: AUTH_CODES.insufficient_scope,
      description: MESSAGES.tokenScope('agent'),
    });
  });

  it('a token without a scope claim, or with a scope that is no string, is insufficient_scope', async () => {
    for (const scope of [undefined, ['agent']]) {
      const token = await platformToken({ ...CLAIMS, scope });
      expect((await verifyPlatformBearer(token, CONFIG, NOW, none)) as { code?: string }).toMatchObject({ ok: false, code: AUTH_CODES.insufficient_scope });
    }
  });

  it('a token without sub has a null subject', async () => {
    const { sub: _sub, ...claims } = CLAIMS;
    const token = await platformToken(claims);
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toStrictEqual({ ok: true, kind: 'platform-token', subject: null, scopes: ['agent'] });
  });

  it('a token with a numeric sub has a null subject', async () => {
    const token = await platformToken({ ...CLAIMS, sub: 42 as unknown as string });
    expect(await verifyPlatformBearer(token, CONFIG, NOW, none)).toMatchObject({ ok: true, subject: null });
  });
});
