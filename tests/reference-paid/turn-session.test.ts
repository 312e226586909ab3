import { describe, expect, it } from 'vitest';
import {
  checkPaymentRequiredFrame,
  describeProblems,
  paymentSubmitFrame,
  responseCreateFrame,
  serializeFrame,
  type InbandFrame,
} from '../../src/purchase/inband.js';
import { parsePaymentChallenge } from '../../src/purchase/index.js';
import { ManualClock } from '../../src/purchase/testing/index.js';
import {
  machineChallengeIssuer,
  textOutput,
  TurnSession,
  type BalancePort,
  type SocketCaller,
  type TurnSessionOptions,
} from '../../src/reference/paid/index.js';
import { createReferencePurchases } from '../../src/reference/purchases.js';
import { PLATFORM_ERROR_CODES } from '../../src/reference/routes.js';
import { FRAME_MEMBERS, INBAND_FRAME_TYPES, INBAND_SCHEMES, SCHEME_ENTRY_MEMBERS, SOCKET_ERROR_CODES, SOCKET_ERROR_MEMBERS } from '../../src/spec/inband.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

/** The socket's turn logic without a socket: frames in, frames out. */
const ORIGIN = 'https://platform.example';
const PURCHASE_URL = `${ORIGIN}${PLATFORM_ROUTES.mppCredits}`;
const PAYER = 'https://agents.example/a/ana';
const PRICE = 1_000n;

class MapBalances implements BalancePort {
  readonly balances = new Map<string, bigint>();
  balanceOf(agentUrl: string): bigint {
    return this.balances.get(agentUrl) ?? 0n;
  }
  spend(agentUrl: string, nano: bigint): boolean {
    if (this.balanceOf(agentUrl) < nano) return false;
    this.balances.set(agentUrl, this.balanceOf(agentUrl) - nano);
    return true;
  }
}

function setup(caller: Partial<SocketCaller> = {}, options: Partial<TurnSessionOptions> = {}) {
  const purchases = createReferencePurchases({ origin: ORIGIN, clock: new ManualClock(1_789_732_800) });
  const balances = new MapBalances();
  const sent: Record<string, unknown>[] = [];
  const session = new TurnSession(
    { agent: 'alice', payer: PAYER, signed: true, ...caller },
    {
      balances,
      turnPriceNano: PRICE,
      purchaseUrl: PURCHASE_URL,
      terms: purchases.config.terms,
      issueChallenge: machineChallengeIssuer(purchases.ports, () => purchases.config),
      ...options,
    },
    (frame: InbandFrame) => sent.push(JSON.parse(serializeFrame(frame))),
  );
  const receive = (frame: InbandFrame | string) => session.receive(typeof frame === 'string' ? frame : serializeFrame(frame));
  return { purchases, balances, sent, session, receive };
}

const schemesOf = (frame: Record<string, unknown> | undefined) => (frame![FRAME_MEMBERS.requirements] as { schemes: Record<string, unknown>[] }).schemes;
const errorCode = (frame: Record<string, unknown> | undefined) => (frame![FRAME_MEMBERS.error] as Record<string, unknown>)[SOCKET_ERROR_MEMBERS.code];

describe('TurnSession', () => {
  it('asks a signed caller to pay the machine challenge, recorded in the machine store', async () => {
    const { sent, receive, purchases } = setup();
    await receive(responseCreateFrame('c1', 'hi'));
    expect(sent).toHaveLength(1);
    expect(describeProblems(checkPaymentRequiredFrame(sent[0], { mpp: 'challenge' }))).toEqual([]);
    const parsed = parsePaymentChallenge(schemesOf(sent[0])[1]?.[SCHEME_ENTRY_MEMBERS.challenge] as string);
    expect(parsed.ok && purchases.store.challenge(parsed.challenge.id)?.id).toBe(parsed.ok ? parsed.challenge.id : 'unparsed');
  });

  it('offers the token entry alone when the machine is not selling (mpp_disabled) or the deployment sells no usage', async () => {
    const closed = setup();
    closed.purchases.config = { ...closed.purchases.config, mppEnabled: false };
    await closed.receive(responseCreateFrame('c1'));
    expect(schemesOf(closed.sent[0])).toEqual([{ [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.token }]);

    const none = setup({}, { purchaseUrl: null });
    await none.receive(responseCreateFrame('c1'));
    expect(checkPaymentRequiredFrame(none.sent[0], { mpp: 'absent' })).toEqual({ ok: true });
  });

  it('gives an unsigned (bearer) caller, and a bearer naming no one, the pointer', async () => {
    for (const caller of [{ signed: false }, { signed: false, payer: null }]) {
      const { sent, receive } = setup(caller);
      await receive(responseCreateFrame('c1'));
      expect(schemesOf(sent[0])).toEqual([
        { [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.token },
        { [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.mpp, [SCHEME_ENTRY_MEMBERS.purchaseUrl]: PURCHASE_URL },
      ]);
    }
  });

  it('refuses a second turn while one waits, and keeps the waiting one', async () => {
    const { sent, receive, balances } = setup();
    await receive(responseCreateFrame('c1', 'first'));
    await receive(responseCreateFrame('c2', 'second'));
    expect(errorCode(sent[1])).toBe(SOCKET_ERROR_CODES.turnInProgress);
    balances.balances.set(PAYER, PRICE);
    await receive(paymentSubmitFrame('c3', '0'));
    expect(sent.slice(2).map((f) => f[FRAME_MEMBERS.type])).toEqual([INBAND_FRAME_TYPES.paymentAccepted, INBAND_FRAME_TYPES.responseDone]);
    expect((sent[3]![FRAME_MEMBERS.response] as { output: unknown[] }).output).toEqual([textOutput('echo: first')]);
    expect(balances.balanceOf(PAYER)).toBe(0n);
  });

  it('answers frames in the order received, even when they arrive together', async () => {
    const { sent, receive, balances } = setup();
    balances.balances.set(PAYER, PRICE * 2n);
    await Promise.all([receive(responseCreateFrame('c1', 'a')), receive(responseCreateFrame('c2', 'b')), receive(responseCreateFrame('c3', 'c'))]);
    expect(sent.map((f) => f[FRAME_MEMBERS.type])).toEqual([
      INBAND_FRAME_TYPES.responseDone,
      INBAND_FRAME_TYPES.responseDone,
      INBAND_FRAME_TYPES.paymentRequired,
    ]);
  });

  it('refuses what it cannot read, with no terms object', async () => {
    const { sent, receive } = setup();
    await receive('not json');
    await receive(JSON.stringify({ type: 'session.update' }));
    await receive(JSON.stringify({ type: INBAND_FRAME_TYPES.paymentSubmit, payment: { scheme: INBAND_SCHEMES.token } }));
    await receive(JSON.stringify({ type: INBAND_FRAME_TYPES.responseCreate, input: 5 }));
    expect(sent.map(errorCode)).toEqual([
      SOCKET_ERROR_CODES.invalidFrame,
      SOCKET_ERROR_CODES.invalidFrame,
      SOCKET_ERROR_CODES.schemeUnsupported,
      SOCKET_ERROR_CODES.invalidFrame,
    ]);
    expect(sent.every((f) => !(FRAME_MEMBERS.terms in f))).toBe(true);
  });

  it('answers a failing balance port with internal_error and keeps serving', async () => {
    const { sent, receive, balances } = setup();
    const spend = balances.spend.bind(balances);
    balances.spend = () => {
      throw new Error('ledger down');
    };
    await receive(responseCreateFrame('c1'));
    expect(errorCode(sent[0])).toBe(PLATFORM_ERROR_CODES.internal);
    balances.spend = spend;
    balances.balances.set(PAYER, PRICE);
    await receive(responseCreateFrame('c2', 'ok'));
    expect(sent[1]?.[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.responseDone);
  });

  it('ends a funded turn that fails anywhere after the spend (the balance read, the turn) in response.error with the terms', async () => {
    const { sent, receive, balances, purchases } = setup();
    await receive(responseCreateFrame('c1', 'first'));
    balances.balances.set(PAYER, PRICE * 2n);
    const spend = balances.spend.bind(balances);
    balances.spend = (agentUrl, nano) => {
      const spent = spend(agentUrl, nano);
      balances.balanceOf = () => {
        throw new Error('ledger read down after the spend');
      };
      return spent;
    };
    await receive(paymentSubmitFrame('c2', '0'));
    const failing = setup({}, { runTurn: () => Promise.reject(new Error('agent down')) });
    failing.balances.balances.set(PAYER, PRICE);
    await failing.receive(responseCreateFrame('c1', 'x'));
    for (const frame of [sent.at(-1), failing.sent.at(-1)]) {
      expect(frame?.[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.responseError);
      expect(errorCode(frame)).toBe(SOCKET_ERROR_CODES.turnFailed);
      expect(frame?.[FRAME_MEMBERS.terms]).toEqual({ url: purchases.config.terms.url, version: purchases.config.terms.version });
    }
  });

  it('refuses a price that is not positive', () => {
    expect(() => setup({}, { turnPriceNano: 0n })).toThrow(RangeError);
  });
});
