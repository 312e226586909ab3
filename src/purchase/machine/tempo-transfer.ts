import { PAYMENT_METHODS, PAYMENT_PROBLEMS, type PaymentProblemRecord } from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import { grantedAnswer, receiptOf } from './granted.js';
import { withFreshChallenge } from './issue.js';
import { codeAnswer, type PurchaseOutcome, type PurchaseRequest } from './outcome.js';
import type { Hex } from '../tempo/quote.js';
import type { Grant, IssuedChallenge, PurchaseConfig, PurchasePorts } from './ports.js';
import { packOfferFor } from './tempo-offer.js';
import type { StablecoinPorts, TransferRecord } from './tempo-ports.js';

const FAILED_ON_NETWORK = 'The transfer failed on the network; nothing was credited; pay the fresh challenge on this response.';

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
export async function followTransferStep(record: TransferRecord, stablecoin: StablecoinPorts, failedAs: PaymentProblemRecord = PAYMENT_PROBLEMS.verificationFailed): Promise<TransferStep> {
  let status;
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
      return { kind: 'pending', record: record.state === 'broadcast' ? record : await stablecoin.transfers.updateTransfer(record.challengeId, 'broadcast') };
    case 'failed': {
      const failed = await stablecoin.transfers.updateTransfer(record.challengeId, 'failed');
      await stablecoin.walletCaps.release(record.hash);
      return { kind: 'failed', record: failed, refusal: failedAs, description: FAILED_ON_NETWORK };
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
      if (now <= record.expiresAt && now < record.validBefore) return broadcastTransferStep(record, stablecoin);
      return followTransferStep(record, stablecoin, PAYMENT_PROBLEMS.paymentExpired);
  }
}

/** A 402 with a fresh stablecoin challenge (a card one if the deployment stopped selling transfers). */
export function freshTransferChallenge(refusal: PaymentProblemRecord | PurchaseErrorRecord, ports: PurchasePorts, config: PurchaseConfig, now: number, description?: string): Promise<PurchaseOutcome> {
  return withFreshChallenge(refusal, ports, config, now, description, packOfferFor(PAYMENT_METHODS.tempo, ports, config));
}

/** The grant of a settled transfer: method tempo, the transaction hash as its charge id (the receipt reference, 7.4). */
export function transferGrant(record: TransferRecord, now: number): Grant {
  return {
    challengeId: record.challengeId,
    buyer: record.buyer,
    packId: record.packId,
    creditNano: record.creditNano,
    chargeId: record.hash,
    method: PAYMENT_METHODS.tempo,
    termsVersion: record.termsVersion,
    grantedAt: now,
  };
}

/** Credits the pack once for a settled transfer. A store fault is 503 grant_failed. */
export async function grantTransfer(record: TransferRecord, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  try {
    const result = await ports.store.grant(transferGrant(record, now));
    return grantedAnswer(result.grant, result.balanceNano, config);
  } catch {
    return codeAnswer(PURCHASE_ERRORS.grant_failed, config);
  }
}

/** The pack's answer to a transfer step: settled credits the pack; failed a fresh stablecoin challenge; the two 503s. */
export function packTransferAnswer(step: TransferStep, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> | PurchaseOutcome {
  switch (step.kind) {
    case 'settled':
      return grantTransfer(step.record, ports, config, now);
    case 'failed':
      return freshTransferChallenge(step.refusal, ports, config, now, step.description);
    case 'unavailable':
      return codeAnswer(PURCHASE_ERRORS.tempo_unavailable, config);
    case 'pending':
      return codeAnswer(PURCHASE_ERRORS.tempo_settlement_pending, config);
  }
}

/** Broadcasts a transfer opened for a pack and answers. */
export async function broadcastTransfer(record: TransferRecord, stablecoin: StablecoinPorts, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  return packTransferAnswer(await broadcastTransferStep(record, stablecoin), ports, config, now);
}

/**
 * Section 3 row 1 for a pack's transfer: the same credential resumes the transfer recorded under its challenge;
 * terms, switches, expiry, location and caps are not asked again. Only the buyer it was opened for may resume it.
 */
export async function resumeTransfer(record: TransferRecord, input: PurchaseRequest, stablecoin: StablecoinPorts, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  if (input.buyer?.agentUrl !== record.buyer) return codeAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, config);
  const grant = await ports.store.grantOf(record.challengeId);
  if (grant) return codeAnswer(PURCHASE_ERRORS.purchase_already_granted, config, { receipt: receiptOf(grant) });
  return packTransferAnswer(await resumeTransferStep(record, stablecoin, input.now), ports, config, input.now);
}

/** The credential's transfer record, when its challenge has one for this very transaction. */
export function sameTransfer(record: TransferRecord | undefined, hash: string | undefined): record is TransferRecord {
  return record !== undefined && hash !== undefined && record.hash.toLowerCase() === hash.toLowerCase();
}

/** The record of a stablecoin transfer, opened before it is broadcast; keyed by its challenge and claiming its hash. */
export function transferRecordFor(
  issued: IssuedChallenge,
  buyer: string,
  transfer: { readonly hash: Hex; readonly serialized: Hex; readonly wallet: Hex; readonly validBefore: number },
  now: number,
): TransferRecord {
  return {
    challengeId: issued.id,
    hash: transfer.hash,
    serialized: transfer.serialized,
    wallet: transfer.wallet,
    buyer,
    termsVersion: issued.termsVersion,
    packId: issued.packId,
    price: issued.price,
    creditNano: issued.creditNano,
    state: 'unsent',
    openedAt: now,
    expiresAt: issued.expiresAt,
    validBefore: transfer.validBefore,
  };
}
