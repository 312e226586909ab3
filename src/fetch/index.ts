export { createUndiciFetcher, type UndiciFetcher, type UndiciFetcherOptions } from './undici-fetcher.js';
export { createMemoryFetcher, type MemoryDocument, type MemoryFetcher, type MemoryFetcherOptions } from './memory-fetcher.js';
export {
  fetchRules,
  judgeUrl,
  judgeAddress,
  refuseAddresses,
  judgeStatus,
  judgeDeclaredLength,
  judgeBodySize,
  judgeElapsed,
  mediaTypeOf,
  type FetchRules,
  type FetchTarget,
  type AddressRefusal,
} from './rules.js';
export { refuse, type FetchFailure } from './failures.js';
export { createVettedConnector, type VettedConnectorOptions } from './vetted-connector.js';
export { AddressRefusedError, HostLookupError } from './connect-errors.js';
