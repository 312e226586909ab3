import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/spec/limits.js';
import { MemoryCardRefusals, MemoryFailureCounter, MemoryKeySetCache, MemoryNonceStore } from '../../src/verifier/memory-stores.js';

/**
 * Every in-memory store of the verifier keeps only what its rule still needs: 100,000 requests spread over time
 * (an injected clock, one second apart) leave a bounded number of entries, counted, never timed.
 */
const REQUESTS = 100_000;

class Clock {
  t = 1_800_000_000;
  now(): number {
    return this.t;
  }
}

describe('bounded verifier stores', () => {
  it('the nonce store holds the nonces of signatures still valid, not every nonce ever seen', () => {
    const clock = new Clock();
    const store = new MemoryNonceStore(clock);
    let largest = 0;
    for (let i = 0; i < REQUESTS; i++) {
      clock.t += 1;
      expect(store.spend('https://agents.example/a', `nonce-${i}`, clock.t + 60)).toBe(true);
      largest = Math.max(largest, store.size);
    }
    // A signature lives at most 60 s here (created + 60), kept a minute after: a few hundred entries at most.
    expect(largest).toBeLessThan(300);
    expect(store.spend('https://agents.example/a', `nonce-${REQUESTS - 1}`, clock.t + 60)).toBe(false);
  });

  it('the failure counter forgets an address once its failures left the 60 s window', () => {
    const clock = new Clock();
    const counter = new MemoryFailureCounter();
    let largest = 0;
    for (let i = 0; i < REQUESTS; i++) {
      clock.t += 1;
      counter.record(`198.51.${(i >> 8) & 255}.${i & 255}`, clock.t);
      largest = Math.max(largest, counter.size);
    }
    expect(largest).toBeLessThanOrEqual(2 * LIMITS.failedSignaturesWindow.value + 1);
    expect(counter.count('198.51.0.1', clock.t, LIMITS.failedSignaturesWindow.value)).toBe(0);
  });

  it('the key-set cache and the card memory drop entries their rule no longer reads', () => {
    const clock = new Clock();
    const keySets = new MemoryKeySetCache(clock);
    const cards = new MemoryCardRefusals(clock);
    let largest = 0;
    for (let i = 0; i < REQUESTS; i++) {
      clock.t += 1;
      keySets.set(`https://a${i}.example/.well-known/jwks.json`, { ok: true, keys: [], at: clock.t });
      cards.set(`https://a${i}.example`, { code: 'card_unreachable', description: 'gone', at: clock.t });
      largest = Math.max(largest, keySets.size, cards.size);
    }
    expect(keySets.size).toBeLessThanOrEqual(4 * LIMITS.keySetRereadInterval.value);
    expect(largest).toBeLessThanOrEqual(4 * LIMITS.cardRefusalMemory.value);
  });
});
