import type { ChargeRecord, ChargeReply, GrantResult, PurchasePorts } from '../ports/purchase.js';
import { chargeGrant } from './record.js';

/**
 * Where a card charge stands after the processor was asked (sent, or resumed by status or idempotency key),
 * with the charge record brought up to date and, once settled, its purchase credited (chargeGrant) with the same step
 * of the store. What to answer is the surface's choice: the pack answers 200; a single-call sale funds and serves the
 * call.
 */
export type ChargeStep =
  /** `credited` absent: the grant failed, the charge is settled (7.4 grant_failed: the same credential completes it). */
  | { readonly kind: 'settled'; readonly record: ChargeRecord; readonly chargeId: string; readonly credited: GrantResult | undefined }
  /** A genuine decline or an intent cancelled unsettled: nothing captured (section 3 row 2). */
  | { readonly kind: 'failed'; readonly record: ChargeRecord }
  | { readonly kind: 'processing'; readonly record: ChargeRecord }
  /** No outcome: the processor said unknown or the call faulted. */
  | { readonly kind: 'unknown'; readonly record: ChargeRecord };

/** Asks the processor (`send`) and records its word on the charge; a settled one is credited at clock second `now`. */
export async function chargeStep(
  record: ChargeRecord,
  send: () => ChargeReply | Promise<ChargeReply>,
  ports: Pick<PurchasePorts, 'store'>,
  now: number,
): Promise<ChargeStep> {
  let reply: ChargeReply;
  try {
    reply = await send();
  } catch {
    return { kind: 'unknown', record };
  }
  const chargeId = reply.chargeId ?? record.chargeId;
  const known = chargeId === undefined ? {} : { chargeId };
  switch (reply.outcome) {
    case 'settled': {
      // A charge whose id the processor never named is known by its idempotency key (settle.ts finds it the same way).
      const reference = chargeId ?? record.idempotencyKey;
      // The grant is of what the record says and no update changes (its buyer, pack, price and terms version).
      const settled = await ports.store.settleAndGrant(record.challengeId, chargeId, chargeGrant(record, reference, now));
      return { kind: 'settled', record: settled.record, chargeId: reference, credited: settled.credited };
    }
    case 'declined':
    case 'cancelled-unsettled':
      return { kind: 'failed', record: await ports.store.updateCharge(record.challengeId, { state: 'failed', ...known }) };
    case 'processing':
      return { kind: 'processing', record: await ports.store.updateCharge(record.challengeId, { state: 'sent', ...known }) };
    case 'unknown':
      return { kind: 'unknown', record: await ports.store.updateCharge(record.challengeId, { state: 'sent', ...known }) };
  }
}

/** The processor call that resumes a charge already sent: a status read when its id is known, else the charge again under its idempotency key (never a second charge). */
export function resumeSend(record: ChargeRecord, ports: Pick<PurchasePorts, 'processor'>): () => ChargeReply | Promise<ChargeReply> {
  const { chargeId } = record;
  return chargeId !== undefined ? () => ports.processor.status(chargeId) : () => ports.processor.charge(record.token, record.price, record.idempotencyKey);
}
