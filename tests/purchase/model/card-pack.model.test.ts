import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settleReported } from '../../../src/purchase/index.js';
import { PACK_NANO } from '../machine/helpers.js';
import { Ask, checkInvariants, commandArbitraries, type Real } from './commands.js';
import { PurchaseModel } from './model.js';
import { BUYERS, ModelWorld } from './world.js';
import { resweep } from './sweep.js';

/**
 * Model-based: fast-check generates command lists (ask, present a new or earlier credential, processor
 * replies including faults before and after the charge reached it, resolve, settlement reports, stray
 * settlements, clock moves past the 300 s expiry, switches, new terms, lock unavailable or held, assent
 * store failing, a crash between charge and grant), runs each against the machine and the model, and checks
 * every answer against the model's prediction and against "a correct next step". At the end every fault is
 * cleared: every credential a 503 told to re-present progresses, and after the processor reports every
 * settlement, the balance is exactly one pack per settled charge.
 */
describe('model: the card pack machine under any sequence of presentations, processor outcomes and faults', () => {
  it('answers as the model predicts, never charges a credential twice, credits every settled payment once, and always leaves a next step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbitraries, { maxCommands: 30, size: 'max' }), async (commands) => {
        const world = new ModelWorld();
        const model = new PurchaseModel();
        const real: Real = { world };
        // Every run starts with one challenge to pay.
        await fc.asyncModelRun(() => ({ model, real }), [new Ask(0), ...commands]);

        await resweep(model, real);
        expect(
          [...model.owed].map((p) => `${p.challenge.id}/${p.token}`),
          'every credential told to re-present progressed once the faults cleared',
        ).toEqual([]);

        // The processor reports every settlement at last (by id and idempotency key).
        for (const charge of world.processor.charges.values()) {
          if (charge.state !== 'settled') continue;
          const report = { chargeId: charge.chargeId, idempotencyKey: charge.idempotencyKey };
          const expected = model.predictSettlement(report, world.processor);
          const result = await settleReported(report, world.ports);
          expect(result.credited ? 'credited' : result.reason).toBe(expected);
        }
        checkInvariants(world);
        const settled = [...world.processor.charges.values()].filter((c) => c.state === 'settled');
        expect(world.store.allGrants()).toHaveLength(settled.length);
        const total = BUYERS.reduce((sum, b) => sum + BigInt(world.store.balance(b)), 0n);
        expect(total).toBe(BigInt(settled.length) * BigInt(PACK_NANO));
      }),
      { numRuns: 100 },
    );
  });
});
