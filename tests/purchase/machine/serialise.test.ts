import { describe, expect, it } from 'vitest';
import { serialisePurchase, type IssuedChallenge } from '../../../src/purchase/index.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, World } from './helpers.js';

/** Only what serialisePurchase reads of a challenge: its id and the terms version it was issued under. */
const ISSUED = { id: 'ch_serialise', termsVersion: '2026-07-31' } as IssuedChallenge;

function candidate(world: World) {
  return { input: world.request({}), buyer: BUYER, issued: ISSUED };
}

describe("serialising one buyer's purchases (7.4 503s: nothing started, the same credential completes later)", () => {
  it('purchase_lock_unavailable when the store cannot say whether another purchase of the buyer is settling; the lock is let go', async () => {
    const world = new World();
    world.store.pendingChargeOf = () => {
      throw new Error('the database is unreachable');
    };
    const lock = await serialisePurchase(candidate(world), world.ports, world.config);
    expect(lock.held).toBe(false);
    if (lock.held) return;
    expect(lock.answer.status).toBe(503);
    expect(lock.answer.body.error_code).toBe(PURCHASE_ERRORS.purchase_lock_unavailable.code);
    expect(world.lock.isHeld(BUYER)).toBe(false);
    expect(world.store.allAssents()).toEqual([]);
  });

  it('holds the lock, with the assent recorded, when nothing of the buyer is settling', async () => {
    const world = new World();
    const lock = await serialisePurchase(candidate(world), world.ports, world.config);
    expect(lock.held).toBe(true);
    expect(world.lock.isHeld(BUYER)).toBe(true);
    expect(world.store.allAssents()).toEqual([{ buyer: BUYER, version: ISSUED.termsVersion, challengeId: ISSUED.id, at: world.clock.now() }]);
    if (lock.held) await lock.release();
    expect(world.lock.isHeld(BUYER)).toBe(false);
  });
});
