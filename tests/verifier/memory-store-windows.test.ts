import { describe, expect, it } from 'vitest';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import type { Registration } from '../../src/verifier/ports.js';
import { MemoryCardRefusals, MemoryFailureCounter, MemoryKeySetCache, MemoryRegistrations } from '../../src/verifier/memory-stores.js';

/**
 * The boundaries of the in-memory stores' windows, with an injected clock: an entry exactly as old as the window (or
 * lifetime) is gone at the next sweep, one a second younger stays, and sweeps run once per window, not on every call.
 */
class Clock {
  constructor(public t = 0) {}
  now(): number {
    return this.t;
  }
}

describe('MemoryFailureCounter', () => {
  it('a failure exactly one window old is swept; a younger one stays until the next sweep', () => {
    const counter = new MemoryFailureCounter(60);
    counter.record('192.0.2.1', 1000); // the first call sweeps (nothing to sweep), at 1000
    counter.record('192.0.2.2', 1010);
    expect(counter.size).toBe(2);
    // 60 s after the last sweep: another sweep. 192.0.2.1 failed exactly 60 s ago and goes; 192.0.2.2 (50 s) stays.
    counter.record('192.0.2.3', 1060);
    expect(counter.size).toBe(2);
    expect(counter.count('192.0.2.1', 1060, 60)).toBe(0);
    expect(counter.count('192.0.2.2', 1060, 60)).toBe(1);
    // At 1070 192.0.2.2 is 60 s old, but the next sweep is not due before 1120: it is still held (and not counted).
    counter.record('192.0.2.4', 1070);
    expect(counter.size).toBe(3);
    // At 1120 the sweep runs: 192.0.2.2 (110 s) and 192.0.2.3 (60 s) go, 192.0.2.4 (50 s) stays.
    counter.record('192.0.2.5', 1120);
    expect(counter.size).toBe(2);
  });

  it('counting an address whose failures all left the window forgets it', () => {
    const counter = new MemoryFailureCounter(60);
    counter.record('192.0.2.9', 1000);
    expect(counter.count('192.0.2.9', 1030, 30)).toBe(0);
    expect(counter.size).toBe(0);
  });

  it('counting keeps the failures still in the window', () => {
    const counter = new MemoryFailureCounter(60);
    counter.record('192.0.2.8', 1000);
    counter.record('192.0.2.8', 1020);
    expect(counter.count('192.0.2.8', 1040, 30)).toBe(1);
    expect(counter.size).toBe(1);
    expect(counter.count('192.0.2.8', 1049, 30)).toBe(1);
    expect(counter.count('192.0.2.8', 1050, 30)).toBe(0);
    expect(counter.size).toBe(0);
  });
});

describe.each([
  ['MemoryKeySetCache', (clock: Clock) => new MemoryKeySetCache(clock, 60), (at: number) => ({ ok: true as const, keys: [], at })],
  [
    'MemoryCardRefusals',
    (clock: Clock) => new MemoryCardRefusals(clock, 60),
    (at: number) => ({ code: AUTH_CODES.card_unreachable, description: 'the card could not be read', at }),
  ],
] as const)('%s lifetime', (_name, create, entry) => {
  it('an entry exactly `lifetime` old is dropped at the sweep, one a second younger is kept', () => {
    const clock = new Clock(1000);
    const store = create(clock);
    const set = (url: string, at: number) => store.set(url, entry(at) as any);
    set('https://old.example', 1000); // the first call sweeps, at 1000
    clock.t = 1001;
    set('https://young.example', 1001);
    clock.t = 1060;
    expect(store.get('https://old.example')).toBeUndefined();
    expect(store.get('https://young.example')).toStrictEqual(entry(1001));
    expect(store.size).toBe(1);
  });

  it('sweeps once per lifetime: an entry that turns `lifetime` old between sweeps is still returned', () => {
    const clock = new Clock(1000);
    const store = create(clock);
    const set = (url: string, at: number) => store.set(url, entry(at) as any);
    set('https://a.example', 1000);
    clock.t = 1030;
    set('https://b.example', 1030);
    clock.t = 1060; // sweep: a (60 s) goes, b (30 s) stays
    expect(store.get('https://a.example')).toBeUndefined();
    clock.t = 1095; // b is 65 s old, but the next sweep is due at 1120
    expect(store.get('https://b.example')).toStrictEqual(entry(1030));
    clock.t = 1120;
    expect(store.get('https://b.example')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('a sweep less than `lifetime` after the last does not run', () => {
    const clock = new Clock(1000);
    const store = create(clock);
    const set = (url: string, at: number) => store.set(url, entry(at) as any);
    set('https://first.example', 1000);
    // An entry stamped long ago, kept until the next sweep (due at 1060).
    clock.t = 1059;
    set('https://stale.example', 900);
    expect(store.get('https://stale.example')).toStrictEqual(entry(900));
    clock.t = 1060;
    expect(store.get('https://stale.example')).toBeUndefined();
  });
});

describe('MemoryRegistrations', () => {
  const alice: Registration = { agentUrl: 'https://agents.example/alice', thumbprints: ['t-alice'], registeredAt: 1 };
  const bob: Registration = { agentUrl: 'https://agents.example/bob', thumbprints: ['t-bob'], registeredAt: 2 };

  it('starts empty by default', () => {
    expect(new MemoryRegistrations().all()).toStrictEqual([]);
  });

  it('starts with the initial registrations, lists them all, and adds what is put', () => {
    const store = new MemoryRegistrations([alice]);
    expect(store.get(alice.agentUrl)).toBe(alice);
    expect(store.all()).toStrictEqual([alice]);
    store.put(bob);
    expect(store.all()).toStrictEqual([alice, bob]);
  });

  it('a later registration of one agent URL replaces the earlier', () => {
    const again = { ...alice, thumbprints: ['t-alice-2'], registeredAt: 3 };
    expect(new MemoryRegistrations([alice, again]).all()).toStrictEqual([again]);
  });
});
