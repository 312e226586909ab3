import type {
  CardRefusal,
  CardRefusalMemory,
  FailureCounter,
  KeySetCache,
  KeySetCacheEntry,
  NonceStore,
  Registration,
  RegistrationStore,
  RevocationList,
} from './ports.js';
import { LIMITS } from '../spec/limits.js';
import { ExpiryBuckets } from '../memory/expiry-buckets.js';

/** Nonces per agent URL (5.2 "single use per agent URL"), each kept until the signature that spent it has expired. */
export class MemoryNonceStore implements NonceStore {
  private readonly seen = new Map<string, number>();
  private readonly expiry = new ExpiryBuckets();
  constructor(private readonly clock: { now(): number }) {}

  spend(agentUrl: string, nonce: string, until: number): boolean {
    const now = this.clock.now();
    this.expiry.sweep(now, (key) => {
      const kept = this.seen.get(key);
      if (kept !== undefined && kept < now) this.seen.delete(key);
    });
    const key = `${agentUrl}\n${nonce}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, until);
    this.expiry.add(key, until + 60);
    return true;
  }

  release(agentUrl: string, nonce: string): void {
    this.seen.delete(`${agentUrl}\n${nonce}`);
  }

  /** How many nonces are held (a store that keeps only what its rule needs stays bounded). */
  get size(): number {
    return this.seen.size;
  }
}

/** Failed signatures per client address, kept for the throttle's window (30 in 60 s) and dropped after it. */
export class MemoryFailureCounter implements FailureCounter {
  private readonly failures = new Map<string, number[]>();
  private lastSweep = Number.NEGATIVE_INFINITY;
  constructor(private readonly windowSeconds: number = LIMITS.failedSignaturesWindow.value) {}

  count(address: string, now: number, windowSeconds: number): number {
    this.sweep(now);
    const times = this.failures.get(address);
    if (!times) return 0;
    // Stryker disable next-line EqualityOperator,ConditionalExpression: a failure exactly 60 s old is either side of "the last 60 seconds", and the suites' clock never runs backwards (`t <= now`); the window itself is judged by signed.throttle-failures-age-out
    const recent = times.filter((t) => now - t < windowSeconds && t <= now);
    if (recent.length) this.failures.set(address, recent);
    else this.failures.delete(address);
    return recent.length;
  }

  record(address: string, now: number): void {
    this.sweep(now);
    const times = this.failures.get(address) ?? [];
    times.push(now);
    this.failures.set(address, times);
  }

  get size(): number {
    return this.failures.size;
  }

  /** Once per window: forget every address whose last failure left the window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowSeconds) return;
    this.lastSweep = now;
    for (const [address, times] of this.failures) if (now - times[times.length - 1]! >= this.windowSeconds) this.failures.delete(address);
  }
}

/** A value per URL with the time it was taken, dropped once the rule using it no longer can (after `lifetime`). */
class MemoryByUrl<V extends { readonly at: number }> {
  private readonly entries = new Map<string, V>();
  private lastSweep = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly clock: { now(): number },
    private readonly lifetimeSeconds: number,
  ) {}
  get(url: string): V | undefined {
    this.sweep();
    return this.entries.get(url);
  }
  set(url: string, value: V): void {
    this.sweep();
    this.entries.set(url, value);
  }
  get size(): number {
    return this.entries.size;
  }
  private sweep(): void {
    const now = this.clock.now();
    if (now - this.lastSweep < this.lifetimeSeconds) return;
    this.lastSweep = now;
    for (const [url, value] of this.entries) if (now - value.at >= this.lifetimeSeconds) this.entries.delete(url);
  }
}

/**
 * Key sets (and failures to read them), reused for 5 minutes (5.2). Kept twice that, so the verifier's own age test
 * decides the re-read, as it must with any store, and not this store's forgetting.
 */
export class MemoryKeySetCache extends MemoryByUrl<KeySetCacheEntry> implements KeySetCache {
  constructor(clock: { now(): number }, lifetimeSeconds: number = 2 * LIMITS.keySetRereadInterval.value) {
    super(clock, lifetimeSeconds);
  }
}

/** Card refusals, remembered "about 10 minutes" (5.2); kept twice that, so a longer configured memory still works. */
export class MemoryCardRefusals extends MemoryByUrl<CardRefusal> implements CardRefusalMemory {
  constructor(clock: { now(): number }, lifetimeSeconds: number = 2 * LIMITS.cardRefusalMemory.value) {
    super(clock, lifetimeSeconds);
  }
}

export class MemoryRegistrations implements RegistrationStore {
  private readonly entries = new Map<string, Registration>();
  constructor(initial: readonly Registration[] = []) {
    for (const r of initial) this.entries.set(r.agentUrl, r);
  }
  get(agentUrl: string): Registration | undefined {
    return this.entries.get(agentUrl);
  }
  put(registration: Registration): void {
    this.entries.set(registration.agentUrl, registration);
  }
  all(): Registration[] {
    return [...this.entries.values()];
  }
}

export class MemoryRevocations implements RevocationList {
  constructor(private readonly revoked: Set<string> = new Set()) {}
  isRevoked(jti: string): boolean {
    return this.revoked.has(jti);
  }
  revoke(jti: string): void {
    this.revoked.add(jti);
  }
}
