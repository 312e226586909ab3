/** Document fetchers under the fetch rules of 5.2: on the wire (undici) and in memory. */
export { createUndiciFetcher, type UndiciFetcher, type UndiciFetcherOptions } from './undici-fetcher.js';
export { createMemoryFetcher, type MemoryDocument, type MemoryFetcher, type MemoryFetcherOptions } from './memory-fetcher.js';
