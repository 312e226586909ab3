import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { decodeJwt, type JWK } from 'jose';
import { describe, expect, test } from 'vitest';
import {
  admitIssuer,
  allowDenyAdmits,
  issuerMatches,
  createAuthSkill,
  FixedClock,
  MemoryKeySetCache,
  memoryKeySets,
  publicEntryOf,
  signingKeyFromJwk,
  signSdkClaims,
  verifySdkToken,
  type AuthSkill,
} from '../../src/sdk-auth/index.js';
import { tamper } from '../../src/scenarios/agents/sdk-token-scenarios.js';
import { SDK_CLAIMS, SDK_TOKEN_TYPE } from '../../src/spec/sdk-auth.js';
import { WELL_KNOWN } from '../../src/spec/wire.js';

const SEED = Number(process.env.CONFORMANCE_SEED ?? 20261122);
const NOW = 1_800_000_000;
const ALICE = 'https://agents.example/a/alice';
const BOB = 'https://agents.example/a/bob';

const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const issuer = fc
  .tuple(fc.constantFrom('https://agents.example', 'https://partners.example'), fc.array(segment, { minLength: 1, maxLength: 3 }))
  .map(([o, p]) => `${o}/${p.join('/')}`);
/** Patterns built from pieces of issuers, so matches are common. */
const pattern = fc.oneof(
  segment,
  segment.map((s) => `@${s}`),
  segment.map((s) => `${s.slice(0, 2)}*`),
  fc.constantFrom('*', 'https://agents.example/*', 'https://partners.example/*', '@a*', '*-x', '?'),
);

function skillOf(config: Record<string, unknown>): AuthSkill {
  const r = createAuthSkill({ base_url: BOB, ...config });
  if (!r.ok) throw new Error(r.message);
  return r.skill;
}

describe('deny always wins over allow (2.1)', () => {
  test('an issuer any deny pattern matches is refused, whatever allow and trusted_issuers say', () => {
    fc.assert(
      fc.property(issuer, fc.array(pattern, { maxLength: 4 }), fc.array(pattern, { minLength: 1, maxLength: 4 }), fc.boolean(), (iss, allow, deny, trusted) => {
        const withMatch = [...deny, iss];
        expect(allowDenyAdmits(iss, allow, withMatch)).toBe(false);
        const skill = skillOf({ allow, deny: withMatch, trusted_issuers: trusted ? [{ issuer: iss, jwks_uri: 'https://keys.example/k.json' }] : [] });
        expect(admitIssuer(iss, skill)).toMatchObject({ ok: false, reason: 'issuer_denied' });
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  test('when no deny pattern matches, an issuer is admitted exactly when allow is empty or one allow pattern matches', () => {
    fc.assert(
      fc.property(issuer, fc.array(pattern, { maxLength: 4 }), fc.array(pattern, { maxLength: 4 }), (iss, allow, deny) => {
        const denied = deny.some((p) => issuerMatches(p, iss));
        const allowed = allow.length === 0 || allow.some((p) => issuerMatches(p, iss));
        expect(allowDenyAdmits(iss, allow, deny)).toBe(!denied && allowed);
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});

describe('a token with any claim changed, or signed by another key, is refused (5.1, 5.5)', async () => {
  const ed = await signingKeyFromJwk(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as JWK);
  const rsa = await signingKeyFromJwk(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK);
  const keySets = { [`${ALICE}${WELL_KNOWN.jwks}`]: { keys: [publicEntryOf(ed), publicEntryOf(rsa)] } };
  const receiver = skillOf({ allowed_scopes: ['read', 'write', 'namespace:*'] });
  const ports = () => ({ clock: new FixedClock(NOW), fetchKeySet: memoryKeySets(keySets), keySetCache: new MemoryKeySetCache() });
  const claims = {
    iss: ALICE,
    sub: 'alice',
    aud: BOB,
    iat: NOW - 5,
    nbf: NOW - 5,
    exp: NOW + 295,
    jti: 'j-1',
    scope: 'read namespace:acme',
    client_id: 'alice',
    token_type: SDK_TOKEN_TYPE,
  };
  const tokens = { ed: await signSdkClaims(claims, ed), rsa: await signSdkClaims(claims, rsa) };

  test('the untouched tokens verify (so the refusals below are the change, not the setup)', async () => {
    for (const t of Object.values(tokens)) expect((await verifySdkToken(t, receiver, ports())).ok).toBe(true);
  });

  const claimName = fc.constantFrom(...Object.values(SDK_CLAIMS));
  const newValue = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
  );

  // A changed iss is refused before the signature is checked (another issuer's key set, or not an issuer at all);
  // every other change reaches the signature check and fails it.
  test('any claim changed or added after signing: refused (token_signature_invalid unless iss changed)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('ed', 'rsa') as fc.Arbitrary<keyof typeof tokens>, claimName, newValue, async (which, name, value) => {
        fc.pre(JSON.stringify((claims as Record<string, unknown>)[name]) !== JSON.stringify(value) && value !== undefined);
        const changed = tamper(tokens[which], { [name]: value });
        expect(decodeJwt(changed)[name]).toEqual(value);
        const verdict = await verifySdkToken(changed, receiver, ports());
        expect(verdict.ok).toBe(false);
        if (name !== SDK_CLAIMS.iss) expect(verdict).toMatchObject({ reason: 'token_signature_invalid' });
      }),
      { numRuns: 80, seed: SEED },
    );
  });

  test("the same claims re-signed by another Ed25519 key, under the issuer's kid or with no kid: refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom<string | null>(ed.kid, null), async (seed, kid) => {
        const other = await signingKeyFromJwk(fromSeed(seed));
        fc.pre(other.kid !== ed.kid);
        const forged = await signSdkClaims(claims, other, kid);
        expect(await verifySdkToken(forged, receiver, ports())).toMatchObject({ ok: false, reason: 'token_signature_invalid' });
      }),
      { numRuns: 40, seed: SEED },
    );
  });
});

/** The Ed25519 private JWK of a 32-byte seed (RFC 8410 PKCS #8: a fixed prefix, then the seed). */
function fromSeed(seed: Uint8Array): JWK {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed)]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' }) as JWK;
}
