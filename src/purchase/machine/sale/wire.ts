/**
 * Names the single-call sale writes that the spec leaves unshown. Like wire/wire.ts, they are wire member
 * names and record keys, not codes, header names or limits.
 */

/** The `opaque` member naming the account a single-call challenge is for (docs/platform-sdk.md g: `userId`); absent for an unidentified buyer. */
export const SALE_OPAQUE_MEMBERS = Object.freeze({ account: 'userId' } as const);

/** The payer of an unidentified buyer's purchase: this prefix and the challenge id (one payer per sale). */
export const UNIDENTIFIED_PAYER_PREFIX = 'call:';

/** Funding hold keys: a sale's hold is keyed by its challenge (held once per sale); a call paid from the balance by a random id. */
export const HOLD_KEY_PREFIXES = Object.freeze({ sale: 'sale:', balance: 'balance:' } as const);

/** Bytes of randomness in a balance-paid call's hold key. */
export const HOLD_KEY_BYTES = 16;

/** Cap counter names: the scope, then what it counts (an account, a signing identity, an address, a card). */
export const CAP_COUNTERS = Object.freeze({
  account: 'principal-account:',
  identity: 'principal-identity:',
  address: 'address:',
  instrument: 'instrument:',
  platform: 'platform',
} as const);

/** The caps count per UTC day. */
export const CAP_DAY_SECONDS = 86_400;
