import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decidePointer, hasDailyCap, type BuyerConfig } from '../../../src/purchase/buyer/pointer-rule.js';
import { BUYER_REFUSAL_REASONS } from '../../../src/spec/inband.js';
import { PLATFORM_ROUTES } from '../../../src/spec/wire.js';

const POINTER = `https://platform.example${PLATFORM_ROUTES.mppCredits}`;
const NAMING = 'wss://platform.example/agents/alice/uamp';
const CAPPED: BuyerConfig = { allowedHosts: ['platform.example'], dailyCapCents: 2000 };

describe('the SDK buyer rule for purchase pointers (6)', () => {
  it('follows when both hosts are allowed and a daily cap is configured', () => {
    expect(decidePointer(POINTER, NAMING, CAPPED)).toEqual({ decision: 'follow', url: POINTER });
  });

  it('compares host names without case or port, as the URL parser writes them', () => {
    expect(
      decidePointer('https://PLATFORM.example:8443/api/mpp/credits', 'http://platform.EXAMPLE/x', { ...CAPPED, allowedHosts: ['Platform.Example'] }).decision,
    ).toBe('follow');
    expect(decidePointer('http://[::1]:8080/p', 'http://[::1]/n', { allowedHosts: ['[::1]'], dailyCapCents: 1 }).decision).toBe('follow');
  });

  it.each([
    ['no daily cap', { allowedHosts: ['platform.example'] }, ['daily-cap']],
    ['a cap of zero', { allowedHosts: ['platform.example'], dailyCapCents: 0 }, ['daily-cap']],
    ['a fractional cap', { allowedHosts: ['platform.example'], dailyCapCents: 2.5 }, ['daily-cap']],
    ['a null cap', { allowedHosts: ['platform.example'], dailyCapCents: null }, ['daily-cap']],
    ['no allowlist', { allowedHosts: [], dailyCapCents: 2000 }, ['pointer-host', 'naming-host']],
  ] as const)('refuses with pointer_needs_daily_cap: %s', (_, config, unmet) => {
    const decision = decidePointer(POINTER, NAMING, config);
    expect(decision).toMatchObject({ decision: 'refuse', reason: BUYER_REFUSAL_REASONS.pointerNeedsDailyCap, unmet });
    if (decision.decision === 'refuse') expect(decision.detail).toMatch(/nothing was sent/);
  });

  it('refuses a pointer whose host is not allowed, though the host that named it is', () => {
    expect(decidePointer('https://pay.elsewhere.example/buy', NAMING, CAPPED)).toMatchObject({ decision: 'refuse', unmet: ['pointer-host'] });
  });

  it('refuses a pointer named by a host that is not allowed, though the pointer host is', () => {
    expect(decidePointer(POINTER, 'wss://peer.example/uamp', CAPPED)).toMatchObject({ decision: 'refuse', unmet: ['naming-host'] });
  });

  it('refuses what is not an absolute URL, and ignores allowlist entries that are not hosts', () => {
    expect(decidePointer(PLATFORM_ROUTES.mppCredits, NAMING, CAPPED)).toMatchObject({ decision: 'refuse', unmet: ['pointer-url'] });
    expect(decidePointer(POINTER, 'uamp', CAPPED)).toMatchObject({ decision: 'refuse', unmet: ['naming-url'] });
    expect(decidePointer(POINTER, NAMING, { allowedHosts: ['https://platform.example/', ''], dailyCapCents: 5 })).toMatchObject({
      unmet: ['pointer-host', 'naming-host'],
    });
  });

  it('hasDailyCap reads only a positive whole number as a cap', () => {
    expect([1, 2000].map((c) => hasDailyCap({ dailyCapCents: c }))).toEqual([true, true]);
    expect([undefined, null, 0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY].map((c) => hasDailyCap({ dailyCapCents: c }))).toEqual(Array(7).fill(false));
  });
});

describe('property: without a daily cap the buyer never follows', () => {
  const host = fc.oneof(fc.domain(), fc.constantFrom('platform.example', '127.0.0.1', '[::1]', 'localhost'));
  const url = fc.oneof(
    fc.tuple(fc.constantFrom('https', 'http', 'wss', 'ws'), host, fc.webPath()).map(([scheme, h, path]) => `${scheme}://${h}${path}`),
    fc.webUrl(),
    fc.string(),
  );
  const noCap = fc.constantFrom<BuyerConfig['dailyCapCents']>(undefined, null, 0, -1, 0.5, Number.NaN, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);

  it('refuses with pointer_needs_daily_cap whatever the hosts and the allowlist', () => {
    fc.assert(
      fc.property(url, url, fc.array(host, { maxLength: 4 }), fc.boolean(), noCap, (pointer, naming, allowlist, allowBoth, cap) => {
        const hosts = allowBoth ? [...allowlist, ...[pointer, naming].flatMap((u) => (URL.canParse(u) ? [new URL(u).hostname] : []))] : allowlist;
        const decision = decidePointer(pointer, naming, { allowedHosts: hosts, dailyCapCents: cap });
        expect(decision.decision).toBe('refuse');
        if (decision.decision === 'refuse') {
          expect(decision.reason).toBe(BUYER_REFUSAL_REASONS.pointerNeedsDailyCap);
          expect(decision.unmet).toContain('daily-cap');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('and with a cap it follows exactly when both hosts are on the allowlist', () => {
    fc.assert(
      fc.property(host, host, fc.array(host, { maxLength: 4 }), fc.integer({ min: 1, max: 1_000_000 }), (pointerHost, namingHost, allowlist, cap) => {
        const pointer = `https://${pointerHost}/api/mpp/credits`;
        const naming = `wss://${namingHost}/agents/a/uamp`;
        const normal = (h: string) => new URL(`https://${h}`).hostname;
        const allowed = new Set(allowlist.map(normal));
        const expected = allowed.has(normal(pointerHost)) && allowed.has(normal(namingHost));
        expect(decidePointer(pointer, naming, { allowedHosts: allowlist, dailyCapCents: cap }).decision).toBe(expected ? 'follow' : 'refuse');
      }),
      { numRuns: 500 },
    );
  });
});
