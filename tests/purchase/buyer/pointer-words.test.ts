import { describe, expect, it } from 'vitest';
import { decidePointer, type BuyerConfig } from '../../../src/purchase/buyer/pointer-rule.js';

/*
 * Section 6, the SDK buyer rule, at its edges: which allowlist entries name a host, which URLs name one, and the
 * words a refusal gives its caller (every unmet condition, in order; nothing was sent).
 */

const POINTER = 'https://platform.example/api/mpp/credits';
const NAMING = 'wss://platform.example/agents/alice/uamp';
const CAPPED: BuyerConfig = { allowedHosts: ['platform.example'], dailyCapCents: 2000 };

describe('the SDK buyer rule for purchase pointers (6), at its edges', () => {
  it('reads an allowlist entry with spaces around it as its host', () => {
    expect(decidePointer(POINTER, NAMING, { ...CAPPED, allowedHosts: ['  platform.example  '] }).decision).toBe('follow');
  });

  it.each([
    ['a path', 'platform.example/api'],
    ['user information', 'user@platform.example'],
    ['a query', 'platform.example?x=1'],
  ])('ignores an allowlist entry with %s, though a URL parser would find the host in it', (_name, entry) => {
    expect(decidePointer(POINTER, NAMING, { ...CAPPED, allowedHosts: [entry] })).toMatchObject({ decision: 'refuse', unmet: ['pointer-host', 'naming-host'] });
  });

  it('refuses a pointer URL that names no host', () => {
    expect(decidePointer('file:///api/mpp/credits', NAMING, CAPPED)).toMatchObject({ decision: 'refuse', unmet: ['pointer-url'] });
  });

  it('says every unmet condition in order, and that nothing was sent: a relative pointer, a naming host not allowed, no cap', () => {
    const decision = decidePointer('/api/mpp/credits', 'wss://peer.example/uamp', { allowedHosts: ['platform.example'] });
    expect(decision).toEqual({
      decision: 'refuse',
      reason: 'pointer_needs_daily_cap',
      unmet: ['pointer-url', 'naming-host', 'daily-cap'],
      detail:
        'Not following the purchase pointer; nothing was sent: the pointer "/api/mpp/credits" is not an absolute URL; the host that named the pointer, peer.example, is not on the allowlist; no daily spend cap is configured.',
    });
  });

  it('says every unmet condition in order: a pointer host not allowed and a naming URL that is not absolute', () => {
    const decision = decidePointer('https://pay.elsewhere.example/buy', 'uamp', CAPPED);
    expect(decision).toEqual({
      decision: 'refuse',
      reason: 'pointer_needs_daily_cap',
      unmet: ['naming-url', 'pointer-host'],
      detail:
        'Not following the purchase pointer; nothing was sent: the URL that named the pointer, "uamp", is not an absolute URL; the pointer\'s host pay.elsewhere.example is not on the allowlist.',
    });
  });
});
