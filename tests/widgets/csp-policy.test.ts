import { describe, expect, test } from 'vitest';
import { CSP_LIST_DIRECTIVES, CSP_LISTS, DEFAULT_WIDGET_CSP, WIDGET_PROBLEMS } from '../../src/spec/widgets.js';
import { buildCspPolicy, defaultCspPolicy, openLinkDecision } from '../../src/widgets/csp/index.js';

const sourcesOf = (policy: string, directive: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${directive} `))
    ?.split(' ')
    .slice(1);

describe('buildCspPolicy', () => {
  test('each list reaches exactly the directives 2.5 maps it to', () => {
    for (const list of CSP_LISTS) {
      const p = buildCspPolicy({ [list]: ['x.example.com'] });
      for (const [directive] of DEFAULT_WIDGET_CSP) {
        const has = sourcesOf(p.policy, directive)!.includes('https://x.example.com');
        expect(has, `${list} -> ${directive}`).toBe(CSP_LIST_DIRECTIVES[list].includes(directive));
      }
    }
  });

  test('the default policy keeps every directive of the default and never gains unsafe-eval, blob: or a wildcard', () => {
    const p = buildCspPolicy({ connectDomains: ['a.example.com'], resourceDomains: ['b.example.com'], frameDomains: ['c.example.com'] });
    expect(p.directives.map(([d]) => d)).toEqual(DEFAULT_WIDGET_CSP.map(([d]) => d));
    expect(p.policy).not.toMatch(/unsafe-eval|blob:|\*/);
    expect(sourcesOf(defaultCspPolicy(), 'default-src')).toEqual(["'none'"]);
  });

  test('a rejected entry is a problem with its pointer and makes the whole policy the default', () => {
    const p = buildCspPolicy({ resourceDomains: ['cdn.example.com'], frameDomains: ['0x7f.1'] });
    expect(p.policy).toBe(defaultCspPolicy());
    expect(p.fallback).toBe(true);
    expect(p.rejected).toEqual([
      expect.objectContaining({
        code: WIDGET_PROBLEMS.cspDomainRejected.code,
        path: '/_meta/ui/csp/frameDomains/0',
        reason: 'ip-literal',
        message: expect.stringMatching(/IP address/),
      }),
    ]);
  });
});

describe('openLinkDecision', () => {
  const allow = ['docs.example.com'];
  test.each([
    ['https://docs.example.com/guide', 'direct'],
    ['https://DOCS.example.com/', 'direct'],
    ['http://docs.example.com/', 'gated'],
    ['https://evil.docs.example.com/', 'gated'],
    ['https://docs.example.com.evil.com/', 'gated'],
    ['https://user@docs.example.com/', 'gated'],
    ['javascript:alert(1)', 'gated'],
    ['not a url', 'gated'],
  ])('%s is %s', (url, expected) => {
    expect(openLinkDecision(url, allow)).toBe(expected);
  });
});
