import { runGuards } from '../guards/run.js';
import type { SaleOutcome } from './answer.js';
import { SALE_GUARDS, saleContext } from './guards.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';

/** Decides a call to a priced single-call resource (7.4 single calls; section 3) by the order of SALE_GUARDS. */
export async function decideSale(input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  if (input.resource !== config.sale.resource) throw new TypeError(`the sale of ${config.sale.resource} was asked to decide a call to ${input.resource}`);
  return runGuards(SALE_GUARDS, saleContext(input, ports, config));
}
