import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import type { PaymentCredential } from '../credential.js';
import { guardsAfter, runGuards } from '../guards/run.js';
import { surfaceOf } from '../ports/outcome.js';
import type { IssuedChallenge } from '../ports/purchase.js';
import { stablecoinOf } from '../ports/stablecoin.js';
import type { SaleOutcome } from './answer.js';
import { SALE_GUARDS, saleContext } from './guards.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { payerOf } from './record.js';

/** Decides a call to a priced single-call resource (7.4 single calls; section 3) by the order of SALE_GUARDS. */
export async function decideSale(input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  if (input.resource !== config.sale.resource) throw new TypeError(`the sale of ${config.sale.resource} was asked to decide a call to ${input.resource}`);
  return runGuards(SALE_GUARDS, saleContext(input, ports, config));
}

/**
 * Decides a stablecoin (`tempo`) credential for a single call whose caller already passed the guards up to
 * `expiry` (the switches, the method, the challenge issued here for a call and unpaid, who buys, the expiry).
 */
export async function decideSaleTransfer(
  credential: PaymentCredential,
  issued: IssuedChallenge,
  account: string | null,
  input: SaleRequest,
  ports: SalePorts,
  config: SaleConfig,
): Promise<SaleOutcome> {
  const stablecoin = stablecoinOf(ports, config);
  if (stablecoin === undefined) return purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surfaceOf(config));
  const ctx = saleContext(input, ports, config);
  ctx.credential = credential;
  ctx.stablecoin = stablecoin;
  ctx.issued = issued;
  ctx.account = account;
  ctx.payer = payerOf(issued, account);
  return runGuards(guardsAfter(SALE_GUARDS, 'expiry'), ctx);
}
