import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import type { IssuedChallenge } from '../../src/purchase/index.js';
import { ManualClock, MemoryPurchaseStore } from '../../src/purchase/testing/index.js';
import { createReferencePlatform } from '../../src/reference/platform.js';
import { REFERENCE_PRICED_PATH } from '../../src/reference/purchases.js';
import { LIMITS } from '../../src/spec/limits.js';

/**
 * Unauthenticated 402s may not grow the purchase store without end (issue: 150,000 of them kept 148 to 324 MB):
 * a challenge nobody paid under is forgotten a challenge lifetime after it expired. Counted under an injected
 * clock, never timed.
 */
const LIFETIME = LIMITS.paymentChallengeLifetime.value;
const START = 1_800_000_000;

function challenge(id: string, issuedAt: number): IssuedChallenge {
  return { id, issuedAt, expiresAt: issuedAt + LIFETIME } as IssuedChallenge;
}

describe('the purchase store forgets challenges nobody paid under', () => {
  it('100,000 challenges one second apart leave at most two lifetimes and a minute of them', () => {
    const clock = new ManualClock(START);
    const store = new MemoryPurchaseStore({ clock });
    let largest = 0;
    for (let i = 0; i < 100_000; i++) {
      clock.advance(1);
      store.issue(challenge(`c${i}`, clock.now()));
      largest = Math.max(largest, store.challengeCount);
    }
    expect(largest).toBeLessThanOrEqual(2 * LIFETIME + 120);
    expect(store.challenge('c0')).toBeUndefined();
    expect(store.challenge('c99999')).toMatchObject({ id: 'c99999' });
  });

  it('keeps an expired challenge a further lifetime, so its credential is answered "expired", then forgets it', () => {
    const clock = new ManualClock(START);
    const store = new MemoryPurchaseStore({ clock });
    store.issue(challenge('late', START));
    clock.advance(LIFETIME + 1);
    expect(store.challenge('late')).toMatchObject({ id: 'late' });
    clock.advance(LIFETIME + 60);
    expect(store.challenge('late')).toBeUndefined();
  });

  it('keeps a challenge a charge, a grant or another record refers to, however old', () => {
    const clock = new ManualClock(START);
    const elsewhere = new Set(['transferred']);
    const store = new MemoryPurchaseStore({ clock, referencedElsewhere: (id) => elsewhere.has(id) });
    for (const id of ['charged', 'transferred', 'unpaid']) store.issue(challenge(id, START));
    store.openCharge({ challengeId: 'charged', token: 'spt_1', state: 'sent' } as Parameters<MemoryPurchaseStore['openCharge']>[0]);
    clock.advance(10 * LIFETIME);
    expect(store.challenge('charged')).toMatchObject({ id: 'charged' });
    expect(store.challenge('transferred')).toMatchObject({ id: 'transferred' });
    expect(store.challenge('unpaid')).toBeUndefined();
  });

  it('without a clock nothing expires (a scenario world keeps every record it may inspect)', () => {
    const store = new MemoryPurchaseStore();
    store.issue(challenge('kept', 0));
    expect(store.challenge('kept')).toMatchObject({ id: 'kept' });
  });
});

describe("the reference deployment's challenges stay bounded", () => {
  it('1,500 unauthenticated calls at the pack route and a priced resource over 1,500 seconds keep a few hundred challenges', async () => {
    const clock = new ManualClock(START);
    const platform = createReferencePlatform({ authority: 'platform.example', clock, fetcher: createMemoryFetcher({}) });
    const store = platform.purchases!.store;
    let largest = 0;
    for (let i = 0; i < 1_500; i++) {
      clock.advance(1);
      const path = i % 2 === 0 ? '/api/mpp/credits' : REFERENCE_PRICED_PATH;
      const answer = await platform.fetch(new Request(`https://platform.example${path}`, { method: 'POST' }), { clientAddress: '192.0.2.1' });
      expect(answer.status).toBe(402);
      largest = Math.max(largest, store.challengeCount);
    }
    expect(largest).toBeLessThanOrEqual(2 * LIFETIME + 120);
  });
});
