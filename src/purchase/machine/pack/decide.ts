import { purchaseContext, runGuards } from '../guards/run.js';
import { presentedCredential } from '../presented.js';
import type { PurchaseOutcome, PurchaseRequest } from '../ports/outcome.js';
import type { PurchaseConfig, PurchasePorts } from '../ports/purchase.js';
import { PACK_GUARDS, type PackContext, type PackGuard } from './guards.js';
import { packSurface } from './surface.js';

function packContext(input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): PackContext {
  return purchaseContext(input, ports, config, packSurface(input, ports, config), presentedCredential(input));
}

/**
 * Decides a request to POST /api/mpp/credits (a usage pack, by card or stablecoin) by the order of PACK_GUARDS
 * (`guards`: a deployment's own table, which the self-test's mutants change).
 */
export async function decidePurchase(
  input: PurchaseRequest,
  ports: PurchasePorts,
  config: PurchaseConfig,
  guards: readonly PackGuard[] = PACK_GUARDS,
): Promise<PurchaseOutcome> {
  return runGuards(guards, packContext(input, ports, config));
}
