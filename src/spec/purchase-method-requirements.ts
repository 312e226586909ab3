import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** Rules of 7.4's methods and single-call sales that are not a single row's code. */
export const PURCHASE_METHOD_REQUIREMENTS = Object.freeze({
  unsignedSizedToCall: r(
    'PURCHASE-SINGLE-CALL-UNSIGNED',
    '7.4',
    'An unsigned caller of a resource that sells single calls gets a 402 sized to that call instead of a 401; such a challenge is redeemed only where issued.',
  ),
  methodsHint: r(
    'PURCHASE-PAYMENT-METHODS',
    '7.4',
    'A challenge names one method; a signed agent lists acceptable methods in Service-Payment-Methods (a covered component).',
  ),
  stablecoinTransaction: r(
    'PURCHASE-STABLECOIN-TRANSACTION',
    '7.4',
    'A stablecoin challenge quotes the amount in base units, the token as currency, the deposit address as recipient and a memo; the paid retry carries an unbroadcast signed transaction making exactly one transferWithMemo of that amount to that address with that memo; the receipt reference is the transaction hash.',
  ),
  stablecoinNonMatching: r('PURCHASE-STABLECOIN-NON-MATCHING', '7.4', 'A non-matching transaction is answered with a fresh challenge and never broadcast.'),
});
