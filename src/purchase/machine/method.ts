import { PAYMENT_METHOD_OF, type PaymentMethodId } from '../../spec/payments.js';

/**
 * How a payment method pays: by a card charge (a shared payment token sent to the processor) or by a stablecoin
 * transfer (a signed transaction broadcast to the network). The one place the machine decides it; every step that
 * goes one way or the other asks here, never compares a method itself.
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

/** The methods of one rail, for a guard that applies to it alone (`PurchaseGuard.methods`). */
export const CARD_METHODS: readonly PaymentMethodId[] = Object.freeze([PAYMENT_METHOD_OF.card]);
export const TRANSFER_METHODS: readonly PaymentMethodId[] = Object.freeze([PAYMENT_METHOD_OF.stablecoin]);
