export * from './offer.js';
export * from './charge.js';
export * from './transfer.js';
export { PACK_GUARDS, type PackContext, type PackGuard } from './guards.js';
export * from './decide.js';
