import { PAYMENT_PROBLEMS, type PaymentProblemRecord } from '../../../spec/payments.js';
import { MESSAGES } from '../messages.js';
import type { StablecoinPorts, TransferRecord } from '../ports/stablecoin.js';

/**
 * Where a transfer stands after the network was asked (broadcast, read, or resumed), with the record brought up
 * to date. What to answer is the surface's choice: the pack credits and answers 200; a single-call sale credits,
 * funds and serves the call.
 */
export type TransferStep =
  | { readonly kind: 'settled'; readonly record: TransferRecord }
  /** Nothing was paid: answered with a fresh challenge naming `refusal`. */
  | { readonly kind: 'failed'; readonly record: TransferRecord; readonly refusal: PaymentProblemRecord; readonly description?: string }
  /** 7.4 tempo_unavailable: never broadcast as far as anyone knows. */
  | { readonly kind: 'unavailable'; readonly record: TransferRecord }
  /** 7.4 tempo_settlement_pending: broadcast, not yet settled. */
  | { readonly kind: 'pending'; readonly record: TransferRecord };

/**
 * Reads the network about a transfer: settled; pending, or a network that cannot be read, is pending
 * (unavailable for a transfer never broadcast; the same credential completes either); failed ends the
 * transfer and takes it out of the wallet's daily total.
 */
async function followTransferStep(
  record: TransferRecord,
  stablecoin: StablecoinPorts,
  failedAs: PaymentProblemRecord = PAYMENT_PROBLEMS.verificationFailed,
): Promise<TransferStep> {
  let status: Awaited<ReturnType<StablecoinPorts['network']['status']>>;
  try {
    status = await stablecoin.network.status(record.hash);
  } catch {
    // Unreadable: an unsent transfer was never broadcast as far as anyone knows; a broadcast one is still settling.
    return record.state === 'unsent' ? { kind: 'unavailable', record } : { kind: 'pending', record };
  }
  switch (status) {
    case 'settled':
      return { kind: 'settled', record: await stablecoin.transfers.updateTransfer(record.challengeId, 'settled') };
    case 'pending':
      // Seen by the network, so broadcast (also an unsent one whose failed broadcast did reach it).
      return { kind: 'pending', record: await stablecoin.transfers.updateTransfer(record.challengeId, 'broadcast') };
    case 'failed': {
      const failed = await stablecoin.transfers.updateTransfer(record.challengeId, 'failed');
      await stablecoin.walletCaps.release(record.hash);
      return { kind: 'failed', record: failed, refusal: failedAs, description: MESSAGES.transferFailed };
    }
  }
}

/**
 * Broadcasts the recorded transaction (again, for an `unsent` record: the same bytes, so never a second
 * transfer). Unreachable: unavailable, the record stays `unsent`. Accepted: the record is `broadcast` and the
 * network is read at once.
 */
export async function broadcastTransferStep(record: TransferRecord, stablecoin: StablecoinPorts): Promise<TransferStep> {
  try {
    await stablecoin.network.broadcast(record.serialized);
  } catch {
    return { kind: 'unavailable', record };
  }
  return followTransferStep(await stablecoin.transfers.updateTransfer(record.challengeId, 'broadcast'), stablecoin);
}

/**
 * Section 3 row 1 for a transfer, once the caller and any grant were checked: an `unsent` transfer is broadcast
 * again while the challenge and the transaction are valid; after that the network says whether it ever landed.
 * A `broadcast` one is read, and completes even after the challenge expired (7.4 tempo_settlement_pending).
 */
export function resumeTransferStep(record: TransferRecord, stablecoin: StablecoinPorts, now: number): Promise<TransferStep> | TransferStep {
  switch (record.state) {
    case 'failed':
      return { kind: 'failed', record, refusal: PAYMENT_PROBLEMS.verificationFailed };
    case 'settled':
      return { kind: 'settled', record };
    case 'broadcast':
      return followTransferStep(record, stablecoin);
    case 'unsent':
      // The transaction is valid before no later than the challenge expires (the transaction check refuses one valid longer), so while it is valid the challenge is too.
      if (now < record.validBefore) return broadcastTransferStep(record, stablecoin);
      return followTransferStep(record, stablecoin, PAYMENT_PROBLEMS.paymentExpired);
  }
}
