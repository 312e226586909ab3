import type { Hex } from '../tempo/quote.js';
import type { Grant, PurchasePorts } from '../ports/purchase.js';
import { transferGrant } from './record.js';

export type TransferSettlement =
  | { readonly credited: true; readonly grant: Grant; readonly balanceNano: string }
  | { readonly credited: false; readonly reason: 'already-credited' | 'unmatched' | 'grant-failed'; readonly grant?: Grant };

/**
 * The network reports a transfer settled (a watcher of the deposit address): its pack is credited once,
 * whether or not the credential is ever presented again; a later presentation answers 409
 * purchase_already_granted. A hash that matches no transfer record is left to reconciliation.
 */
export async function settleTransferReported(
  report: { readonly hash: Hex },
  ports: Pick<PurchasePorts, 'clock' | 'store' | 'stablecoin'>,
): Promise<TransferSettlement> {
  const transfers = ports.stablecoin?.transfers;
  if (transfers === undefined) return { credited: false, reason: 'unmatched' };
  const record = await transfers.transferByHash(report.hash);
  if (record === undefined) return { credited: false, reason: 'unmatched' };
  const settled = await transfers.updateTransfer(record.challengeId, 'settled');
  try {
    const result = await ports.store.grant(transferGrant(settled, ports.clock.now()));
    return result.granted
      ? { credited: true, grant: result.grant, balanceNano: result.balanceNano }
      : { credited: false, reason: 'already-credited', grant: result.grant };
  } catch {
    return { credited: false, reason: 'grant-failed' };
  }
}
