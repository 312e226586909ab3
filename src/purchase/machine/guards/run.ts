import { tokenOf } from '../../wire/credential.js';
import type { PurchaseRequest } from '../ports/outcome.js';
import type { PurchaseConfig, PurchasePorts } from '../ports/purchase.js';
import type { OutcomeOf, PurchaseContext, PurchaseGuard, PurchaseSurface } from './guard.js';
import type { PresentedCredential } from '../presented.js';

export function purchaseContext<O>(
  input: PurchaseRequest,
  ports: PurchasePorts,
  config: PurchaseConfig,
  surface: PurchaseSurface<O>,
  presented: PresentedCredential,
): PurchaseContext<O> {
  return { input, ports, config, surface, presented, held: [], taken: [] };
}

/** The facts earlier guards establish, by the name a wrong order of guards is reported with. */
export const FACTS = Object.freeze({
  account: 'the account',
  caps: 'the caps',
  card: 'the card',
  cardToken: 'the card token',
  challenge: 'the challenge',
  chargeRecord: 'the charge record',
  credential: 'the credential',
  payer: 'the payer',
  stablecoin: 'the stablecoin',
  transaction: 'the transaction',
  transfer: 'the transfer',
  transferRecord: 'the transfer record',
} as const);

/** A fact an earlier guard established. */
export function known<T>(value: T | undefined, what: (typeof FACTS)[keyof typeof FACTS]): T {
  if (value === undefined) throw new TypeError(`the order of guards is wrong: ${what} is not known yet`);
  return value;
}

/** The shared payment token of a card credential the payload guard admitted. */
export function cardTokenOf(ctx: PurchaseContext<unknown>): string {
  return known(tokenOf(known(ctx.credential, FACTS.credential)), FACTS.cardToken);
}

/** The credential's method, once it was read. */
export function methodOf(ctx: PurchaseContext<unknown>): string | undefined {
  return ctx.credential?.challenge.method;
}

/** Releases what the presentation holds (the buyer's lock), once. */
export async function releaseHeld(ctx: PurchaseContext<unknown>): Promise<void> {
  for (const release of ctx.held.splice(0)) await release();
}

/** Gives back what the presentation took before a refusal (the sale's caps), once. */
export async function giveBack(ctx: PurchaseContext<unknown>): Promise<void> {
  for (const undo of ctx.taken.splice(0)) await undo();
}

/**
 * Runs the guards in order; the first that answers decides. Whatever the presentation still holds is released
 * once the answer is known (a surface may release it earlier, before a long step that needs no lock).
 */
export async function runGuards<C extends PurchaseContext<unknown>>(guards: readonly PurchaseGuard<C>[], ctx: C): Promise<OutcomeOf<C>> {
  try {
    for (const guard of guards) {
      if (guard.methods !== undefined && !(guard.methods as readonly string[]).includes(methodOf(ctx) ?? '')) continue;
      const answer = await guard.run(ctx);
      if (answer !== undefined) return answer;
    }
  } finally {
    await releaseHeld(ctx);
  }
  throw new TypeError(`no guard answered: the last guard of ${guards.map((g) => g.name).join(', ')} always answers`);
}
