import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBalanceRequired } from '../../src/purchase/inband.js';
import type { PurchaseStore } from '../../src/purchase/index.js';
import { MemoryPurchaseStore } from '../../src/purchase/testing/index.js';
import { createDelegate, delegateToolResult, PurchasedBalanceLedger } from '../../src/reference/paid/index.js';
import { DELEGATE_MEMBERS, DELEGATE_STATUSES } from '../../src/spec/inband.js';

const AGENT = 'https://agents.example/a/ana';

/** A store whose balance is whatever the test sets, answered after a turn of the event loop (a database). */
function slowStore(initial: bigint): Pick<PurchaseStore, 'balance'> & { credited: bigint } {
  const store = {
    credited: initial,
    balance: async (): Promise<string> => {
      await new Promise((resolve) => setImmediate(resolve));
      return String(store.credited);
    },
  };
  return store;
}

describe('PurchasedBalanceLedger', () => {
  it('reads what the machine credited minus what the rails spent, and refuses a spend the balance does not cover', async () => {
    const ledger = new PurchasedBalanceLedger(slowStore(1_000n));
    expect(await ledger.spend(AGENT, 600n)).toBe(true);
    expect(await ledger.balanceOf(AGENT)).toBe(400n);
    expect(await ledger.spend(AGENT, 600n)).toBe(false);
    expect(await ledger.balanceOf(AGENT)).toBe(400n);
    expect(ledger.spentBy(AGENT)).toBe(600n);
  });

  it('reads the machine store itself (an agent with no grant has nothing)', async () => {
    const ledger = new PurchasedBalanceLedger(new MemoryPurchaseStore());
    expect(await ledger.balanceOf(AGENT)).toBe(0n);
    expect(await ledger.spend(AGENT, 1n)).toBe(false);
  });

  it('property: concurrent spends never take more than the balance', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.array(fc.bigInt({ min: 1n, max: 3_000n }), { minLength: 1, maxLength: 12 }),
        async (credited, amounts) => {
          const ledger = new PurchasedBalanceLedger(slowStore(credited));
          const results = await Promise.all(amounts.map((nano) => ledger.spend(AGENT, nano)));
          const taken = amounts.reduce((sum, nano, i) => (results[i] ? sum + nano : sum), 0n);
          expect(taken).toBe(ledger.spentBy(AGENT));
          expect(taken <= credited).toBe(true);
          expect(await ledger.balanceOf(AGENT)).toBe(credited - taken);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses a negative spend', () => {
    expect(() => new PurchasedBalanceLedger(slowStore(1n)).spend(AGENT, -1n)).toThrow(RangeError);
  });
});

describe('the MCP delegate (4.7)', () => {
  it('answers balance_required and does not run the call when the balance does not cover it', async () => {
    const ran: unknown[] = [];
    const delegate = createDelegate({ balances: new PurchasedBalanceLedger(slowStore(5n)), callPriceNano: 10n, run: (call) => ran.push(call) });
    const answer = await delegate(AGENT, { tool: 'search' });
    expect(answer).toEqual({ [DELEGATE_MEMBERS.status]: DELEGATE_STATUSES.balanceRequired });
    expect(checkBalanceRequired(answer)).toEqual({ ok: true });
    expect(ran).toEqual([]);
    expect(await delegate(null, { tool: 'search' })).toEqual({ [DELEGATE_MEMBERS.status]: DELEGATE_STATUSES.balanceRequired });
  });

  it('runs a covered call once, after spending its price', async () => {
    const ledger = new PurchasedBalanceLedger(slowStore(15n));
    const delegate = createDelegate({ balances: ledger, callPriceNano: 10n, run: (call, payer) => ({ echoed: call, payer }) });
    expect(await delegate(AGENT, { q: 1 })).toEqual({
      [DELEGATE_MEMBERS.status]: DELEGATE_STATUSES.completed,
      [DELEGATE_MEMBERS.result]: { echoed: { q: 1 }, payer: AGENT },
    });
    expect(await ledger.balanceOf(AGENT)).toBe(5n);
    expect((await delegate(AGENT, { q: 2 }))[DELEGATE_MEMBERS.status]).toBe(DELEGATE_STATUSES.balanceRequired);
  });

  it('wraps the answer as an MCP tool result: structured content and its JSON text', () => {
    const answer = { [DELEGATE_MEMBERS.status]: DELEGATE_STATUSES.balanceRequired } as const;
    expect(delegateToolResult(answer)).toEqual({ content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer });
  });
});
