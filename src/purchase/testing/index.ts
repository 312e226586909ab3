/**
 * `agent-platform-conformance/purchase/testing`: in-memory adapters of the purchase machine's ports, with fault
 * switches (a card processor scripted per token, a lock that can be down, a stablecoin network in memory). The
 * reference deployment runs on them by default; tests script them. Not part of the machine's entry point, so a
 * deployment importing the machine does not load fakes.
 */
export {
  ManualClock,
  SeededRandom,
  MemoryPurchaseStore,
  FakeCardProcessor,
  MemoryPurchaseLock,
  MemoryBuyerDirectory,
  type ScriptedCharge,
  type FakeChargeState,
  type FakeCharge,
} from './memory.js';
export { FakeStablecoinNetwork, MemoryTransferStore, MemoryWalletCaps, FixedWalletLocations } from './stablecoin-memory.js';
export {
  MemorySaleStore,
  MemoryFunding,
  MemoryCapCounters,
  FakeCardInstruments,
  MemoryAgentAccounts,
  ScriptedCallServer,
  type ScriptedServe,
} from './sale-memory.js';
