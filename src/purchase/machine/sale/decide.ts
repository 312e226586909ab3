import { purchaseBase, runGuards } from '../guards/run.js';
import { presentedCredential } from '../presented.js';
import type { SaleOutcome } from './answer.js';
import { SALE_GUARDS, type SaleBase, type SaleGuard } from './guards.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { saleSurface } from './surface.js';

/**
 * Decides a call to a priced single-call resource (7.4 single calls; section 3) by the order of SALE_GUARDS
 * (`guards`: a deployment's own table, which the self-test's mutants change).
 */
export async function decideSale(input: SaleRequest, ports: SalePorts, config: SaleConfig, guards: readonly SaleGuard[] = SALE_GUARDS): Promise<SaleOutcome> {
  if (input.resource !== config.sale.resource) throw new TypeError(`the sale of ${config.sale.resource} was asked to decide a call to ${input.resource}`);
  const presented = presentedCredential(input);
  const base: SaleBase = { ...purchaseBase(input, ports, config, saleSurface(input, presented, ports, config), presented), input, ports, config };
  return runGuards(guards, base);
}
