import type { FakeChargeState } from '../../../src/purchase/testing/index.js';
import { present, type Real } from './commands.js';
import type { PurchaseModel } from './model.js';

/** Rounds of re-presentation: a purchase_in_flight waits for the buyer's other charge, which an earlier round settles. */
const ROUNDS = 4;

/**
 * Clears every fault (lock, assent store, grant store, held locks, switches, scripted status faults), lets the
 * processor finish every processing charge (settled or declined, alternately), and re-presents every credential
 * whose last answer was a 503 telling to re-present the same credential, checking each answer as a command
 * would; what is left in `model.owed` afterwards never progressed.
 */
export async function resweep(model: PurchaseModel, real: Real): Promise<void> {
  const { world } = real;
  model.lockUnavailable = world.lock.unavailable = false;
  model.failAssent = world.store.failAssent = false;
  model.grantFaults = world.store.failGrants = 0;
  for (const release of world.heldElsewhere.values()) release();
  world.heldElsewhere.clear();
  model.held.clear();
  model.mppEnabled = model.purchasesOpen = true;
  world.config = { ...world.config, mppEnabled: true, purchasesOpen: true };
  world.processor.statusScript.length = 0;
  let n = 0;
  for (const charge of world.processor.charges.values()) {
    if (charge.state === 'processing') world.processor.resolve(charge.chargeId, (n++ % 2 === 0 ? 'settled' : 'declined') satisfies FakeChargeState);
  }
  for (let round = 0; round < ROUNDS && model.owed.size > 0; round++) {
    for (const p of [...model.owed]) await present(p, 'settled', model, real);
  }
}
