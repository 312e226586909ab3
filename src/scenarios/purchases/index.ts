/** The purchase scenarios as vectors/purchases.json ships them: the file, its replay and its coverage of the rows. */
export type { PurchaseVectors, PurchaseCase, PresentEvent, AnswerExpect } from './types.js';
export { purchaseVectors } from './vectors.js';
export { replayPurchaseCase, type EventResult } from './runner.js';
export { ROW_METHODS, UNREACHABLE_REQUIREMENTS, unreachableRows } from './coverage.js';
