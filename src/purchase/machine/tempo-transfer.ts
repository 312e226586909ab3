import { PAYMENT_METHODS, PAYMENT_PROBLEMS, type PaymentProblemRecord } from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import { withFreshChallenge } from './issue.js';
import { codeAnswer, type PurchaseOutcome, type PurchaseRequest } from './outcome.js';
import type { PurchaseConfig, PurchasePorts } from './ports.js';
import { packOfferFor } from './tempo-offer.js';
import { tempoGrantedAnswer, tempoReceiptOf } from './tempo-granted.js';
import type { StablecoinPorts, TransferRecord } from './tempo-ports.js';

/** A 402 with a fresh stablecoin challenge (a card one if the deployment stopped selling transfers). */
export function freshTransferChallenge(refusal: PaymentProblemRecord | PurchaseErrorRecord, ports: PurchasePorts, config: PurchaseConfig, now: number, description?: string): Promise<PurchaseOutcome> {
  return withFreshChallenge(refusal, ports, config, now, description, packOfferFor(PAYMENT_METHODS.tempo, ports, config));
}

/** Credits the pack once for a settled transfer; the grant's charge id is the transaction hash. A store fault is 503 grant_failed. */
export async function grantTransfer(record: TransferRecord, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  try {
    const result = await ports.store.grant({
      challengeId: record.challengeId,
      buyer: record.buyer,
      packId: record.packId,
      creditNano: record.creditNano,
      chargeId: record.hash,
      termsVersion: record.termsVersion,
      grantedAt: now,
    });
    return tempoGrantedAnswer(result.grant, result.balanceNano, config);
  } catch {
    return codeAnswer(PURCHASE_ERRORS.grant_failed, config);
  }
}

/**
 * Reads the network about a transfer: settled credits the pack; pending, or a network that cannot be read, is
 * 503 tempo_settlement_pending (tempo_unavailable for a transfer never broadcast; the same credential completes
 * either); failed ends the transfer, takes
 * it out of the wallet's daily total and answers a fresh challenge.
 */
export async function followTransfer(record: TransferRecord, stablecoin: StablecoinPorts, ports: PurchasePorts, config: PurchaseConfig, now: number, failedAs: PaymentProblemRecord = PAYMENT_PROBLEMS.verificationFailed): Promise<PurchaseOutcome> {
  let status;
  try {
    status = await stablecoin.network.status(record.hash);
  } catch {
    // Unreadable: an unsent transfer was never broadcast as far as anyone knows; a broadcast one is still settling.
    return codeAnswer(record.state === 'unsent' ? PURCHASE_ERRORS.tempo_unavailable : PURCHASE_ERRORS.tempo_settlement_pending, config);
  }
  switch (status) {
    case 'settled':
      return grantTransfer(await stablecoin.transfers.updateTransfer(record.challengeId, 'settled'), ports, config, now);
    case 'pending':
      if (record.state !== 'broadcast') await stablecoin.transfers.updateTransfer(record.challengeId, 'broadcast');
      return codeAnswer(PURCHASE_ERRORS.tempo_settlement_pending, config);
    case 'failed':
      await stablecoin.transfers.updateTransfer(record.challengeId, 'failed');
      await stablecoin.walletCaps.release(record.hash);
      return freshTransferChallenge(failedAs, ports, config, now, 'The transfer failed on the network; nothing was credited; pay the fresh challenge on this response.');
  }
}

/**
 * Broadcasts the recorded transaction (again, for an `unsent` record: the same bytes, so never a second
 * transfer). Unreachable: 503 tempo_unavailable, the record stays `unsent`. Accepted: the record is
 * `broadcast` and the network is read at once.
 */
export async function broadcastTransfer(record: TransferRecord, stablecoin: StablecoinPorts, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  try {
    await stablecoin.network.broadcast(record.serialized);
  } catch {
    return codeAnswer(PURCHASE_ERRORS.tempo_unavailable, config);
  }
  const sent = await stablecoin.transfers.updateTransfer(record.challengeId, 'broadcast');
  return followTransfer(sent, stablecoin, ports, config, now);
}

/**
 * Section 3 row 1 for a transfer: the same credential resumes the transfer recorded under its challenge;
 * terms, switches, expiry, location and caps are not asked again. Only the buyer it was opened for may
 * resume it. An `unsent` transfer is broadcast again while the challenge and the transaction are valid;
 * after that the network says whether it ever landed. A `broadcast` one is read, and completes even after
 * the challenge expired (7.4 tempo_settlement_pending).
 */
export async function resumeTransfer(record: TransferRecord, input: PurchaseRequest, stablecoin: StablecoinPorts, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  const { now } = input;
  if (input.buyer?.agentUrl !== record.buyer) return codeAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, config);
  const grant = await ports.store.grantOf(record.challengeId);
  if (grant) return codeAnswer(PURCHASE_ERRORS.purchase_already_granted, config, { receipt: tempoReceiptOf(grant) });
  switch (record.state) {
    case 'failed':
      return freshTransferChallenge(PAYMENT_PROBLEMS.verificationFailed, ports, config, now);
    case 'settled':
      return grantTransfer(record, ports, config, now);
    case 'broadcast':
      return followTransfer(record, stablecoin, ports, config, now);
    case 'unsent':
      if (now <= record.expiresAt && now < record.validBefore) return broadcastTransfer(record, stablecoin, ports, config, now);
      return followTransfer(record, stablecoin, ports, config, now, PAYMENT_PROBLEMS.paymentExpired);
  }
}

/** The credential's transfer record, when its challenge has one for this very transaction. */
export function sameTransfer(record: TransferRecord | undefined, hash: string | undefined): record is TransferRecord {
  return record !== undefined && hash !== undefined && record.hash.toLowerCase() === hash.toLowerCase();
}
