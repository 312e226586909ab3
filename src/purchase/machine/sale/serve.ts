import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { codeAnswer } from '../ports/outcome.js';
import type { Grant, GrantResult } from '../ports/purchase.js';
import { callAnswer, purchaseBlock, settledAgainAnswer, type SaleOutcome } from './answer.js';
import type { FundingHold, SaleConfig, SalePorts, SaleRefund, SaleRequest, SaleState, ServeResult } from './ports.js';
import { HOLD_KEY_PREFIXES } from './wire.js';
import { paysByCard } from '../method.js';

/** States a bought call may still be funded and served from (`declined` too: a processor that reports a capture after a decline is believed). */
const FUNDABLE: readonly SaleState[] = ['open', 'declined'];

/** A spent or released hold the funding step could not record stays held for reconciliation; the call's answer does not wait on it. */
async function quietly(step: () => unknown): Promise<void> {
  try {
    await step();
  } catch {
    // left to reconciliation
  }
}

/** Runs the call; a server that throws is taken as failed (whether it started is unknown, and it is never run twice). */
async function runCall(run: () => ServeResult | Promise<ServeResult>): Promise<ServeResult | undefined> {
  try {
    return await run();
  } catch {
    // answers undefined: failed
  }
}

/**
 * Pays a failed call back: the card charge is refunded and the call's credit leaves the balance with it (the
 * hold is spent); when the processor cannot refund, or the call was paid by a transfer (which no card processor
 * can refund), the hold is released, so the credit stays on the payer's balance. Either way the buyer is not
 * out of pocket.
 */
async function refundCall(grant: Grant, holdId: string, ports: SalePorts): Promise<SaleRefund> {
  if (!paysByCard(grant.method)) {
    await quietly(() => ports.funding.release(holdId));
    return 'balance';
  }
  try {
    const state = await ports.processor.refund(grant.chargeId);
    await quietly(() => ports.funding.spend(holdId));
    return state;
  } catch {
    await quietly(() => ports.funding.release(holdId));
    return 'balance';
  }
}

/**
 * A settled single-call purchase (a card charge's grant, charge/record.ts chargeGrant, or a transfer's,
 * transfer/record.ts transferGrant): credited to the payer once (section 3 last row; a store fault is 503
 * grant_failed, the same credential completes it), then the call is funded and served at most once.
 */
export async function creditAndServe(grant: Grant, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  let credited: GrantResult;
  try {
    credited = await ports.store.grant(grant);
  } catch {
    return codeAnswer(PURCHASE_ERRORS.grant_failed, config);
  }
  return fundAndServe(grant.challengeId, credited.grant, credited.balanceNano, input, ports, config);
}

/** creditAndServe once the grant under `challengeId` was asked: `credited` absent when it failed (503 grant_failed). */
export function serveCredited(
  challengeId: string,
  credited: GrantResult | undefined,
  input: SaleRequest,
  ports: SalePorts,
  config: SaleConfig,
): Promise<SaleOutcome> | SaleOutcome {
  if (credited === undefined) return codeAnswer(PURCHASE_ERRORS.grant_failed, config);
  return fundAndServe(challengeId, credited.grant, credited.balanceNano, input, ports, config);
}

/**
 * Serve-once: the call is funded by a hold keyed by its sale (the same hold for every presentation), then
 * claimed by moving the sale from open to serving, atomically, before it runs. Only the presentation that
 * moved it runs the call; every other one answers from the state it found (409 call_in_progress,
 * call_already_served, call_refunded). A call that did not start goes back to open with its hold kept
 * (503 sale_serve_pending: the same credential serves it, once); one that failed is refunded.
 */
async function fundAndServe(
  challengeId: string,
  grant: Grant,
  balanceNano: string,
  input: SaleRequest,
  ports: SalePorts,
  config: SaleConfig,
): Promise<SaleOutcome> {
  const sale = await ports.sales.sale(challengeId);
  if (sale === undefined) throw new Error(`no sale under challenge ${challengeId}`);
  if (!FUNDABLE.includes(sale.state)) return settledAgainAnswer(sale.state as Exclude<SaleState, 'open' | 'declined'>, grant, config);

  let hold: FundingHold | undefined;
  try {
    hold = await ports.funding.hold(sale.payer, sale.priceNano, HOLD_KEY_PREFIXES.sale + challengeId);
  } catch {
    // no hold: the funding step failed
  }
  if (hold === undefined || !hold.held) {
    const unfunded = await ports.sales.move(challengeId, FUNDABLE, 'unfunded');
    if (!unfunded.moved) return settledAgainAnswer(unfunded.record.state as Exclude<SaleState, 'open' | 'declined'>, grant, config);
    return codeAnswer(PURCHASE_ERRORS.funding_failed, config, { purchase: purchaseBlock(grant, balanceNano) });
  }
  const { holdId } = hold;

  const claimed = await ports.sales.move(challengeId, FUNDABLE, 'serving', { holdId });
  if (!claimed.moved) return settledAgainAnswer(claimed.record.state as Exclude<SaleState, 'open' | 'declined'>, grant, config);

  const result = await runCall(() =>
    ports.server.serve({ resource: sale.resource, account: sale.account, challengeId, headers: input.headers, body: input.body }),
  );
  if (result?.outcome === 'served') {
    await quietly(() => ports.funding.spend(holdId));
    await ports.sales.move(challengeId, ['serving'], 'served');
    return callAnswer(result.response, config, grant);
  }
  if (result?.outcome === 'not-started') {
    await ports.sales.move(challengeId, ['serving'], 'open');
    return codeAnswer(PURCHASE_ERRORS.sale_serve_pending, config);
  }
  const refund = await refundCall(grant, holdId, ports);
  await ports.sales.move(challengeId, ['serving'], 'refunded', { refund });
  return result === undefined ? settledAgainAnswer('refunded', grant, config) : callAnswer(result.response, config, grant);
}
