import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGranted, settleReported, type PurchaseOutcome, type PurchasePorts } from '../../../src/purchase/index.js';
import type { ScriptedCharge } from '../../../src/purchase/testing/index.js';
import { PAYMENT_PROBLEMS } from '../../../src/spec/payments.js';
import { PACK_NANO } from '../machine/helpers.js';
import { replies } from './commands.js';
import { nextStep, type NextStep } from './next-step.js';
import { BUYERS, ModelWorld, TOKENS, type Presentation } from './world.js';

/** The same object whose listed methods start only when the scheduler says so: every await in the machine becomes a point another presentation may run at. */
function scheduled<T extends object>(target: T, s: fc.Scheduler, names: readonly (keyof T)[]): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value: unknown = Reflect.get(t, prop, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!names.includes(prop as keyof T)) return method.bind(t);
      return (...args: unknown[]) => s.schedule(Promise.resolve(), String(prop)).then(() => method.apply(t, args));
    },
  });
}

/**
 * Ports whose processor, store and lock calls interleave as the scheduler picks. Each new charge is checked as it
 * reaches the processor, after the scheduler let it through, to be the buyer's only purchase in flight: no other
 * charge of that buyer is still `sent`. (Checked before the scheduler, two calls under one key could each look new.)
 */
function scheduledWorld(s: fc.Scheduler): { world: ModelWorld; overlaps: string[] } {
  const world = new ModelWorld();
  const overlaps: string[] = [];
  const watched: PurchasePorts['processor'] = {
    charge: (token, amount, key) => {
      if (world.processor.chargeFor(key) === undefined) {
        const record = world.store.chargeByKey(key)!;
        const other = world.store.pendingChargeOf(record.buyer, record.challengeId);
        if (other) overlaps.push(`${key} charged while ${other.idempotencyKey} was in flight`);
      }
      return world.processor.charge(token, amount, key);
    },
    status: (id) => world.processor.status(id),
    instrumentCountry: (token) => world.processor.instrumentCountry(token),
    refund: (id) => world.processor.refund(id),
  };
  const processor = scheduled(watched, s, ['charge', 'status']);
  const store = scheduled(world.store, s, [
    'chargeOf',
    'credentialRecords',
    'openCharge',
    'updateCharge',
    'settleAndGrant',
    'grant',
    'grantOf',
    'recordAssent',
    'pendingChargeOf',
    'challenge',
  ]);
  const lock = scheduled(world.lock, s, ['acquire']);
  const ports: PurchasePorts = { ...world.ports, processor, store, lock };
  const scheduledWorld = Object.assign(Object.create(Object.getPrototypeOf(world) as object) as ModelWorld, world, { ports });
  return { world: scheduledWorld, overlaps };
}

/** Lets the processor finish what it holds, clears the faults, then presents each credential again until no 503 asks for it. */
async function followUp(world: ModelWorld, s: fc.Scheduler, credentials: readonly Presentation[], answers: PurchaseOutcome[]): Promise<void> {
  for (const c of world.processor.charges.values()) if (c.state === 'processing') world.processor.resolve(c.chargeId, 'settled');
  world.store.failGrants = 0;
  world.lock.unavailable = false;
  for (let round = 0; round < 3; round++) {
    for (const p of credentials) answers.push(await s.waitFor(world.decide(p)));
  }
}

/**
 * Section 3 row 1: the same credential presented again resumes its charge, always. A 402 to a presentation of
 * a credential whose challenge was issued may only be the decline of its own charge (verification-failed),
 * never "challenge already redeemed" (invalid-challenge), which would have the buyer pay a second time.
 */
function expectNoSecondPayment(answers: readonly PurchaseOutcome[]): void {
  const asked = answers.filter((a) => a.status === 402).map((a) => (isGranted(a) ? '' : a.code));
  expect(asked.filter((code) => code !== PAYMENT_PROBLEMS.verificationFailed.slug)).toEqual([]);
}

async function steps(world: ModelWorld, answers: readonly PurchaseOutcome[]): Promise<NextStep[]> {
  // Every answer has a next step (the clock stands still here, so every 402's challenge was issued now).
  const out: NextStep[] = [];
  for (const answer of answers) out.push(await nextStep(answer, world.store, world.clock.now()));
  return out;
}

const burst = fc.integer({ min: 2, max: 5 });

describe('scheduler: concurrent presentations against the card pack machine', () => {
  it('one credential presented concurrently is charged at most once and credited once, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), burst, replies, fc.boolean(), fc.boolean(), async (s, n, reply: ScriptedCharge, grantFault, lockDown) => {
        const { world, overlaps } = scheduledWorld(s);
        world.processor.enqueue(reply, 'settled');
        const challenge = (await steps(world, [await s.waitFor(world.decide(null))]))[0]!;
        if (challenge.kind !== 'pay') throw new Error('no challenge');
        const p: Presentation = { challenge: challenge.challenge, token: TOKENS[0], buyer: BUYERS[0], authenticated: true, assent: 'covered' };
        if (grantFault) world.store.failGrants = 1;
        world.lock.unavailable = lockDown;

        const answers = await s.waitFor(Promise.all(Array.from({ length: n }, () => world.decide(p))));
        await followUp(world, s, [p], answers);
        await steps(world, answers);

        expect(overlaps).toEqual([]);
        expectNoSecondPayment(answers);
        expect(world.processor.charges.size).toBeLessThanOrEqual(1);
        const settled = [...world.processor.charges.values()].filter((c) => c.state === 'settled');
        expect(world.store.allGrants()).toHaveLength(settled.length);
        expect(world.store.balance(BUYERS[0])).toBe(String(BigInt(settled.length) * BigInt(PACK_NANO)));
        // Every 200 tells of the one purchase (presentations racing the grant may each tell it; the credit is once, above).
        expect(new Set(answers.filter(isGranted).map((a) => a.body.paymentIntentId)).size).toBeLessThanOrEqual(1);
      }),
      { numRuns: 100 },
    );
  });

  it('two credentials of one buyer presented concurrently: one purchase in flight at a time, each charged at most once, each settled one credited once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), burst, replies, replies, async (s, n, first: ScriptedCharge, second: ScriptedCharge) => {
        const { world, overlaps } = scheduledWorld(s);
        world.processor.enqueue(first, second);
        const asks = await steps(world, await s.waitFor(Promise.all([world.decide(null), world.decide(null)])));
        const credentials = asks.map((a, i): Presentation => {
          if (a.kind !== 'pay') throw new Error('no challenge');
          return { challenge: a.challenge, token: TOKENS[i]!, buyer: BUYERS[0], authenticated: true, assent: 'covered' };
        });

        const answers = await s.waitFor(Promise.all(Array.from({ length: n }, (_, i) => world.decide(credentials[i % 2]!))));
        await followUp(world, s, credentials, answers);
        await steps(world, answers);

        expect(overlaps).toEqual([]);
        expectNoSecondPayment(answers);
        expect(world.processor.charges.size).toBeLessThanOrEqual(2);
        expect(new Set([...world.processor.charges.values()].map((c) => c.token)).size).toBe(world.processor.charges.size);
        // The processor reports every settlement at last: one pack per settled charge, on this buyer.
        for (const c of world.processor.charges.values()) {
          if (c.state === 'settled') await s.waitFor(settleReported({ chargeId: c.chargeId, idempotencyKey: c.idempotencyKey }, world.ports));
        }
        const settled = [...world.processor.charges.values()].filter((c) => c.state === 'settled');
        expect(world.store.allGrants()).toHaveLength(settled.length);
        expect(world.store.balance(BUYERS[0])).toBe(String(BigInt(settled.length) * BigInt(PACK_NANO)));
        // Every 200 names a charge credited to this buyer.
        const credited = new Set(world.store.allGrants().map((g) => g.chargeId));
        for (const a of answers.filter(isGranted)) expect(credited.has(String(a.body.paymentIntentId))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
