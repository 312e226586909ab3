export type { GuardCode, OutcomeOf, PurchaseContext, PurchaseGuard, PurchaseSurface, SharedGuard } from './guard.js';
export * from './presented.js';
export * from './terms.js';
export * from './refusals.js';
export * from './lock.js';
