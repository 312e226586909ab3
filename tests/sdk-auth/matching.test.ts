import { describe, expect, test } from 'vitest';
import {
  admitIssuer,
  allowDenyAdmits,
  createAuthSkill,
  globMatches,
  grantedScopes,
  issuerAgentId,
  issuerMatches,
  namespacesOf,
  scopeAllowed,
} from '../../src/sdk-auth/index.js';
import { SDK_DEFAULT_ALLOWED_SCOPES } from '../../src/spec/sdk-auth.js';

describe('glob patterns (fnmatch, docs/platform-sdk.md e)', () => {
  test.each([
    ['*', 'https://a.example/x/y', true],
    ['https://*.example/*', 'https://a.b.example/x/y', true],
    ['**', 'anything/at.all', true],
    ['ali?e', 'alice', true],
    ['ali?e', 'alie', false],
    ['[ab]lice', 'alice', true],
    ['[!ab]lice', 'alice', false],
    ['[a-c]lice', 'blice', true],
    ['a[lice', 'a[lice', true],
    ['a.c', 'abc', false],
    ['(x)+', '(x)+', true],
    ['Alice', 'alice', false],
    ['alice', 'alice2', false],
  ])('%s against %s: %s', (pattern, text, expected) => {
    expect(globMatches(pattern, text)).toBe(expected);
  });
});

describe('issuer patterns', () => {
  const iss = 'https://example.com/agents/malicious-hacker';
  test('a pattern matches the last segment of iss or the whole iss; a leading @ is ignored', () => {
    expect(issuerAgentId(iss)).toBe('malicious-hacker');
    expect(issuerMatches('@malicious-*', iss)).toBe(true);
    expect(issuerMatches('https://example.com/*', iss)).toBe(true);
    expect(issuerMatches('@agents', iss)).toBe(false);
  });
  test('deny first; an empty allow list admits everyone not denied', () => {
    expect(allowDenyAdmits(iss, [], [])).toBe(true);
    expect(allowDenyAdmits(iss, [], ['@malicious-*'])).toBe(false);
    expect(allowDenyAdmits(iss, ['@malicious-hacker'], ['@malicious-*'])).toBe(false);
    expect(allowDenyAdmits(iss, ['@someone-else'], [])).toBe(false);
  });
});

describe('allowed_scopes and namespaces (2.1, 2.3)', () => {
  test('an entry ending in :* accepts its prefix; a bare * is no wildcard', () => {
    expect(scopeAllowed('namespace:acme', ['namespace:*'])).toBe(true);
    expect(scopeAllowed('namespace', ['namespace:*'])).toBe(false);
    expect(scopeAllowed('tools:search', ['namespace:*'])).toBe(false);
    expect(scopeAllowed('read', ['*'])).toBe(false);
    expect(scopeAllowed('*', ['*'])).toBe(true);
  });
  test('the scope claim splits on any whitespace; scopes not accepted are dropped', () => {
    expect(grantedScopes(' read\twrite  admin\n', SDK_DEFAULT_ALLOWED_SCOPES)).toEqual(['read', 'write']);
    expect(grantedScopes('', SDK_DEFAULT_ALLOWED_SCOPES)).toEqual([]);
  });
  test('namespaces come from namespace:<name>, up to the next colon', () => {
    expect(namespacesOf(['read', 'namespace:acme', 'namespace:a:b', 'tools:x'])).toEqual(['acme', 'a']);
  });
});

describe('where a self-issued caller keeps its keys (2.4)', () => {
  const skill = (options: Parameters<typeof createAuthSkill>[1] = {}) => {
    const made = createAuthSkill({ base_url: 'https://agents.example/agents/bob' }, options);
    if (!made.ok) throw new Error(made.message);
    return made.skill;
  };
  test('an https issuer at its own URL; plain http only on loopback, and only when the options allow it (local runs)', () => {
    expect(admitIssuer('https://alice.example/a', skill())).toMatchObject({ ok: true, jwksUri: 'https://alice.example/a/.well-known/jwks.json' });
    expect(admitIssuer('http://127.0.0.1:4000/r/x/user', skill())).toMatchObject({ ok: false, reason: 'issuer_not_allowed' });
    const local = skill({ allowInsecureLoopbackIssuers: true });
    for (const iss of ['http://127.0.0.1:4000/r/x/user', 'http://[::1]:4000/u', 'http://localhost:4000/u'])
      expect(admitIssuer(iss, local), iss).toMatchObject({ ok: true, jwksUri: `${iss}/.well-known/jwks.json` });
    for (const iss of ['http://alice.example/a', 'http://10.0.0.7/a', 'http://127.0.0.1.nip.io/a'])
      expect(admitIssuer(iss, local), iss).toMatchObject({ ok: false, reason: 'issuer_not_allowed' });
  });
});
