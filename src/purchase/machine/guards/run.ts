import type { PurchaseRequest } from '../ports/outcome.js';
import type { PurchaseConfig, PurchasePorts } from '../ports/purchase.js';
import type { PresentedCredential } from '../presented.js';
import { givenOf, type PurchaseFacts } from './facts.js';
import type { OutcomeOf, PurchaseBase, PurchaseGuard, PurchaseSurface } from './guard.js';
import { orderProblem } from './order.js';

export function purchaseBase<O>(
  input: PurchaseRequest,
  ports: PurchasePorts,
  config: PurchaseConfig,
  surface: PurchaseSurface<O>,
  presented: PresentedCredential,
): PurchaseBase<O> {
  return { input, ports, config, surface, presented, held: [], taken: [] };
}

/** Releases what the presentation holds (the buyer's lock), once. */
export async function releaseHeld(ctx: PurchaseBase<unknown>): Promise<void> {
  for (const release of ctx.held.splice(0)) await release();
}

/** Gives back what the presentation took before a refusal (the sale's caps), once. */
export async function giveBack(ctx: PurchaseBase<unknown>): Promise<void> {
  for (const undo of ctx.taken.splice(0)) await undo();
}

/** Orders of guards found runnable (orderProblem), so each configured order is checked once. */
const orderChecked = new WeakSet<readonly unknown[]>();

/**
 * Runs the guards in order; the first that answers decides, and each that passes gives its facts to the guards after
 * it. Whatever the presentation still holds is released once the answer is known (a surface may release it earlier,
 * before a long step that needs no lock).
 */
export async function runGuards<B extends PurchaseBase<unknown>, F extends PurchaseFacts>(
  guards: readonly PurchaseGuard<B, F>[],
  base: B,
): Promise<OutcomeOf<B>> {
  // Stryker disable next-line ConditionalExpression: checking an order again finds what it found the first time; only the work changes
  if (!orderChecked.has(guards)) {
    const problem = orderProblem(guards);
    if (problem) throw new Error(`purchase configuration: ${problem}`);
    orderChecked.add(guards);
  }
  // What the guards gave so far; the order was checked above, so every guard finds the facts it needs here.
  const known = base as B & F;
  try {
    for (const guard of guards) {
      const ran = await guard.run(known);
      if (ran === undefined) continue;
      const facts = givenOf<Partial<F>>(ran);
      if (facts === undefined) return ran as OutcomeOf<B>;
      Object.assign(known, facts);
    }
  } finally {
    await releaseHeld(base);
  }
  throw new TypeError(`no guard answered: the last guard of ${guards.map((g) => g.name).join(', ')} always answers`);
}
