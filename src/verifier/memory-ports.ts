import type { Clock, DocumentFetcher, Registration, VerifierPorts } from './ports.js';
import { MemoryCardRefusals, MemoryFailureCounter, MemoryKeySetCache, MemoryNonceStore, MemoryRegistrations, MemoryRevocations } from './memory-stores.js';

export interface MemoryPorts extends VerifierPorts {
  readonly registrations: MemoryRegistrations;
  readonly revocations: MemoryRevocations;
}

/** Ports with in-memory stores around a given clock and fetcher. */
export function createMemoryPorts(clock: Clock, fetcher: DocumentFetcher, registrations: readonly Registration[] = []): MemoryPorts {
  return {
    clock,
    fetcher,
    nonces: new MemoryNonceStore(clock),
    failures: new MemoryFailureCounter(),
    keySets: new MemoryKeySetCache(clock),
    cardRefusals: new MemoryCardRefusals(clock),
    registrations: new MemoryRegistrations(registrations),
    revocations: new MemoryRevocations(),
  };
}
