import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ADDRESS_STATES, AGENT_STATES, readControlRequest, TEST_CONTROL_PATH, TOKEN_STATES } from '../../src/contract/test-control.js';
import { CAP_COUNTERS } from '../../src/purchase/index.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { answerTestControl } from '../../src/reference/test-control-route.js';
import { ReferenceTestControl } from '../../src/reference/test-control.js';

const ALICE = 'http://127.0.0.1:9/r/run/c/alice';
const BOB = 'http://127.0.0.1:9/r/run/c/bob';
const CAROL = 'http://127.0.0.1:9/r/run/c/carol';

describe('the test control protocol (docs/contracts.md section 5)', () => {
  test('reads agent states, token states, and says what is wrong with the rest', () => {
    expect(readControlRequest({ state: 'mpp-disabled', agent: ALICE })).toEqual({ state: AGENT_STATES.mppDisabled, agent: ALICE });
    expect(readControlRequest({ state: 'charge-finishes', token: 'spt_test_processing_1', outcome: 'declined' })).toEqual({
      state: TOKEN_STATES.chargeFinishes,
      token: 'spt_test_processing_1',
      outcome: 'declined',
    });
    expect(readControlRequest({ state: 'settlement-reported', token: 't' })).toEqual({ state: TOKEN_STATES.settlementReported, token: 't' });
    expect(readControlRequest({ state: 'charge-answer-lost', token: 't' })).toEqual({ state: TOKEN_STATES.chargeAnswerLost, token: 't' });
    expect(readControlRequest({ state: 'grant-fails', agent: ALICE })).toEqual({ state: AGENT_STATES.grantFails, agent: ALICE });
    expect(readControlRequest({ state: 'make-it-pass', agent: ALICE })).toEqual({ problem: 'no state "make-it-pass" is offered', unknown: true });
    expect(readControlRequest({ state: 'mpp-disabled' })).toEqual({ problem: 'state mpp-disabled needs agent, the agent URL it holds for' });
    expect(readControlRequest({ state: 'charge-finishes', token: 't', outcome: 'processing' })).toEqual({
      problem: 'state charge-finishes needs outcome, one of settled, declined, cancelled-unsettled',
    });
    expect(readControlRequest([])).toEqual({ problem: 'the body must be a JSON object' });
  });

  test('reads address states for an IPv4 or IPv6 address, and refuses any other address', () => {
    expect(readControlRequest({ state: 'address-cap-one', address: '198.51.100.7' })).toEqual({ state: ADDRESS_STATES.addressCapOne, address: '198.51.100.7' });
    expect(readControlRequest({ state: 'unidentified-calls-closed', address: '2001:db8::7' })).toEqual({
      state: ADDRESS_STATES.unidentifiedCallsClosed,
      address: '2001:db8::7',
    });
    for (const address of [undefined, '', 'example.com', '198.51.100.7:80'])
      expect(readControlRequest({ state: 'address-cap-one', address })).toEqual({
        problem: 'state address-cap-one needs address, the client address (IPv4 or IPv6) it holds for',
      });
  });
});

describe("the reference's test control", () => {
  const view = () => {
    const config = { mppEnabled: true, purchasesOpen: true } as never;
    const ports = { lock: { acquire: () => () => undefined }, buyers: { hasOwner: () => true } } as never;
    return { config, ports, saleOffer: { cardOpen: true } as never, salePorts: {} as never };
  };

  test("keeps the agents a run blocked bounded, the oldest dropped first and the deployment's own never", async () => {
    const control = new ReferenceTestControl();
    const blocked = control.blocking(['https://own.example/a']);
    for (let i = 0; i < 1_005; i++) await control.apply({ state: AGENT_STATES.agentBlocked, agent: `${ALICE}-${i}` }, undefined);
    expect(blocked).toHaveLength(1_001);
    expect(blocked[0]).toBe('https://own.example/a');
    expect(blocked[1]).toBe(`${ALICE}-5`);
    expect(blocked.at(-1)).toBe(`${ALICE}-1004`);
    expect(control.holds(`${ALICE}-1004`, AGENT_STATES.agentBlocked)).toBe(true);
  });

  test('changes only the view of the agent put in a state, and only what that state names', async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: AGENT_STATES.mppDisabled, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.purchaseInFlight, agent: ALICE }, undefined);
    const own = view();
    expect(control.scoped(BOB, own)).toBe(own);
    expect(control.scoped(null, own)).toBe(own);
    const alice = control.scoped(ALICE, own);
    expect(alice.config).toMatchObject({ mppEnabled: false, purchasesOpen: true });
    expect(await alice.ports.lock.acquire(ALICE)).toBeNull();
    expect(alice.saleOffer).toEqual({ cardOpen: true });
  });

  test("blocks an agent on the list the verifier reads, beside the deployment's own", async () => {
    const control = new ReferenceTestControl();
    const list = control.blocking(['https://blocked.example/a']);
    await control.apply({ state: AGENT_STATES.agentBlocked, agent: ALICE }, undefined);
    expect(list).toEqual(['https://blocked.example/a', ALICE]);
  });

  test('moves a token charge at the processor, and reports a settlement', async () => {
    const moves: unknown[][] = [];
    const processor = { processorFinishes: async (...args: unknown[]) => void moves.push(args) };
    const control = new ReferenceTestControl();
    await control.apply({ state: TOKEN_STATES.chargeFinishes, token: 'a', outcome: 'declined' }, processor);
    await control.apply({ state: TOKEN_STATES.settlementReported, token: 'b' }, processor);
    expect(moves).toEqual([
      ['a', 'declined'],
      ['b', 'settled', true],
    ]);
  });

  /** A purchase view whose ports answer what a healthy deployment would, recording what the scoped view asks of them. */
  const healthy = () => {
    const asked: string[] = [];
    const config = { terms: { version: 'v1' }, stablecoin: { token: '0x01', amount: '100', sellsToUnplaceableBuyers: true } } as never;
    const ports = {
      store: {
        grant: () => {
          asked.push('grant');
          return { granted: true };
        },
      },
      processor: {
        charge: async () => {
          asked.push('charge');
          return { outcome: 'processing' };
        },
      },
      stablecoin: {
        network: {
          status: () => {
            asked.push('status');
            return 'settled';
          },
        },
      },
    } as never;
    const saleOffer = {
      price: { amount: '25', currency: 'usd' },
      priceNano: '2500',
      caps: { principalPerDay: 9, instrumentPerDay: 9, ipPerDay: 9, platformPerDay: 9 },
    } as never;
    const salePorts = {
      server: {
        serve: async () => {
          asked.push('serve');
          return { outcome: 'served', response: { status: 200, headers: { 'content-type': 'application/json' }, body: null } };
        },
      },
      funding: {
        hold: () => {
          asked.push('hold');
          return 'held';
        },
      },
    } as never;
    return { asked, view: { config, ports, saleOffer, salePorts } };
  };

  test('moves the terms, the call price and the daily caps for the agent put in those states only', async () => {
    const control = new ReferenceTestControl();
    for (const state of [AGENT_STATES.termsChanged, AGENT_STATES.callRepriced, AGENT_STATES.callCapsOne])
      await control.apply({ state, agent: ALICE }, undefined);
    const { view } = healthy();
    const alice = control.scoped(ALICE, view);
    expect(alice.config.terms.version).toBe('v1-next');
    expect(alice.saleOffer.price).toEqual({ amount: '26', currency: 'usd' });
    expect(alice.saleOffer.priceNano).toBe('2501');
    expect(alice.saleOffer.caps).toEqual({ principalPerDay: 1, instrumentPerDay: 1, ipPerDay: 9, platformPerDay: 9 });
    expect(control.scoped(BOB, view)).toBe(view);
  });

  test('a once-state happens once per request, on the next step it names, then the step is healthy again', async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: AGENT_STATES.grantFails, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.grantFails, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.transferPending, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.fundingFailsOnce, agent: ALICE }, undefined);
    const { asked, view } = healthy();
    const grant = () => control.scoped(ALICE, view).ports.store.grant({} as never);
    expect(grant).toThrow('grant store unavailable');
    expect(grant).toThrow('grant store unavailable');
    expect(grant()).toEqual({ granted: true });
    const status = () => control.scoped(ALICE, view).ports.stablecoin!.network.status('0x01');
    expect(await status()).toBe('pending');
    expect(await status()).toBe('settled');
    const hold = () => (control.scoped(ALICE, view).salePorts.funding.hold as (...a: unknown[]) => unknown)();
    expect(hold).toThrow('funding step failed');
    expect(hold()).toBe('held');
    expect(asked).toEqual(['grant', 'status', 'hold']);
    expect(control.scoped(BOB, view).ports.store.grant({} as never)).toEqual({ granted: true });
  });

  test('grant-fails fails the grant that comes with a settle too: the charge settled, nothing credited, once', async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: AGENT_STATES.grantFails, agent: ALICE }, undefined);
    const asked: string[] = [];
    const store = {
      grant: () => ({ granted: true }),
      updateCharge: (challengeId: string, update: { state: string; chargeId?: string }) => {
        asked.push(`update ${challengeId} ${update.state} ${update.chargeId}`);
        return { challengeId, state: update.state };
      },
      settleAndGrant: (challengeId: string) => {
        asked.push(`settle and grant ${challengeId}`);
        return { record: { challengeId, state: 'settled' }, credited: { granted: true } };
      },
    };
    const healthyView = healthy().view as { ports: object };
    const view = { ...healthyView, ports: { ...healthyView.ports, store } } as never;
    const settle = () => control.scoped(ALICE, view).ports.store.settleAndGrant('ch_1', 'pi_1', {} as never);
    expect(await settle()).toEqual({ record: { challengeId: 'ch_1', state: 'settled' } });
    expect(await settle()).toEqual({ record: { challengeId: 'ch_1', state: 'settled' }, credited: { granted: true } });
    expect(asked).toEqual(['update ch_1 settled pi_1', 'settle and grant ch_1']);
  });

  test("the agent's next paid call does not start, fails, or crashes once, then is served", async () => {
    const control = new ReferenceTestControl();
    for (const state of [AGENT_STATES.callNotStarted, AGENT_STATES.callFails, AGENT_STATES.callCrashes])
      await control.apply({ state, agent: ALICE }, undefined);
    const { asked, view } = healthy();
    const serve = () => control.scoped(ALICE, view).salePorts.server.serve({} as never);
    expect(await serve()).toEqual({ outcome: 'not-started' });
    await expect(serve()).rejects.toThrow('the resource crashed');
    expect(await serve()).toMatchObject({ outcome: 'failed', response: { status: 502 } });
    expect(await serve()).toMatchObject({ outcome: 'served', response: { status: 200 } });
    expect(asked).toEqual(['serve']);
  });

  test("an address's states change the single-call offer of every request from that address, and of no other", async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: ADDRESS_STATES.unidentifiedCallsClosed, address: '198.51.100.7' }, undefined);
    await control.apply({ state: ADDRESS_STATES.addressCapOne, address: '198.51.100.8' }, undefined);
    const { view } = healthy();
    expect(control.scoped(null, view, '198.51.100.7').saleOffer).toMatchObject({ anonymous: false, caps: { ipPerDay: 9 } });
    expect(control.scoped(ALICE, view, '198.51.100.7').saleOffer).toMatchObject({ anonymous: false });
    expect(control.scoped(null, view, '198.51.100.8').saleOffer.caps).toEqual({ principalPerDay: 9, instrumentPerDay: 9, ipPerDay: 1, platformPerDay: 9 });
    expect(control.scoped(null, view, '198.51.100.9')).toBe(view);
    expect(control.scoped(null, view)).toBe(view);
  });

  test("an agent's own cap of one, its cards counted as one card with a cap of one, its platform counter its own with a ceiling of one", async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: AGENT_STATES.cardCapOne, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.platformCeilingOne, agent: BOB }, undefined);
    await control.apply({ state: AGENT_STATES.principalCapOne, agent: CAROL }, undefined);
    const taken: unknown[][] = [];
    const { view: base } = healthy();
    const view = {
      ...base,
      salePorts: {
        ...(base.salePorts as object),
        cards: { instrumentOf: (token: string) => `fingerprint-${token}` },
        caps: {
          take: (...args: unknown[]) => {
            taken.push(['take', ...args]);
            return { taken: true };
          },
          release: (...args: unknown[]) => void taken.push(['release', ...args]),
        },
      } as never,
    };
    const alice = control.scoped(ALICE, view);
    expect(alice.saleOffer.caps).toEqual({ principalPerDay: 9, instrumentPerDay: 1, ipPerDay: 9, platformPerDay: 9 });
    expect(await alice.salePorts.cards.instrumentOf('tok_one')).toBe(await alice.salePorts.cards.instrumentOf('tok_two'));
    expect(await control.scoped(BOB, view).salePorts.cards.instrumentOf('tok_one')).toBe('fingerprint-tok_one');
    const bob = control.scoped(BOB, view);
    expect(bob.saleOffer.caps).toEqual({ principalPerDay: 9, instrumentPerDay: 9, ipPerDay: 9, platformPerDay: 1 });
    const counters = [
      { name: `${CAP_COUNTERS.account}${BOB}`, limit: 9 },
      { name: CAP_COUNTERS.platform, limit: 1 },
    ];
    await bob.salePorts.caps.take(counters, 7);
    await bob.salePorts.caps.release([`${CAP_COUNTERS.account}${BOB}`, CAP_COUNTERS.platform], 7);
    expect(taken).toEqual([
      ['take', [counters[0], { name: `${CAP_COUNTERS.platform}:${BOB}`, limit: 1 }], 7],
      ['release', [`${CAP_COUNTERS.account}${BOB}`, `${CAP_COUNTERS.platform}:${BOB}`], 7],
    ]);
    await alice.salePorts.caps.take(counters, 7);
    expect(taken.at(-1)).toEqual(['take', counters, 7]);
    expect(control.scoped(CAROL, view).saleOffer.caps).toEqual({ principalPerDay: 1, instrumentPerDay: 9, ipPerDay: 9, platformPerDay: 9 });
  });

  test("the agent's per-call card market, currency, cost on the balance and credit price move for it only", async () => {
    const control = new ReferenceTestControl();
    for (const state of [AGENT_STATES.callCardMarketElsewhere, AGENT_STATES.callCurrencyChanged, AGENT_STATES.callBalanceCostChanged])
      await control.apply({ state, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.callCostsOneCredit, agent: BOB }, undefined);
    const { view: base } = healthy();
    const view = { ...base, config: { ...(base.config as object), pack: { creditNano: '777' } } as never };
    const alice = control.scoped(ALICE, view).saleOffer;
    expect(alice.cardCountries).toEqual(['XB']);
    expect(alice.price).toEqual({ amount: '25', currency: 'eur' });
    expect(alice.priceNano).toBe('2501');
    expect(control.scoped(BOB, view).saleOffer).toMatchObject({ price: { amount: '25', currency: 'usd' }, priceNano: '777' });
  });

  test("a completion on the LLM rail costs the agent two fifths of a pack's credit, and every other agent the deployment's price", async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: AGENT_STATES.completionCostsTwoFifthsCredit, agent: ALICE }, undefined);
    expect(control.completionPriceNano(ALICE, 1_000_000n, '5000000000')).toBe(2_000_000_000n);
    expect(control.completionPriceNano(BOB, 1_000_000n, '5000000000')).toBe(1_000_000n);
    expect(control.completionPriceNano(null, 1_000_000n, '5000000000')).toBe(1_000_000n);
    // A pack covers two such completions, and what is left of it is more than nothing and less than a third.
    const price = control.completionPriceNano(ALICE, 1n, '777');
    expect([2n * price < 777n, 3n * price > 777n]).toEqual([true, true]);
    const { view } = healthy();
    expect(control.scoped(ALICE, view).saleOffer, 'the single call is not repriced').toBe(view.saleOffer);
  });

  test("the agent's paid calls echo the body they ran with, and once answer 300", async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: AGENT_STATES.callEchoes, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.callAnswersMultipleChoices, agent: BOB }, undefined);
    const { asked, view } = healthy();
    const body = new TextEncoder().encode('{"q":1}');
    expect(await control.scoped(ALICE, view).salePorts.server.serve({ body } as never)).toEqual({
      outcome: 'served',
      response: { status: 200, headers: { 'content-type': 'application/octet-stream' }, body },
    });
    const bob = () => control.scoped(BOB, view).salePorts.server.serve({ body } as never);
    expect(await bob()).toMatchObject({ outcome: 'served', response: { status: 300, headers: { 'content-type': 'application/json' } } });
    expect(await bob()).toMatchObject({ outcome: 'served', response: { status: 200 } });
    expect(asked).toEqual(['serve', 'serve', 'serve']);
  });

  test("the agent's stablecoin: not sold, another token, where its wallet stands, and its network's faults", async () => {
    const control = new ReferenceTestControl();
    const offer = { token: '0x01', amount: '100', sellsToUnplaceableBuyers: true };
    const statuses: string[] = [];
    const network = { broadcast: async () => ({ hash: '0xAB' }), status: async () => 'settled' };
    const view = {
      config: { stablecoin: offer } as never,
      ports: {
        store: { grant: () => ({ granted: true }) },
        stablecoin: { network, locations: { locate: () => 'DE' }, walletCaps: { count: () => 'counted', release: () => undefined } },
      } as never,
      saleOffer: {} as never,
      salePorts: {} as never,
    };
    await control.apply({ state: AGENT_STATES.stablecoinNotSold, agent: BOB }, undefined);
    expect(control.scoped(BOB, view).config.stablecoin).toBeUndefined();
    for (const state of [AGENT_STATES.stablecoinTokenChanged, AGENT_STATES.unplacedWalletsRefused, AGENT_STATES.walletCapOne])
      await control.apply({ state, agent: ALICE }, undefined);
    const alice = () => control.scoped(ALICE, view);
    expect(alice().config.stablecoin).toMatchObject({ token: `0x${'ff'.repeat(20)}`, sellsToUnplaceableBuyers: false });
    expect(alice().config.stablecoin?.walletDailyCap).toBeDefined();
    const caps = alice().ports.stablecoin!.walletCaps;
    expect(await caps.count('0xw' as never, 0, '0x1' as never, '1', '9')).toBe('counted');
    expect(await caps.count('0xw' as never, 0, '0x1' as never, '1', '9')).toBe('counted');
    expect(await caps.count('0xw' as never, 0, '0x2' as never, '1', '9')).toBe('over-cap');
    await control.apply({ state: AGENT_STATES.walletUnplaced, agent: ALICE }, undefined);
    expect(await alice().ports.stablecoin!.locations.locate('0xw' as never)).toBeUndefined();
    expect(await alice().ports.stablecoin!.locations.locate('0xw' as never)).toBe('DE');
    await control.apply({ state: AGENT_STATES.walletPlaced, agent: ALICE }, undefined);
    expect(await alice().ports.stablecoin!.locations.locate('0xw' as never)).toBe('XA');
    await control.apply({ state: AGENT_STATES.broadcastUnreachable, agent: ALICE }, undefined);
    await expect(alice().ports.stablecoin!.network.broadcast('0x' as never)).rejects.toThrow('unreachable');
    await control.apply({ state: AGENT_STATES.transferFails, agent: ALICE }, undefined);
    const { hash } = await alice().ports.stablecoin!.network.broadcast('0x' as never);
    await control.apply({ state: AGENT_STATES.transferPending, agent: ALICE }, undefined);
    await control.apply({ state: AGENT_STATES.statusReadFails, agent: ALICE }, undefined);
    const status = alice().ports.stablecoin!.network;
    await expect(status.status(hash)).rejects.toThrow('unreachable');
    statuses.push(await status.status(hash), await status.status(hash), await status.status('0xcd' as never));
    expect(statuses).toEqual(['pending', 'failed', 'settled']);
    await control.apply({ state: AGENT_STATES.networkUnreachable, agent: ALICE }, undefined);
    const unreachable = alice().ports.stablecoin!.network;
    await expect(unreachable.status('0xcd' as never)).rejects.toThrow('unreachable');
    await expect(unreachable.broadcast('0x' as never)).rejects.toThrow('unreachable');
    expect(await alice().ports.stablecoin!.network.status('0xcd' as never)).toBe('settled');
  });

  test('a slow call runs until a later request of its agent is in flight, or half a second', async () => {
    vi.useFakeTimers();
    try {
      const control = new ReferenceTestControl();
      await control.apply({ state: AGENT_STATES.callSlow, agent: ALICE }, undefined);
      const { view } = healthy();
      const served = () => {
        const state = { done: false };
        const call = Promise.resolve(control.scoped(ALICE, view).salePorts.server.serve({} as never)).then(() => (state.done = true));
        return { state, call };
      };
      const first = served();
      await vi.advanceTimersByTimeAsync(100);
      expect(first.state.done, 'still running with no later request of the agent').toBe(false);
      control.scoped(BOB, view);
      await vi.advanceTimersByTimeAsync(100);
      expect(first.state.done, "another agent's request does not end it").toBe(false);
      control.scoped(ALICE, view);
      await vi.advanceTimersByTimeAsync(0);
      expect(first.state.done, 'ended by the next request of its agent').toBe(true);
      const lone = served();
      await vi.advanceTimersByTimeAsync(499);
      expect(lone.state.done).toBe(false);
      await vi.advanceTimersByTimeAsync(2);
      expect(lone.state.done, 'ended after half a second with no later request').toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a token's next charge reaches the processor and its answer is lost, once", async () => {
    const control = new ReferenceTestControl();
    await control.apply({ state: TOKEN_STATES.chargeAnswerLost, token: 'spt_lost' }, undefined);
    const { asked, view } = healthy();
    const charge = (token: string) => control.scoped(null, view).ports.processor.charge(token, {} as never, 'key');
    expect(await charge('spt_other')).toEqual({ outcome: 'processing' });
    await expect(charge('spt_lost')).rejects.toThrow("the processor's answer was lost");
    expect(await charge('spt_lost')).toEqual({ outcome: 'processing' });
    expect(asked).toEqual(['charge', 'charge', 'charge']);
  });

  test('answers loopback peers only, POST only, and says why it refuses', async () => {
    const control = new ReferenceTestControl();
    const post = (body: string) => new Request(`http://127.0.0.1${TEST_CONTROL_PATH}`, { method: 'POST', body });
    expect((await answerTestControl(post('{}'), '203.0.113.9', control, undefined)).status).toBe(403);
    expect((await answerTestControl(new Request(`http://127.0.0.1${TEST_CONTROL_PATH}`), '127.0.0.1', control, undefined)).status).toBe(405);
    expect((await answerTestControl(post('not json'), '127.0.0.1', control, undefined)).status).toBe(400);
    const unknown = await answerTestControl(post('{"state":"make-it-pass"}'), '127.0.0.1', control, undefined);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'unknown_state' });
    const noProcessor = await answerTestControl(post('{"state":"settlement-reported","token":"t"}'), '::1', control, undefined);
    expect(noProcessor.status).toBe(409);
    expect((await answerTestControl(post(JSON.stringify({ state: 'buyer-inactive', agent: ALICE })), '::1', control, undefined)).status).toBe(204);
  });
});

describe('serve and the test control', () => {
  let off: ServedReference;
  let on: ServedReference;
  beforeAll(async () => {
    [off, on] = await Promise.all([serveReference({ port: 0 }), serveReference({ port: 0, testControl: true })]);
  });
  afterAll(async () => {
    await Promise.all([off?.close(), on?.close()]);
  });
  const control = (served: ServedReference, body: unknown) =>
    fetch(`${served.url}${TEST_CONTROL_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  test("without --test-control the path is not the deployment's: 404", async () => {
    expect((await control(off, { state: 'mpp-disabled', agent: ALICE })).status).toBe(404);
  });

  test('with it, a state is put in place (204) and a state not offered is 404 unknown_state', async () => {
    expect((await control(on, { state: 'mpp-disabled', agent: ALICE })).status).toBe(204);
    const unknown = await control(on, { state: 'make-it-pass', agent: ALICE });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'unknown_state' });
    expect(on.platform.purchases?.testControl).toBeDefined();
  });
});
