import type { ChargeRecord, ChargeReply, PurchasePorts } from '../ports/purchase.js';

/**
 * Where a card charge stands after the processor was asked (sent, or resumed by status or idempotency key),
 * with the charge record brought up to date. What to answer is the surface's choice: the pack credits and
 * answers 200; a single-call sale credits, funds and serves the call.
 */
export type ChargeStep =
  | { readonly kind: 'settled'; readonly record: ChargeRecord; readonly chargeId: string }
  /** A genuine decline or an intent cancelled unsettled: nothing captured (section 3 row 2). */
  | { readonly kind: 'failed'; readonly record: ChargeRecord }
  | { readonly kind: 'processing'; readonly record: ChargeRecord }
  /** No outcome: the processor said unknown or the call faulted. */
  | { readonly kind: 'unknown'; readonly record: ChargeRecord };

/** Asks the processor (`send`) and records its word on the charge. */
export async function chargeStep(
  record: ChargeRecord,
  send: () => ChargeReply | Promise<ChargeReply>,
  ports: Pick<PurchasePorts, 'store'>,
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
      const settled = await ports.store.updateCharge(record.challengeId, { state: 'settled', ...known });
      // A charge whose id the processor never named is known by its idempotency key (settle.ts finds it the same way).
      return { kind: 'settled', record: settled, chargeId: chargeId ?? record.idempotencyKey };
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
