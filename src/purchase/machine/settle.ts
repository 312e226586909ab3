import type { Grant, PurchasePorts } from './ports.js';

export type SettlementResult =
  | { readonly credited: true; readonly grant: Grant; readonly balanceNano: string }
  | { readonly credited: false; readonly reason: 'already-credited' | 'unmatched' | 'grant-failed'; readonly grant?: Grant };

/**
 * Section 3 last row: the card processor reports a charge settled (a verified webhook). The charge is found
 * by its id, or by the idempotency key when the machine never learned the id (the charge call faulted). Its
 * pack is credited once, whether or not the credential is ever presented again; a later presentation answers
 * 409 purchase_already_granted. A charge that matches no record is left to reconciliation (payment_unreconciled).
 */
export async function settleReported(
  report: { readonly chargeId: string; readonly idempotencyKey?: string },
  ports: Pick<PurchasePorts, 'clock' | 'store'>,
): Promise<SettlementResult> {
  const { store } = ports;
  const record = (await store.chargeById(report.chargeId)) ?? (report.idempotencyKey === undefined ? undefined : await store.chargeByKey(report.idempotencyKey));
  if (record === undefined) return { credited: false, reason: 'unmatched' };
  const settled = await store.updateCharge(record.challengeId, { state: 'settled', chargeId: report.chargeId });
  try {
    const result = await store.grant({
      challengeId: settled.challengeId,
      buyer: settled.buyer,
      packId: settled.packId,
      creditNano: settled.creditNano,
      chargeId: report.chargeId,
      termsVersion: settled.termsVersion,
      grantedAt: ports.clock.now(),
    });
    return result.granted ? { credited: true, grant: result.grant, balanceNano: result.balanceNano } : { credited: false, reason: 'already-credited', grant: result.grant };
  } catch {
    return { credited: false, reason: 'grant-failed' };
  }
}

