import { describe, expect, test } from 'vitest';
import { createAuthSkill } from '../../src/sdk-auth/index.js';
import { ISSUER_TYPES, PORTAL_ROUTES, SDK_AUTH_MODES } from '../../src/spec/sdk-auth.js';

const BOB = 'https://agents.example/a/bob';

describe('auth skill configuration (2.1)', () => {
  test('a bad configuration is a config_invalid value listing every problem by JSON pointer, in plain words', () => {
    const r = createAuthSkill({
      base_url: BOB,
      token_ttl: -5,
      jwks_cache_ttl: -1,
      denny: [],
      authority: 'ftp://x',
      trusted_issuers: [{ issuer: BOB, jwks_uri: BOB, type: 'robot' }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe('config_invalid');
    expect(r.problems).toEqual([
      { pointer: '/authority', message: 'must be an absolute http(s) URL' },
      { pointer: '/denny', message: 'unknown member (did you mean "deny"?)' },
      { pointer: '/jwks_cache_ttl', message: 'must be at least 0' },
      { pointer: '/token_ttl', message: 'must be at least 1' },
      { pointer: '/trusted_issuers/0/type', message: 'must be one of "portal", "agent", "user"' },
    ]);
    expect(r.message).toContain('/token_ttl must be at least 1');
  });

  test('never throws on input that is not an object', () => {
    for (const input of [null, 42, 'x', undefined, []]) {
      const r = createAuthSkill(input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problems?.[0]?.pointer).toBe('');
    }
  });

  test('Portal mode trusts the authority once, even when the configuration already lists it', () => {
    const authority = 'https://authority.example';
    const listed = createAuthSkill({ base_url: BOB, authority, trusted_issuers: [{ issuer: authority, jwks_uri: 'https://keys.example/a.json' }] });
    const plain = createAuthSkill({ base_url: BOB, authority: `${authority}/` });
    expect(listed.ok && listed.skill.trustedIssuers).toEqual([{ issuer: authority, jwksUri: 'https://keys.example/a.json', type: ISSUER_TYPES.agent }]);
    expect(plain.ok && plain.skill.mode).toBe(SDK_AUTH_MODES.portal);
    expect(plain.ok && plain.skill.trustedIssuers[0]!.jwksUri).toBe(`${authority}${PORTAL_ROUTES.jwks}`);
  });
});
