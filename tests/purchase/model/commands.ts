import fc from 'fast-check';
import { expect } from 'vitest';
import { isGranted, settleReported, type PurchaseOutcome } from '../../../src/purchase/index.js';
import type { FakeChargeState, ScriptedCharge } from '../../../src/purchase/testing/index.js';
import { NEXT_VERSION } from '../machine/helpers.js';
import { GRANTED, type PurchaseModel, type Prediction } from './model.js';
import { nextStep } from './next-step.js';
import { BUYERS, TOKENS, type Assent, type ModelWorld, type Presentation } from './world.js';

export type Real = { readonly world: ModelWorld };
type Command = fc.AsyncCommand<PurchaseModel, Real>;

/**
 * Checks an answer against the prediction and against "a correct next step" (next-step.ts), then brings the
 * model up to date: a 402's fresh challenge is one more challenge to pay; a 200 is told once per purchase.
 */
async function observe(answer: PurchaseOutcome, expected: Prediction, m: PurchaseModel, r: Real, presented?: Presentation): Promise<void> {
  const { world } = r;
  const step = await nextStep(answer, world.store, world.clock.now());
  expect(isGranted(answer) ? GRANTED : answer.code, `answer status ${answer.status}`).toBe(expected.code);
  if (step.kind === 'pay') m.addChallenge(step.challenge, world.clock.now());
  if (step.kind === 'granted' && presented) {
    expect(m.told.has(presented.challenge.id), 'a purchase is told granted once').toBe(false);
    m.told.add(presented.challenge.id);
  }
  if (presented) {
    if (step.kind === 'same-credential') m.owed.add(presented);
    else m.owed.delete(presented);
  }
  checkInvariants(world);
}

/**
 * What holds after every command: the processor holds at most one charge per idempotency key and per token
 * (no credential charged twice), every charge it holds was opened by the machine; balances equal the packs
 * granted, one grant per challenge, each behind a charge the processor settled, none behind a refunded one.
 */
export function checkInvariants(world: ModelWorld): void {
  const charges = [...world.processor.charges.values()];
  const records = world.store.allCharges();
  expect(new Set(charges.map((c) => c.idempotencyKey)).size).toBe(charges.length);
  expect(new Set(charges.map((c) => c.token)).size).toBe(charges.length);
  for (const charge of charges) expect(records.some((r) => r.idempotencyKey === charge.idempotencyKey && r.token === charge.token)).toBe(true);
  const grants = world.store.allGrants();
  expect(new Set(grants.map((g) => g.challengeId)).size).toBe(grants.length);
  for (const buyer of BUYERS) {
    const owed = grants.filter((g) => g.buyer === buyer).reduce((sum, g) => sum + BigInt(g.creditNano), 0n);
    expect(world.store.balance(buyer)).toBe(String(owed));
  }
  for (const grant of grants) {
    const charge = world.processor.chargeFor(world.store.chargeOf(grant.challengeId)!.idempotencyKey);
    expect(charge?.state, `grant ${grant.challengeId} is behind a settled charge`).toBe('settled');
    expect(world.processor.refunds, `charge ${charge!.chargeId} both credited and refunded`).not.toContain(charge!.chargeId);
  }
}

export class Ask implements Command {
  constructor(readonly buyer: number) {}
  check = () => true as const;
  async run(m: PurchaseModel, r: Real): Promise<void> {
    const expected = m.predictAsk();
    await observe(await r.world.decide(null, BUYERS[this.buyer]), expected, m, r);
  }
  toString = () => `ask(buyer ${this.buyer})`;
}

interface PresentSpec {
  readonly challenge: number;
  readonly token: number;
  readonly buyer: number;
  readonly authenticated: boolean;
  readonly assent: Assent;
  readonly reply: ScriptedCharge;
}

export async function present(p: Presentation, reply: ScriptedCharge, m: PurchaseModel, r: Real): Promise<void> {
  const { world } = r;
  const expected = m.predictPresent(p, reply, world.processor, world.clock.now());
  if (expected.enqueue !== undefined) world.processor.enqueue(expected.enqueue);
  const before = world.processor.chargeCalls();
  const answer = await world.decide(p);
  const charged = world.processor.chargeCalls() > before;
  // The scripted reply is consumed exactly when the model says a new charge goes out.
  if (expected.enqueue !== undefined) expect(charged, 'a new charge was sent').toBe(true);
  if (!m.presented.includes(p)) m.presented.push(p);
  await observe(answer, expected, m, r, p);
}

/** A credential: for an earlier challenge, with a token, as a buyer, authenticated or not, with some assent. */
class Present implements Command {
  constructor(readonly spec: PresentSpec) {}
  check = (m: Readonly<PurchaseModel>) => m.challenges.length > 0;
  async run(m: PurchaseModel, r: Real): Promise<void> {
    const { spec } = this;
    const challenge = m.challenges[spec.challenge % m.challenges.length]!.challenge;
    const known = m.presented.find(
      (p) =>
        p.challenge === challenge &&
        p.token === TOKENS[spec.token] &&
        p.buyer === BUYERS[spec.buyer] &&
        p.authenticated === spec.authenticated &&
        p.assent === spec.assent,
    );
    const p: Presentation = known ?? {
      challenge,
      token: TOKENS[spec.token]!,
      buyer: BUYERS[spec.buyer]!,
      authenticated: spec.authenticated,
      assent: spec.assent,
    };
    await present(p, spec.reply, m, r);
  }
  toString = () => `present(${JSON.stringify(this.spec)})`;
}

/** The same credential again: one a 503 told to re-present if any, else an earlier one. */
class Repeat implements Command {
  constructor(
    readonly back: number,
    readonly reply: ScriptedCharge,
  ) {}
  check = (m: Readonly<PurchaseModel>) => m.presented.length > 0;
  async run(m: PurchaseModel, r: Real): Promise<void> {
    const owed = [...m.owed];
    const p = owed.length > 0 ? owed[this.back % owed.length]! : m.presented[m.presented.length - 1 - (this.back % m.presented.length)]!;
    await present(p, this.reply, m, r);
  }
  toString = () => `repeat(${this.back}, ${JSON.stringify(this.reply)})`;
}

/** The processor moves a processing charge to its final state. */
class Resolve implements Command {
  constructor(
    readonly charge: number,
    readonly state: FakeChargeState,
  ) {}
  check = () => true as const;
  async run(_m: PurchaseModel, r: Real): Promise<void> {
    const processing = [...r.world.processor.charges.values()].filter((c) => c.state === 'processing');
    const charge = processing[this.charge % Math.max(1, processing.length)];
    if (charge) r.world.processor.resolve(charge.chargeId, this.state);
  }
  toString = () => `resolve(${this.charge}, ${this.state})`;
}

/** The processor reports a settled charge (a webhook): by id, with or without the idempotency key and the token. */
class Report implements Command {
  constructor(
    readonly charge: number,
    readonly byKey: boolean,
    readonly withToken: boolean,
  ) {}
  check = () => true as const;
  async run(m: PurchaseModel, r: Real): Promise<void> {
    const { world } = r;
    const settled = [...world.processor.charges.values()].filter((c) => c.state === 'settled');
    const charge = settled[this.charge % Math.max(1, settled.length)];
    if (!charge) return;
    const report = {
      chargeId: charge.chargeId,
      ...(this.byKey ? { idempotencyKey: charge.idempotencyKey } : {}),
      ...(this.withToken ? { token: charge.token } : {}),
    };
    const expected = m.predictSettlement(report, world.processor);
    const result = await settleReported(report, world.ports);
    expect(result.credited ? 'credited' : result.reason).toBe(expected);
    checkInvariants(world);
  }
  toString = () => `report(${this.charge}, byKey ${this.byKey}, withToken ${this.withToken})`;
}

/** A settled payment that matches nothing sold, naming a token: refunded; the token then answers payment_unreconciled. */
/** A settled payment that matches nothing sold; a token pays once, so it names a token no charge was opened with. */
class StrayReport implements Command {
  constructor(readonly token: number) {}
  check = (m: Readonly<PurchaseModel>) => !m.tokenSpent(TOKENS[this.token]!);
  async run(m: PurchaseModel, r: Real): Promise<void> {
    const report = { chargeId: `pi_stray_${r.world.processor.refunds.length}`, token: TOKENS[this.token]! };
    expect(m.predictSettlement(report, r.world.processor)).toBe('unmatched');
    const result = await settleReported(report, r.world.ports);
    expect(result).toMatchObject({ credited: false, reason: 'unmatched', refund: r.world.processor.refundState });
    checkInvariants(r.world);
  }
  toString = () => `strayReport(token ${this.token})`;
}

class StatusFault implements Command {
  constructor(readonly fault: 'unknown' | 'throw') {}
  check = () => true as const;
  async run(_m: PurchaseModel, r: Real): Promise<void> {
    r.world.processor.statusScript.push(this.fault);
  }
  toString = () => `statusFault(${this.fault})`;
}

class Advance implements Command {
  constructor(readonly seconds: number) {}
  check = () => true as const;
  async run(_m: PurchaseModel, r: Real): Promise<void> {
    r.world.clock.advance(this.seconds);
  }
  toString = () => `advance(${this.seconds})`;
}

class Switch implements Command {
  constructor(
    readonly mppEnabled: boolean,
    readonly purchasesOpen: boolean,
  ) {}
  check = () => true as const;
  async run(m: PurchaseModel, r: Real): Promise<void> {
    m.mppEnabled = this.mppEnabled;
    m.purchasesOpen = this.purchasesOpen;
    r.world.config = { ...r.world.config, mppEnabled: this.mppEnabled, purchasesOpen: this.purchasesOpen };
  }
  toString = () => `switch(mpp ${this.mppEnabled}, open ${this.purchasesOpen})`;
}

/** The deployment publishes new terms: challenges issued before name a stale version. */
class NewTerms implements Command {
  check = (m: Readonly<PurchaseModel>) => m.termsVersion !== NEXT_VERSION;
  async run(m: PurchaseModel, r: Real): Promise<void> {
    m.termsVersion = NEXT_VERSION;
    r.world.config = { ...r.world.config, terms: { ...r.world.config.terms, version: NEXT_VERSION } };
  }
  toString = () => 'newTerms()';
}

type Fault = 'lock-unavailable' | 'lock-available' | 'assent-fails' | 'assent-recovers' | 'grant-fails-once' | 'hold' | 'release';

class Inject implements Command {
  constructor(
    readonly fault: Fault,
    readonly buyer: number,
  ) {}
  check = () => true as const;
  async run(m: PurchaseModel, r: Real): Promise<void> {
    const { world } = r;
    const buyer = BUYERS[this.buyer]!;
    switch (this.fault) {
      case 'lock-unavailable':
      case 'lock-available':
        m.lockUnavailable = world.lock.unavailable = this.fault === 'lock-unavailable';
        break;
      case 'assent-fails':
      case 'assent-recovers':
        m.failAssent = world.store.failAssent = this.fault === 'assent-fails';
        break;
      case 'grant-fails-once':
        // A crash between charge and grant: the next grant (a presentation's or a report's) does not happen.
        m.grantFaults = world.store.failGrants = 1;
        break;
      case 'hold': {
        if (m.held.has(buyer) || m.lockUnavailable) return;
        const release = world.lock.acquire(buyer);
        if (release === null) throw new Error('the lock is held by nobody the model knows');
        world.heldElsewhere.set(buyer, release);
        m.held.add(buyer);
        break;
      }
      case 'release':
        world.heldElsewhere.get(buyer)?.();
        world.heldElsewhere.delete(buyer);
        m.held.delete(buyer);
        break;
    }
  }
  toString = () => `inject(${this.fault}, buyer ${this.buyer})`;
}

export const replies: fc.Arbitrary<ScriptedCharge> = fc.oneof(
  { arbitrary: fc.constantFrom<ScriptedCharge>('settled', 'declined', 'cancelled-unsettled', 'processing'), weight: 4 },
  {
    arbitrary: fc.record({
      reply: fc.constantFrom<'throw' | 'unknown'>('throw', 'unknown'),
      actual: fc.constantFrom<FakeChargeState>('settled', 'declined', 'processing'),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant<ScriptedCharge>({ reply: 'throw', created: false }), weight: 1 },
);

const presentSpec: fc.Arbitrary<PresentSpec> = fc.record({
  challenge: fc.nat(7),
  token: fc.nat(TOKENS.length - 1),
  buyer: fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.constant(1), weight: 1 }),
  authenticated: fc.oneof({ arbitrary: fc.constant(true), weight: 9 }, { arbitrary: fc.constant(false), weight: 1 }),
  assent: fc.oneof({ arbitrary: fc.constant<Assent>('covered'), weight: 8 }, { arbitrary: fc.constantFrom<Assent>('none', 'uncovered', 'stale'), weight: 1 }),
  reply: replies,
});

/** Switches flipped off now and then, back on more often. */
const mostly = fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 });

const faults: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  'lock-unavailable',
  'lock-available',
  'assent-fails',
  'assent-recovers',
  'grant-fails-once',
  'hold',
  'release',
);

/** Weighted so that most runs reach the charge: presentations dominate, faults, switches and long waits are rarer. */
export const commandArbitraries: fc.Arbitrary<Command>[] = [
  fc.oneof(
    { arbitrary: fc.nat(1).map((b) => new Ask(b)), weight: 3 },
    { arbitrary: presentSpec.map((s) => new Present(s)), weight: 8 },
    { arbitrary: fc.tuple(fc.nat(3), replies).map(([b, reply]) => new Repeat(b, reply)), weight: 5 },
    {
      arbitrary: fc.tuple(fc.nat(3), fc.constantFrom<FakeChargeState>('settled', 'declined', 'cancelled-unsettled')).map(([c, s]) => new Resolve(c, s)),
      weight: 3,
    },
    { arbitrary: fc.tuple(fc.nat(3), fc.boolean(), fc.boolean()).map(([c, k, t]) => new Report(c, k, t)), weight: 2 },
    { arbitrary: fc.nat(TOKENS.length - 1).map((t) => new StrayReport(t)), weight: 1 },
    { arbitrary: fc.constantFrom<'unknown' | 'throw'>('unknown', 'throw').map((f) => new StatusFault(f)), weight: 1 },
    { arbitrary: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 250, max: 400 })).map((s) => new Advance(s)), weight: 1 },
    { arbitrary: fc.tuple(mostly, mostly).map(([a, b]) => new Switch(a, b)), weight: 1 },
    { arbitrary: fc.constant(new NewTerms()), weight: 1 },
    { arbitrary: fc.tuple(faults, fc.nat(1)).map(([f, b]) => new Inject(f, b)), weight: 3 },
  ),
];
