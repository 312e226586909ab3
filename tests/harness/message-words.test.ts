import { describe, expect, it } from 'vitest';
import { judgeKeySetDocument } from '../../src/agent-check/key-set.js';
import { ExpectedFailuresError, parseExpectedFailures } from '../../src/harness/expected-failures.js';
import { valueWords, withArticle } from '../../src/schema/words.js';

/** Messages read as sentences: no "a the", no "a undefined", no "has use nothing". */
const KNOWN = { checks: new Set(['purchases.expiry']), requirements: new Set<string>() };
const BROKEN_PHRASES = /\ba the\b|\ba undefined\b|\bnothing and\b|has \w+ nothing/;

describe('message words', () => {
  it('puts the right article before a noun, and none before one that has its own', () => {
    expect(withArticle('case')).toBe('a case');
    expect(withArticle('auth skill configuration')).toBe('an auth skill configuration');
    expect(withArticle('the expected-failures file')).toBe('the expected-failures file');
    expect(valueWords(undefined)).toBe('nothing');
  });

  it('says what the expected-failures file must have without "a the"', () => {
    let message = '';
    try {
      parseExpectedFailures('ids: []\n', 'xf.yaml', KNOWN);
    } catch (error) {
      expect(error).toBeInstanceOf(ExpectedFailuresError);
      message = (error as Error).message;
    }
    expect(message).toContain('(the expected-failures file must have "expected_failures")');
    expect(message).not.toMatch(/\ba the\b/);
  });

  it('names a JWK member that is absent as absent, never as "nothing"', () => {
    const entries = [{ kty: 'OKP', crv: 'Ed25519' }, {}, { kty: 'OKP', crv: 'Ed25519', x: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', use: 'enc' }];
    const messages = entries.flatMap((e) =>
      judgeKeySetDocument({ keys: [e] }, 'https://agents.example/a/.well-known/jwks.json').problems.map((p) => p.message),
    );
    expect(messages.join('\n')).toContain('keys[0] has no x member: no verifier can use it');
    expect(messages.join('\n')).toContain('keys[0] has no kty member and no crv member');
    expect(messages.join('\n')).toContain('keys[0] has use "enc"');
    for (const m of messages) expect(m).not.toMatch(BROKEN_PHRASES);
  });
});
