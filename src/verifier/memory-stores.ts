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

/** Nonces per agent URL; entries are dropped once their `until` has passed. */
export class MemoryNonceStore implements NonceStore {
  private readonly seen = new Map<string, number>();
  constructor(private readonly clock: { now(): number }) {}

  spend(agentUrl: string, nonce: string, until: number): boolean {
    this.sweep();
    const key = `${agentUrl}\n${nonce}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, until);
    return true;
  }

  private sweep(): void {
    if (this.seen.size < 4096) return;
    const now = this.clock.now();
    for (const [key, until] of this.seen) if (until < now) this.seen.delete(key);
  }
}

export class MemoryFailureCounter implements FailureCounter {
  private readonly failures = new Map<string, number[]>();

  count(address: string, now: number, windowSeconds: number): number {
    const times = this.failures.get(address);
    if (!times) return 0;
    const recent = times.filter((t) => now - t < windowSeconds && t <= now);
    this.failures.set(address, recent);
    return recent.length;
  }

  record(address: string, now: number): void {
    const times = this.failures.get(address) ?? [];
    times.push(now);
    this.failures.set(address, times);
  }
}

/** A value per URL, kept for the life of the process: the shape of the key-set cache and the card memory. */
class MemoryByUrl<V> {
  private readonly entries = new Map<string, V>();
  get(url: string): V | undefined {
    return this.entries.get(url);
  }
  set(url: string, value: V): void {
    this.entries.set(url, value);
  }
}

export class MemoryKeySetCache extends MemoryByUrl<KeySetCacheEntry> implements KeySetCache {}

export class MemoryCardRefusals extends MemoryByUrl<CardRefusal> implements CardRefusalMemory {}

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
