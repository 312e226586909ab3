import type { RefundState } from '../../../spec/payments.js';
import { chargeGrant } from './record.js';
import type { ChargeRecord, Grant, PurchasePorts } from '../ports/purchase.js';

export type SettlementResult =
  | { readonly credited: true; readonly grant: Grant; readonly balanceNano: string }
  | { readonly credited: false; readonly reason: 'already-credited' | 'grant-failed'; readonly grant?: Grant }
  /** Matched nothing sold: refunded (7.4 payment_unreconciled answers the token from then on). */
  | { readonly credited: false; readonly reason: 'unmatched'; readonly refund?: RefundState };

/**
 * Section 3 last row: the card processor reports a charge settled (a verified webhook). The charge is found
 * by its id, or by the idempotency key when the machine never learned the id (the charge call faulted), or by
 * the token it was paid with when that token's charge is still waiting for its id (a token pays once). Its
 * pack is credited once, whether or not the credential is ever presented again; a later presentation answers
 * 409 purchase_already_granted. A captured charge that matches no record is refunded when the report names the
 * token it was paid with; a credential with that token then answers 503 payment_unreconciled with the refund state.
 */
export async function settleReported(
  report: { readonly chargeId: string; readonly idempotencyKey?: string; readonly token?: string },
  ports: Pick<PurchasePorts, 'clock' | 'store' | 'processor'>,
): Promise<SettlementResult> {
  const { store } = ports;
  const record =
    (await store.chargeById(report.chargeId)) ??
    (report.idempotencyKey === undefined ? undefined : await store.chargeByKey(report.idempotencyKey)) ??
    (report.token === undefined ? undefined : await chargeAwaitingItsId(report.token, store));
  if (record === undefined) {
    if (report.token === undefined) return { credited: false, reason: 'unmatched' };
    const refund = await ports.processor.refund(report.chargeId);
    await store.recordUnreconciled({ chargeId: report.chargeId, token: report.token, refund });
    return { credited: false, reason: 'unmatched', refund };
  }
  const settled = await store.updateCharge(record.challengeId, { state: 'settled', chargeId: report.chargeId });
  try {
    const result = await store.grant(chargeGrant(settled, report.chargeId, ports.clock.now()));
    if (result.granted) return { credited: true, grant: result.grant, balanceNano: result.balanceNano };
    return { credited: false, reason: 'already-credited', grant: result.grant };
  } catch {
    return { credited: false, reason: 'grant-failed' };
  }
}

/** The charge the token opened, if the processor never told its id: then the reported charge is that one. */
async function chargeAwaitingItsId(token: string, store: PurchasePorts['store']): Promise<ChargeRecord | undefined> {
  const record = await store.chargeByToken(token);
  return record !== undefined && record.chargeId === undefined ? record : undefined;
}
