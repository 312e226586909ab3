export * from './quote.js';
export * from './payload.js';
export * from './transaction-check.js';
