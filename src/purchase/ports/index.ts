export * from './purchase.js';
export * from './stablecoin.js';
export * from './outcome.js';
export * from './memory.js';
export * from './stablecoin-memory.js';
