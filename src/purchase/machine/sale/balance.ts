import { encodeBase64url } from '../../../httpsig/base64url.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import type { PurchaseAnswer } from '../answers.js';
import { codeAnswer } from '../ports/outcome.js';
import { callAnswer, type SaleOutcome } from './answer.js';
import type { FundingHold, SaleConfig, SalePorts, SaleRequest, ServeResult } from './ports.js';
import { HOLD_KEY_BYTES, HOLD_KEY_PREFIXES } from './wire.js';

/** 503 funding_unavailable with the resource's Retry-After (7.4: nothing charged; resend after Retry-After; do not buy). */
function fundingUnavailable(config: SaleConfig): PurchaseAnswer {
  return codeAnswer(PURCHASE_ERRORS.funding_unavailable, { ...config, retryAfterSeconds: config.sale.fundingRetryAfterSeconds ?? config.retryAfterSeconds });
}

/**
 * An agent's call paid from its balance, with no purchase: held, run, then spent (served) or released (not
 * served). Undefined when the balance does not cover the call (the caller then buys). A balance that covers
 * the call but is held by in-flight calls, a funding step that fails, or a call that did not run answer 503
 * funding_unavailable: nothing was spent, the same request succeeds later, and buying would not help.
 */
export async function serveFromBalance(account: string, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome | undefined> {
  const key = HOLD_KEY_PREFIXES.balance + encodeBase64url(ports.random.bytes(HOLD_KEY_BYTES));
  let hold: FundingHold;
  try {
    hold = await ports.funding.hold(account, config.sale.priceNano, key);
  } catch {
    return fundingUnavailable(config);
  }
  if (!hold.held) return hold.reason === 'in-flight' ? fundingUnavailable(config) : undefined;
  const { holdId } = hold;

  let result: ServeResult | undefined;
  try {
    result = await ports.server.serve({ resource: config.sale.resource, account, challengeId: null, headers: input.headers, body: input.body });
  } catch {
    // no result: the call failed
  }
  try {
    if (result?.outcome === 'served') await ports.funding.spend(holdId);
    else await ports.funding.release(holdId);
  } catch {
    // left held for reconciliation; the answer does not wait on it
  }
  if (result?.outcome === 'served' || result?.outcome === 'failed') return callAnswer(result.response, config);
  return fundingUnavailable(config);
}
