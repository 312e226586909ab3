export * from './access-scenarios.js';
export * from './access-vectors.js';
export * from './sdk-keys.js';
export * from './sdk-token-scenarios.js';
export * from './sdk-token-vectors.js';
