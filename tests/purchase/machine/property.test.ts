import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGranted, settleReported, type PaymentChallenge, type PurchaseOutcome } from '../../../src/purchase/index.js';
import type { ScriptedCharge } from '../../../src/purchase/testing/index.js';
import { BUYER, OTHER_BUYER, PACK_NANO, World, oneChallenge, paid } from './helpers.js';

type Action =
  | { readonly kind: 'ask'; readonly buyer: number }
  | { readonly kind: 'present'; readonly challenge: number; readonly token: number; readonly buyer: number; readonly assent: boolean }
  | { readonly kind: 'repeat'; readonly back: number }
  | { readonly kind: 'resolve'; readonly charge: number; readonly state: 'settled' | 'declined' | 'cancelled-unsettled' }
  | { readonly kind: 'report'; readonly charge: number; readonly byKey: boolean }
  | { readonly kind: 'status-fault'; readonly fault: 'unknown' | 'throw' }
  | { readonly kind: 'advance'; readonly seconds: number }
  | { readonly kind: 'switch'; readonly mppEnabled: boolean; readonly purchasesOpen: boolean };

const BUYERS = [BUYER, OTHER_BUYER];
const TOKENS = ['spt_a', 'spt_b', 'spt_c', 'spt_d'];

const scripted: fc.Arbitrary<ScriptedCharge> = fc.oneof(
  fc.constantFrom<ScriptedCharge>('settled', 'declined', 'cancelled-unsettled', 'processing', 'unknown', 'throw'),
  fc.record({
    reply: fc.constantFrom<'throw' | 'unknown'>('throw', 'unknown'),
    actual: fc.constantFrom<'settled' | 'declined' | 'processing'>('settled', 'declined', 'processing'),
  }),
  fc.constant<ScriptedCharge>({ reply: 'throw', created: false }),
);

const present = fc.record({
  kind: fc.constant('present' as const),
  challenge: fc.nat(7),
  token: fc.nat(TOKENS.length - 1),
  buyer: fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.constant(1), weight: 1 }),
  assent: fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, { arbitrary: fc.constant(false), weight: 1 }),
});

/** Weighted so that most runs reach the charge: presentations and asks dominate, switches and long waits are rare. */
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('ask' as const), buyer: fc.nat(1) }), weight: 3 },
  { arbitrary: present, weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('repeat' as const), back: fc.nat(2) }), weight: 5 },
  {
    arbitrary: fc.record({
      kind: fc.constant('resolve' as const),
      charge: fc.nat(7),
      state: fc.constantFrom('settled' as const, 'declined' as const, 'cancelled-unsettled' as const),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('report' as const), charge: fc.nat(7), byKey: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('status-fault' as const), fault: fc.constantFrom('unknown' as const, 'throw' as const) }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 250, max: 400 })) }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('switch' as const), mppEnabled: fc.boolean(), purchasesOpen: fc.boolean() }), weight: 1 },
);

/** Credited balance equals the packs granted; one grant per challenge, each behind a charge the processor settled; one charge per token. */
function checkInvariants(world: World): void {
  const charges = [...world.processor.charges.values()];
  const grants = world.store.allGrants();
  for (const buyer of BUYERS) {
    const owed = grants.filter((g) => g.buyer === buyer).reduce((sum, g) => sum + BigInt(g.creditNano), 0n);
    expect(world.store.balance(buyer)).toBe(String(owed));
  }
  expect(new Set(grants.map((g) => g.challengeId)).size).toBe(grants.length);
  for (const grant of grants) {
    const charge = world.processor.chargeFor(world.store.chargeOf(grant.challengeId)!.idempotencyKey);
    expect(charge?.state).toBe('settled');
  }
  expect(new Set(grants.map((g) => g.chargeId)).size).toBe(grants.length);
  // Never a token charged twice: every charge call for a token uses one idempotency key, so at most one charge exists per token.
  for (const token of TOKENS) {
    expect(new Set(world.processor.calls.filter((c) => c.kind === 'charge' && c.token === token).map((c) => c.arg)).size).toBeLessThanOrEqual(1);
    expect(charges.filter((c) => c.token === token).length).toBeLessThanOrEqual(1);
  }
}

describe('property: any sequence of presentations and processor reports', () => {
  it('credits every settled purchase exactly once and never charges a token twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(scripted, { maxLength: 10 }), fc.array(action, { minLength: 1, maxLength: 40 }), async (script, tail) => {
        const actions: Action[] = [{ kind: 'ask', buyer: 0 }, ...tail];
        const world = new World(script);
        const challenges: PaymentChallenge[] = [];
        const presented: { headers: Record<string, string>; buyer: string }[] = [];
        const told = new Set<string>();
        /** A 402 adds its fresh challenge; a 200 is told once per purchase (a later presentation gets 409). */
        const note = (answer: PurchaseOutcome): void => {
          if (answer.status === 402) challenges.push(oneChallenge(answer));
          if (isGranted(answer)) {
            const id = String(answer.body.paymentIntentId);
            expect(told.has(id)).toBe(false);
            told.add(id);
          }
        };
        for (const step of actions) {
          switch (step.kind) {
            case 'ask': {
              const answer = await world.decide({}, { buyer: { agentUrl: BUYERS[step.buyer]! } });
              note(answer);
              break;
            }
            case 'present': {
              const challenge = challenges[step.challenge % Math.max(1, challenges.length)];
              if (!challenge) break;
              const headers = paid(challenge, TOKENS[step.token], step.assent ? world.config.terms.version : null);
              presented.push({ headers, buyer: BUYERS[step.buyer]! });
              const answer = await world.decide(headers, { buyer: { agentUrl: BUYERS[step.buyer]! } });
              note(answer);
              break;
            }
            case 'repeat': {
              // The same credential presented again, as a client told retry.sameCredential would.
              const earlier = presented[presented.length - 1 - (step.back % Math.max(1, presented.length))];
              if (!earlier) break;
              const answer = await world.decide(earlier.headers, { buyer: { agentUrl: earlier.buyer } });
              note(answer);
              break;
            }
            case 'resolve': {
              const charge = [...world.processor.charges.values()][step.charge];
              if (charge?.state === 'processing') world.processor.resolve(charge.chargeId, step.state);
              break;
            }
            case 'report': {
              const charge = [...world.processor.charges.values()][step.charge];
              if (charge?.state === 'settled')
                await settleReported({ chargeId: charge.chargeId, ...(step.byKey ? { idempotencyKey: charge.idempotencyKey } : {}) }, world.ports);
              break;
            }
            case 'status-fault':
              world.processor.statusScript.push(step.fault);
              break;
            case 'advance':
              world.clock.advance(step.seconds);
              break;
            case 'switch':
              world.config = { ...world.config, mppEnabled: step.mppEnabled, purchasesOpen: step.purchasesOpen };
              break;
          }
          checkInvariants(world);
        }
        // The processor reports every settlement at last: then every settled charge is credited, and only once.
        world.processor.statusScript.length = 0;
        for (const charge of world.processor.charges.values()) {
          if (charge.state === 'settled') await settleReported({ chargeId: charge.chargeId, idempotencyKey: charge.idempotencyKey }, world.ports);
        }
        checkInvariants(world);
        const settled = [...world.processor.charges.values()].filter((c) => c.state === 'settled');
        expect(world.store.allGrants()).toHaveLength(settled.length);
        const total = BigInt(world.store.balance(BUYER)) + BigInt(world.store.balance(OTHER_BUYER));
        expect(total).toBe(BigInt(settled.length) * BigInt(PACK_NANO));
      }),
      { numRuns: 200 },
    );
  });
});
