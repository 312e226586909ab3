import { PAYMENT_METHODS } from '../../../spec/payments.js';
import { sameEcho, type PaymentCredential } from '../../wire/credential.js';
import type { Grant, IssuedChallenge, PurchasePorts } from '../ports/purchase.js';
import type { StablecoinPorts, TransferRecord } from '../ports/stablecoin.js';
import { readTempoPayload } from '../tempo/payload.js';
import type { Hex } from '../tempo/quote.js';
import { tempoTransactionHash } from '../tempo/transaction-check.js';
import { paysByTransfer } from '../method.js';

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

/**
 * Section 3 row 1 for a stablecoin credential: the transfer this very credential (same challenge, echoed byte
 * for byte, same transaction) already recorded, with the challenge it answers and the ports that recorded it;
 * undefined when it recorded none (or transfers are not configured).
 */
export async function transferOfSameCredential(
  credential: PaymentCredential,
  ports: Pick<PurchasePorts, 'store' | 'stablecoin'>,
): Promise<{ readonly record: TransferRecord; readonly issued: IssuedChallenge; readonly stablecoin: StablecoinPorts } | undefined> {
  const stablecoin = ports.stablecoin;
  if (stablecoin === undefined) return undefined;
  if (!paysByTransfer(credential.challenge.method)) return undefined;
  const payload = readTempoPayload(credential.payload);
  if (payload.kind !== 'transaction') return undefined;
  const record = await stablecoin.transfers.transferOf(credential.challenge.id);
  if (!sameTransfer(record, await tempoTransactionHash(payload.serialized))) return undefined;
  const issued = await ports.store.challenge(record.challengeId);
  if (issued === undefined) return undefined;
  return sameEcho(issued.echo, credential.challenge) ? { record, issued, stablecoin } : undefined;
}
