import { PAYMENT_METHOD_OF } from '../../spec/payments.js';
import type { RailSold } from './guards/facts.js';
import type { Stablecoin } from './ports/purchase.js';

/**
 * How a payment method pays: by a card charge (a shared payment token sent to the processor) or by a stablecoin
 * transfer (a signed transaction broadcast to the network). The one place the machine decides it; every step that
 * goes one way or the other asks here or reads the rail the method guard found (guards/facts.ts), never compares a
 * method itself.
 */
export type Rail = keyof typeof PAYMENT_METHOD_OF;

const RAIL_OF: Readonly<Record<string, Rail>> = Object.freeze(
  Object.fromEntries(Object.entries(PAYMENT_METHOD_OF).map(([rail, method]) => [method, rail as Rail])),
);

/** The rail a method pays by; undefined for a method the machine does not know (or no method yet). */
function railOf(method: string | undefined): Rail | undefined {
  return method === undefined || !Object.hasOwn(RAIL_OF, method) ? undefined : RAIL_OF[method];
}

/** Whether a method pays by a stablecoin transfer. */
export function paysByTransfer(method: string | undefined): boolean {
  return railOf(method) === 'stablecoin';
}

/** Whether a method pays by a card charge. */
export function paysByCard(method: string | undefined): boolean {
  return railOf(method) === 'card';
}

/** How a credential of `method` pays here: undefined for a method the machine does not know, or the stablecoin where none is sold. */
export function railSold(method: string, stablecoin: Stablecoin | undefined): RailSold | undefined {
  const rail = railOf(method);
  if (rail === 'card') return { by: 'card' };
  return rail === 'stablecoin' && stablecoin !== undefined ? { by: 'stablecoin', stablecoin } : undefined;
}
