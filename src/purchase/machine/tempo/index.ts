/** Tempo (the stablecoin method of 7.4): quotes, the credential's payload, and the signed transaction against its quote. */
export { tempoQuoteOf, tempoChargeRequest, memoOf, type Hex, type TempoQuote } from './quote.js';
export { readTempoPayload } from './payload.js';
export { checkTempoTransaction, tempoTransactionHash, type TransactionMismatch } from './transaction-check.js';
