import { PAYMENT_PROBLEMS, STRIPE_PAYLOAD_MEMBERS } from '../../spec/payments.js';

const PAY_FRESH = 'pay the fresh challenge on this response.';
const NOTHING_BROADCAST = 'nothing was broadcast';
const REDEEMED_BY_TRANSACTION = 'The challenge was already redeemed with another transaction';
const TRANSACTION_USED = 'The transaction was already used for another challenge';

/**
 * What a purchase answer tells the buyer where the catalogue's sentence is not enough: what is wrong and what
 * to do. Kept apart from the guards so the wording can be read (and reviewed) in one place, as
 * verifier/messages.ts does for the verifier.
 */
export const MESSAGES = {
  malformedCredential: (detail: string) => `${PAYMENT_PROBLEMS.malformedCredential.condition} (${detail})`,
  redeemedByPayment: `The challenge was already redeemed with another payment; ${PAY_FRESH}`,
  cardPayloadWithoutToken: `A card credential's payload carries the shared payment token in ${STRIPE_PAYLOAD_MEMBERS.spt}; ${PAY_FRESH}`,
  transferPayloadNotAdmitted: (detail: string) => `${detail}; ${PAY_FRESH}`,
  transactionDoesNotPay: (mismatch: string, detail: string) =>
    `The transaction does not pay the challenge (${mismatch}): ${detail}; ${NOTHING_BROADCAST}; ${PAY_FRESH}`,
  transactionUsed: `${TRANSACTION_USED}; ${NOTHING_BROADCAST}; ${PAY_FRESH}`,
  /** The challenge's transfer was recorded by another transaction between the checks and the broadcast. */
  challengeTakenByTransaction: `${REDEEMED_BY_TRANSACTION}; ${NOTHING_BROADCAST}; ${PAY_FRESH}`,
  transferFailed: `The transfer failed on the network; nothing was credited; ${PAY_FRESH}`,
  upstreamPayment: (ownChallenge: boolean) =>
    `The agent answered with ${ownChallenge ? 'its own payment challenge' : 'a payment receipt'}; the platform relays no challenges, receipts or credentials; pay only where the platform challenges.`,
} as const;
