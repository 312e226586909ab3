import { purchaseBase, runGuards } from '../guards/run.js';
import { presentedCredential } from '../presented.js';
import type { PurchaseOutcome, PurchaseRequest } from '../ports/outcome.js';
import type { PurchaseConfig, PurchasePorts } from '../ports/purchase.js';
import { PACK_GUARDS, type PackGuard } from './guards.js';
import { packSurface } from './surface.js';

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
  const presented = presentedCredential(input);
  return runGuards(guards, purchaseBase(input, ports, config, packSurface(input, presented, ports, config), presented));
}
