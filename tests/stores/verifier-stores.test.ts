import { MemoryPurchaseLock } from '../../src/purchase/testing/memory.js';
import {
  MemoryCardRefusals,
  MemoryFailureCounter,
  MemoryKeySetCache,
  MemoryNonceStore,
  MemoryRegistrations,
  MemoryRevocations,
} from '../../src/verifier/memory-stores.js';
import { verifierStoreContract } from './verifier-contract.js';

verifierStoreContract('memory', async (clock) => ({
  nonces: new MemoryNonceStore(clock),
  failures: new MemoryFailureCounter(),
  keySets: new MemoryKeySetCache(clock),
  cardRefusals: new MemoryCardRefusals(clock),
  registrations: new MemoryRegistrations(),
  revocations: new MemoryRevocations(),
  lock: new MemoryPurchaseLock(),
}));
