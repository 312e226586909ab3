import { describe, expect, it } from 'vitest';
import {
  decidePurchase,
  given,
  givenOf,
  orderProblem,
  PACK_GUARDS,
  SALE_GUARDS,
  type InOrder,
  type PurchaseFacts,
  type PurchaseSurface,
  type Stablecoin,
} from '../../src/purchase/index.js';
import { METHOD, OFFER, READABLE } from '../../src/purchase/machine/guards/before-challenge.js';
import { PAYLOAD } from '../../src/purchase/machine/guards/challenge.js';
import { PAYMENT_METHODS } from '../../src/spec/payments.js';
import { purchaseBase } from '../../src/purchase/machine/guards/run.js';
import { railSold } from '../../src/purchase/machine/method.js';
import { presentedCredential } from '../../src/purchase/machine/presented.js';
import { World, paid } from './machine/helpers.js';

describe('the facts the guards give one another (guards/facts.ts, guards/order.ts)', () => {
  it('PACK_GUARDS and SALE_GUARDS each give every fact a guard needs before that guard, and each fact once', () => {
    expect(orderProblem(PACK_GUARDS)).toBeNull();
    expect(orderProblem(SALE_GUARDS)).toBeNull();
    const needed = new Set([...PACK_GUARDS, ...SALE_GUARDS].flatMap((guard) => guard.needs));
    expect([...needed].sort()).toEqual([
      'account',
      'caps',
      'credential',
      'instrument',
      'issued',
      'opened',
      'parsed',
      'payer',
      'payload',
      'payment',
      'rail',
      'recorded',
    ]);
  });

  it('names the guard that needs a fact no earlier guard gives, and a fact two guards give', () => {
    const withoutMethod = PACK_GUARDS.filter((guard) => guard.name !== 'method');
    expect(orderProblem(withoutMethod)).toBe('the guard payload needs rail, which no guard before it gives');
    const readableFirst = [READABLE, OFFER];
    expect(orderProblem(readableFirst)).toBe('the guard readable needs parsed, which no guard before it gives');
    expect(orderProblem([OFFER, OFFER])).toBe('the guards offer and offer both give parsed');
  });

  it('will not run a configured order whose guard needs a fact no earlier guard gives, and says which', async () => {
    const world = new World();
    const payloadFirst = [...PACK_GUARDS.filter((guard) => guard.name !== 'payload').slice(0, 3), PACK_GUARDS.find((g) => g.name === 'payload')!];
    await expect(decidePurchase(world.request({}), world.ports, world.config, payloadFirst)).rejects.toThrow(
      'purchase configuration: the guard payload needs credential, rail, issued, which no guard before it gives',
    );
  });

  it('the compiler refuses a table in an order its guards cannot run in', () => {
    // @ts-expect-error readable needs the parse the offer gives
    const misplaced: InOrder<readonly [typeof READABLE, typeof OFFER]> = true;
    const proven: InOrder<readonly [typeof OFFER, typeof READABLE, typeof METHOD]> = true;
    expect([misplaced, proven]).toEqual([true, true]);
  });

  it('tells the facts a guard gives from an answer', () => {
    expect(givenOf(given({ payer: 'x' }))).toEqual({ payer: 'x' });
    expect(givenOf({ status: 402 })).toBeUndefined();
    expect(givenOf(undefined)).toBeUndefined();
    expect(givenOf(null)).toBeUndefined();
    expect(givenOf('payer')).toBeUndefined();
  });

  it('the method guard refuses a stablecoin credential where a surface lists the method but no stablecoin is sold', async () => {
    const world = new World();
    const request = world.request(paid(await world.challenge()));
    const presented = presentedCredential(request);
    const surface = { methods: () => [PAYMENT_METHODS.stripe, PAYMENT_METHODS.tempo] } as unknown as PurchaseSurface<never>;
    const base = purchaseBase(request, world.ports, world.config, surface, presented);
    const credential = presented.credential!;
    const asTempo = { ...credential, challenge: { ...credential.challenge, method: PAYMENT_METHODS.tempo } };
    const answer = await METHOD.run({ ...base, credential: asTempo });
    expect(answer).toMatchObject({ status: 400, body: { type: expect.stringMatching(/\/method-unsupported$/) } });
    expect(givenOf<Partial<PurchaseFacts>>(await METHOD.run({ ...base, credential }))).toEqual({ rail: { by: 'card' } });
    expect(PAYLOAD.needs).toEqual(['credential', 'rail', 'issued']);
  });

  it('a method pays by the rail machine/method.ts names, the stablecoin only where one is sold', () => {
    const stablecoin = { offer: {}, ports: {} } as Stablecoin;
    expect(railSold(PAYMENT_METHODS.stripe, undefined)).toEqual({ by: 'card' });
    expect(railSold(PAYMENT_METHODS.tempo, stablecoin)).toEqual({ by: 'stablecoin', stablecoin });
    expect(railSold(PAYMENT_METHODS.tempo, undefined)).toBeUndefined();
    expect(railSold('lightning', stablecoin)).toBeUndefined();
  });
});
