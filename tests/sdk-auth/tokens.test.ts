import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { describe, expect, test } from 'vitest';
import {
  createAuthSkill,
  FixedClock,
  MemoryKeySetCache,
  memoryKeySets,
  mintSdkToken,
  publicEntryOf,
  seededRandom,
  signingKeyFromJwk,
  signSdkClaims,
  verifySdkToken,
  type AuthSkill,
  type SdkSigningKey,
} from '../../src/sdk-auth/index.js';
import { LIMITS } from '../../src/spec/limits.js';
import { SDK_JWT_ALGORITHMS, SDK_TOKEN_TYPE } from '../../src/spec/sdk-auth.js';
import { WELL_KNOWN } from '../../src/spec/wire.js';

const NOW = 1_800_000_000;
const ALICE = 'https://agents.example/a/alice';
const BOB = 'https://agents.example/a/bob';
const ALICE_JWKS = `${ALICE}${WELL_KNOWN.jwks}`;

function skill(config: unknown): AuthSkill {
  const r = createAuthSkill(config);
  if (!r.ok) throw new Error(r.message);
  return r.skill;
}
async function freshKey(type: 'ed25519' | 'rsa'): Promise<SdkSigningKey> {
  const { privateKey } = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
  return signingKeyFromJwk(privateKey.export({ format: 'jwk' }) as JWK);
}
const alice = skill({ agent_id: 'alice', base_url: ALICE });
const bob = skill({ base_url: BOB, allowed_scopes: ['read', 'tools:*'] });

describe('minting and verifying SDK-to-SDK tokens (2.2, 5.5)', () => {
  for (const type of ['ed25519', 'rsa'] as const) {
    test(`${type}: the claims of 2.2 with the default lifetime of 300 s, verified into the AuthContext of 2.3`, async () => {
      const key = await freshKey(type);
      const minted = await mintSdkToken(
        alice,
        { audience: BOB, scopes: ['read', 'tools:x', 'admin'], key, agentPath: '/a' },
        { clock: new FixedClock(NOW), random: seededRandom(1) },
      );
      if (!minted.ok) throw new Error(minted.message);
      expect(decodeProtectedHeader(minted.token)).toEqual({
        alg: type === 'rsa' ? SDK_JWT_ALGORITHMS.rsa : SDK_JWT_ALGORITHMS.ed25519,
        kid: key.kid,
        typ: 'JWT',
      });
      const claims = decodeJwt(minted.token);
      expect(claims).toEqual({
        iss: ALICE,
        sub: 'alice',
        aud: BOB,
        iat: NOW,
        nbf: NOW,
        exp: NOW + LIMITS.sdkTokenLifetime.value,
        jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        scope: 'read tools:x admin',
        client_id: 'alice',
        token_type: SDK_TOKEN_TYPE,
        agent_path: '/a',
      });
      const ports = {
        clock: new FixedClock(NOW + 299),
        fetchKeySet: memoryKeySets({ [ALICE_JWKS]: { keys: [publicEntryOf(key)] } }),
        keySetCache: new MemoryKeySetCache(),
      };
      const verdict = await verifySdkToken(minted.token, bob, ports);
      if (!verdict.ok) throw new Error(verdict.message);
      expect(verdict.context).toEqual({
        user_id: null,
        agent_id: 'alice',
        source_agent: 'alice',
        authenticated: true,
        scopes: ['read', 'tools:x'],
        namespaces: [],
        issuer: ALICE,
        issuer_type: 'agent',
        raw_claims: claims,
      });
      expect(verdict.hasScope('tools:x')).toBe(true);
      expect(verdict.hasScope('admin')).toBe(false);
      ports.clock.advance(1);
      expect(await verifySdkToken(minted.token, bob, ports)).toMatchObject({ ok: false, reason: 'token_expired' });
    });
  }

  test('a clock leeway the options grant stretches exp and nbf by exactly that much (READING-SDK-TOKEN-LEEWAY); none by default', async () => {
    const key = await freshKey('ed25519');
    const minted = await mintSdkToken(alice, { audience: BOB, scopes: ['read'], key }, { clock: new FixedClock(NOW), random: seededRandom(2) });
    if (!minted.ok) throw new Error(minted.message);
    const lenient = createAuthSkill({ base_url: BOB }, { clockToleranceSeconds: 30 });
    if (!lenient.ok) throw new Error(lenient.message);
    expect(bob.clockTolerance).toBe(0);
    const at = async (skill: AuthSkill, now: number) =>
      (
        await verifySdkToken(minted.token, skill, {
          clock: new FixedClock(now),
          fetchKeySet: memoryKeySets({ [ALICE_JWKS]: { keys: [publicEntryOf(key)] } }),
          keySetCache: new MemoryKeySetCache(),
        })
      ).ok;
    const exp = NOW + LIMITS.sdkTokenLifetime.value;
    expect([await at(bob, exp + 10), await at(lenient.skill, exp + 10), await at(lenient.skill, exp + 31)]).toEqual([false, true, false]);
    expect([await at(bob, NOW - 10), await at(lenient.skill, NOW - 10), await at(lenient.skill, NOW - 31)]).toEqual([false, true, false]);
  });

  test('minting needs agent_id (it becomes sub and client_id)', async () => {
    const r = await mintSdkToken(bob, { audience: ALICE, scopes: [], key: await freshKey('ed25519') }, { clock: new FixedClock(NOW), random: seededRandom(1) });
    expect(r).toMatchObject({ ok: false, reason: 'config_invalid', problems: [{ pointer: '/agent_id' }] });
  });

  test('a refusal is a value with a reason and a message, never a throw, whatever the bearer', async () => {
    const ports = { clock: new FixedClock(NOW), fetchKeySet: memoryKeySets({}), keySetCache: new MemoryKeySetCache() };
    for (const bearer of ['', 'a.b.c', '...', 'x'.repeat(10), 'eyJhbGciOiJub25lIn0.e30.']) {
      const v = await verifySdkToken(bearer, bob, ports);
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.message.length).toBeGreaterThan(10);
    }
  });
});

describe('the key-set cache (2.1 jwks_cache_ttl, default 3600 s)', () => {
  async function setup(config: Record<string, unknown> = {}) {
    const key = await freshKey('ed25519');
    const sets: Record<string, unknown> = { [ALICE_JWKS]: { keys: [publicEntryOf(key)] } };
    const fetcher = memoryKeySets(sets);
    const clock = new FixedClock(NOW);
    const ports = { clock, fetchKeySet: fetcher, keySetCache: new MemoryKeySetCache() };
    const receiver = skill({ base_url: BOB, ...config });
    const mint = async (k: SdkSigningKey) => {
      const r = await mintSdkToken(alice, { audience: BOB, scopes: ['read'], key: k, lifetime: 86_400 }, { clock, random: seededRandom(clock.now()) });
      if (!r.ok) throw new Error(r.message);
      return r.token;
    };
    return { key, sets, fetcher, clock, ports, receiver, mint };
  }

  test('one read serves every token for 3600 s; the next token after that reads again', async () => {
    const s = await setup();
    const token = await s.mint(s.key);
    expect((await verifySdkToken(token, s.receiver, s.ports)).ok).toBe(true);
    s.clock.advance(LIMITS.sdkKeySetCache.value - 1);
    expect((await verifySdkToken(token, s.receiver, s.ports)).ok).toBe(true);
    expect(s.fetcher.reads.get(ALICE_JWKS)).toBe(1);
    s.clock.advance(1);
    expect((await verifySdkToken(token, s.receiver, s.ports)).ok).toBe(true);
    expect(s.fetcher.reads.get(ALICE_JWKS)).toBe(2);
  });

  test('jwks_cache_ttl 0 reads every time', async () => {
    const s = await setup({ jwks_cache_ttl: 0 });
    const token = await s.mint(s.key);
    await verifySdkToken(token, s.receiver, s.ports);
    await verifySdkToken(token, s.receiver, s.ports);
    expect(s.fetcher.reads.get(ALICE_JWKS)).toBe(2);
  });

  test('a key the cached set lacks re-reads the set once (rotation), then refuses if still unknown', async () => {
    const s = await setup();
    await verifySdkToken(await s.mint(s.key), s.receiver, s.ports);
    const rotated = await freshKey('ed25519');
    s.sets[ALICE_JWKS] = { keys: [publicEntryOf(rotated)] };
    expect((await verifySdkToken(await s.mint(rotated), s.receiver, s.ports)).ok).toBe(true);
    expect(s.fetcher.reads.get(ALICE_JWKS)).toBe(2);
    const stranger = await freshKey('ed25519');
    expect(await verifySdkToken(await s.mint(stranger), s.receiver, s.ports)).toMatchObject({ ok: false, reason: 'token_key_unknown' });
    expect(s.fetcher.reads.get(ALICE_JWKS)).toBe(3);
  });

  test('a failed read is not cached', async () => {
    const s = await setup();
    const token = await s.mint(s.key);
    const saved = s.sets[ALICE_JWKS];
    delete s.sets[ALICE_JWKS];
    expect(await verifySdkToken(token, s.receiver, s.ports)).toMatchObject({ ok: false, reason: 'issuer_key_set_unreachable' });
    s.sets[ALICE_JWKS] = saved;
    expect((await verifySdkToken(token, s.receiver, s.ports)).ok).toBe(true);
  });

  test('a key set with two keys and no kid in the token: the one that signed it verifies it', async () => {
    const s = await setup();
    const other = await freshKey('ed25519');
    s.sets[ALICE_JWKS] = {
      keys: [
        { ...publicEntryOf(other), kid: undefined },
        { ...publicEntryOf(s.key), kid: undefined },
      ],
    };
    const withoutKid = await signSdkClaims(decodeJwt(await s.mint(s.key)), s.key, null);
    expect(decodeProtectedHeader(withoutKid).kid).toBeUndefined();
    expect((await verifySdkToken(withoutKid, s.receiver, s.ports)).ok).toBe(true);
  });
});

describe('the algorithms a receiver verifies (READING-SDK-TOKEN-ALGORITHM)', () => {
  test('narrowed to one, a token signed with the other key is refused algorithm_not_allowed; by default both verify', async () => {
    const keys = { ed25519: await freshKey('ed25519'), rsa: await freshKey('rsa') };
    const fetchKeySet = memoryKeySets({ [ALICE_JWKS]: { keys: [publicEntryOf(keys.ed25519), publicEntryOf(keys.rsa)] } });
    const ports = () => ({ clock: new FixedClock(NOW), fetchKeySet, keySetCache: new MemoryKeySetCache() });
    const mint = async (key: SdkSigningKey) => {
      const minted = await mintSdkToken(alice, { audience: BOB, scopes: ['read'], key }, { clock: new FixedClock(NOW), random: seededRandom(2) });
      if (!minted.ok) throw new Error(minted.message);
      return minted.token;
    };
    const receiver = (algorithms?: Array<'EdDSA' | 'RS256'>) => {
      const r = createAuthSkill({ base_url: BOB }, algorithms ? { algorithms } : {});
      if (!r.ok) throw new Error(r.message);
      return r.skill;
    };
    for (const [type, alg] of [
      ['ed25519', SDK_JWT_ALGORITHMS.ed25519],
      ['rsa', SDK_JWT_ALGORITHMS.rsa],
    ] as const) {
      const token = await mint(keys[type]);
      expect((await verifySdkToken(token, receiver(), ports())).ok, `${alg} by default`).toBe(true);
      expect((await verifySdkToken(token, receiver([alg]), ports())).ok, `${alg} when only it is verified`).toBe(true);
      const other = alg === SDK_JWT_ALGORITHMS.rsa ? SDK_JWT_ALGORITHMS.ed25519 : SDK_JWT_ALGORITHMS.rsa;
      expect(await verifySdkToken(token, receiver([other]), ports())).toMatchObject({ ok: false, reason: 'algorithm_not_allowed' });
    }
  });
});
